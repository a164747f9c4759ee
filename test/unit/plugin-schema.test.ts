/**
 * The Pulumi package schema generated from the declarations (provider/plugin/schema.json, kept
 * current by the generated-files test): every resource, input and output with its type, required
 * inputs, secrets and description, the import id; every lookup and action as a function; the configuration.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CLEANUP_CADENCES } from "../../api/cleanup-policy";
import { inputKeys, outputKeys, declaredSecrets, type AnyDeclaration } from "../../provider/engine/declaration";
import { idFormat } from "../../provider/engine/ids";
import { declarations } from "../../provider/resources";
import { actionDeclarations } from "../../provider/actions";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { GO_IMPORT_PATH, isEnumType, REPOSITORY, type PackageSchema, type TypeSpec } from "../../scripts/generate/schema";
import { pluginToken } from "../../provider/type-tokens";

const pkg = JSON.parse(readFileSync(join(__dirname, "../../provider/plugin/schema.json"), "utf8")) as PackageSchema;
const { version } = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { version: string };
const all = Object.values(declarations) as AnyDeclaration[];

/** Every `$ref` of a type spec, at any depth. */
function refs(spec: TypeSpec | undefined): string[] {
  if (!spec) return [];
  return [...(spec.$ref ? [spec.$ref] : []), ...refs(spec.items), ...refs(spec.additionalProperties), ...(spec.oneOf ?? []).flatMap(refs)];
}

describe("the package schema", () => {
  it.each(all.map((declaration) => [declaration.name, declaration] as const))(
    "%s: inputs, outputs, required inputs, secrets, descriptions, import id",
    (_name, declaration) => {
      const resource = pkg.resources[pluginToken(declaration.name)]!;
      expect(resource).toBeDefined();
      expect(Object.keys(resource.inputProperties).sort()).toEqual(inputKeys(declaration).sort());
      expect(Object.keys(resource.properties).sort()).toEqual([...new Set([...inputKeys(declaration), ...outputKeys(declaration)])].sort());
      const required = inputKeys(declaration).filter((key) => !(declaration.inputs.shape[key] as z.ZodType).safeParse(undefined).success);
      expect(resource.requiredInputs.sort()).toEqual(required.sort());
      for (const key of declaredSecrets(declaration)) expect(resource.properties[key]?.secret, `${key} is secret`).toBe(true);
      for (const [key, property] of Object.entries(resource.inputProperties))
        expect(property.description, `${declaration.name}.${key} has a description`).toBeTruthy();
      // A rotating resource is never imported: its page says so instead of an import id.
      if (declaration.rotation) expect(resource.description).not.toContain("pulumi import");
      else expect(resource.description).toContain(`pulumi import ${pluginToken(declaration.name)} <name> ${idFormat(declaration)}`);
    },
  );

  it("has every lookup and action as a function, the connection as configuration with the token secret, and only types it defines", () => {
    expect(Object.keys(pkg.functions).sort()).toEqual(
      [...Object.keys(lookupDeclarations), ...actionDeclarations.map((action) => action.name)].map(pluginToken).sort(),
    );
    expect(pkg.functions[pluginToken("revokeGroupToken")]?.inputs.required?.sort()).toEqual(["group", "token"]);
    expect(pkg.functions[pluginToken("revokeGroupToken")]?.inputs.properties["token"]?.secret).toBe(true);
    expect(pkg.functions[pluginToken("listErrorTrackingClientKeys")]?.outputs.properties["result"]?.secret).toBe(true);
    expect(pkg.functions[pluginToken("getGroup")]?.outputs.properties["result"]?.secret).toBeUndefined();
    expect(pkg.config.variables["baseUrl"]?.type).toBe("string");
    expect(pkg.config.variables["token"]?.secret).toBe(true);
    const everyRef = [
      ...Object.values(pkg.resources).flatMap((resource) => Object.values(resource.properties).flatMap(refs)),
      ...Object.values(pkg.types).flatMap((type) => (isEnumType(type) ? [] : Object.values(type.properties).flatMap(refs))),
      ...Object.values(pkg.functions).flatMap((fn) => Object.values(fn.inputs.properties).flatMap(refs)),
    ];
    for (const ref of everyRef) {
      if (ref === "pulumi.json#/Any") continue;
      expect(pkg.types[ref.slice("#/types/".length)], ref).toBeDefined();
    }
  });

  it("gives every field whose values the API lists an enum type: the values of the zod schema, each named", () => {
    const enumOf = (ref: string | undefined) => {
      const type = ref ? pkg.types[ref.slice("#/types/".length)] : undefined;
      return type && isEnumType(type) ? type : undefined;
    };
    let checked = 0;
    for (const declaration of all) {
      const resource = pkg.resources[pluginToken(declaration.name)]!;
      for (const key of inputKeys(declaration)) {
        const json = z.toJSONSchema(declaration.inputs.shape[key] as z.ZodType, { io: "input", unrepresentable: "any" }) as {
          enum?: unknown[];
          anyOf?: { enum?: unknown[] }[];
        };
        const values = json.enum ?? json.anyOf?.find((variant) => variant.enum)?.enum;
        if (!values || values.length < 2) continue;
        const type = enumOf(resource.inputProperties[key]?.$ref);
        expect(type, `${declaration.name}.${key} is an enum type`).toBeDefined();
        expect(
          type!.enum.map((value) => value.value),
          `${declaration.name}.${key}`,
        ).toEqual(values);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
    for (const [token, type] of Object.entries(pkg.types)) {
      if (!isEnumType(type)) continue;
      expect(new Set(type.enum.map((value) => value.name)).size, `${token}: one name per value`).toBe(type.enum.length);
      for (const value of type.enum) expect(value.name, `${token} ${value.value}`).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(type.type).toBe(typeof type.enum[0]!.value === "number" ? "integer" : "string");
    }
    expect(JSON.stringify(pkg)).not.toContain("One of ");
  });

  it("names access levels by role, cadences by period, and shares one visibility type between groups, snippets and the group lookups", () => {
    const type = (name: string) => pkg.types[pluginToken(name)];
    expect(pkg.resources[pluginToken("ProjectMember")]!.inputProperties["accessLevel"]!.$ref).toBe(
      `#/types/${pluginToken("ProjectMemberAccessLevel")}`,
    );
    expect(type("ProjectMemberAccessLevel")).toMatchObject({
      type: "integer",
      enum: expect.arrayContaining([{ value: 40, name: "Maintainer", description: "Maintainer (40)." }]),
    });
    const cadence = type("VirtualRegistryCleanupPolicyCadence");
    expect(cadence && isEnumType(cadence) ? cadence.enum.map((value) => [value.value, value.name]) : []).toEqual(
      [
        [1, "Daily"],
        [7, "Weekly"],
        [14, "Biweekly"],
        [30, "Monthly"],
        [90, "Quarterly"],
      ].filter(([value]) => (CLEANUP_CADENCES as readonly unknown[]).includes(value)),
    );
    const visibility = `#/types/${pluginToken("Visibility")}`;
    expect(pkg.resources[pluginToken("Snippet")]!.inputProperties["visibility"]!.$ref).toBe(visibility);
    expect(pkg.resources[pluginToken("GroupSettings")]!.inputProperties["visibility"]!.$ref).toBe(visibility);
    expect(pkg.functions[pluginToken("listGroups")]!.inputs.properties["visibility"]!.$ref).toBe(visibility);
    // Nested: a protected environment's entries and a broadcast's target roles.
    const entry = pkg.types[pluginToken("ProjectProtectedEnvironmentDeployAccessLevelsItem")];
    expect(entry && !isEnumType(entry) ? entry.properties["accessLevel"]!.$ref : undefined).toBe(
      `#/types/${pluginToken("ProjectProtectedEnvironmentAccessLevel")}`,
    );
    expect(pkg.resources[pluginToken("BroadcastMessage")]!.inputProperties["targetAccessLevels"]!.items!.$ref).toBe(
      `#/types/${pluginToken("BroadcastMessageTargetAccessLevel")}`,
    );
  });

  it("carries the package's version into every SDK, a real Go module path, and the Python package's details", () => {
    expect(pkg.version).toBe(version);
    // supportPack: each generator writes the version each resource asks the engine for.
    expect(pkg.meta.supportPack).toBe(true);
    const language = pkg.language as Record<string, Record<string, unknown>>;
    for (const name of ["nodejs", "python", "go", "csharp"]) expect(language[name]?.["respectSchemaVersion"], name).toBe(true);
    expect(language["go"]?.["importBasePath"]).toBe(GO_IMPORT_PATH);
    expect(GO_IMPORT_PATH.startsWith(`${REPOSITORY.replace("https://", "")}/`)).toBe(true);
    expect(pkg.repository).toBe(REPOSITORY);
    // pulumi 3.259, the oldest release the SDK is tested with, needs Python 3.10.
    expect(language["python"]).toMatchObject({ pythonRequires: ">=3.10", requires: { pulumi: ">=3.259.0,<4.0.0" } });
    expect(language["python"]?.["readme"]).toContain("import pulumi_forge as forge");
  });

  it("types every whole number `integer`: no zod schema of a resource, lookup or action is a plain `number`", () => {
    /** Paths of the JSON Schema where a number may be fractional (a list of whole values is an integer enum). */
    const numbers = (json: unknown, path: string): string[] => {
      if (!json || typeof json !== "object") return [];
      const { type: here, enum: values, const: value } = json as { type?: unknown; enum?: unknown[]; const?: unknown };
      const whole = (values ?? (value === undefined ? undefined : [value]))?.every((entry) => Number.isInteger(entry));
      const own = !whole && (here === "number" || (Array.isArray(here) && here.includes("number"))) ? [path] : [];
      return [...own, ...Object.entries(json).flatMap(([key, value]) => numbers(value, `${path}.${key}`))];
    };
    const found: string[] = [];
    const walk = (owner: string, schema: z.ZodType, io: "input" | "output") =>
      found.push(...numbers(z.toJSONSchema(schema, { io, unrepresentable: "any" }), `${owner}(${io})`));
    for (const declaration of all) {
      walk(declaration.name, declaration.inputs, "input");
      walk(declaration.name, declaration.outputs, "output");
    }
    for (const lookup of Object.values(lookupDeclarations)) walk(lookup.name, lookup.args, "input");
    for (const action of actionDeclarations) walk(action.name, action.args, "input");
    expect(found).toEqual([]);
    expect(numbers(pkg, "schema")).toEqual([]);
  });

  it("leaves out of `required` the outputs the forge may answer null, and lets every property filter a read (state inputs)", () => {
    const settings = pkg.resources[pluginToken("GroupSettings")]!;
    expect(settings.properties["parentId"]?.type).toBe("integer");
    expect(settings.required).not.toContain("parentId");
    expect(settings.required).toContain("groupId");
    for (const [token, resource] of Object.entries(pkg.resources))
      expect(Object.keys(resource.stateInputs.properties), token).toEqual(Object.keys(resource.properties));
    expect(pkg.resources[pluginToken("ProjectMember")]!.properties["grantedAccessLevel"]?.$ref).toBe(
      `#/types/${pluginToken("ProjectMemberAccessLevel")}`,
    );
  });

  it("describes every config setting, and cites nothing a user cannot open", () => {
    for (const [name, variable] of Object.entries(pkg.config.variables)) expect(variable.description, name).toBeTruthy();
    const descriptions: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === "object")
        for (const [key, entry] of Object.entries(value)) {
          if (key === "description" && typeof entry === "string") descriptions.push(entry);
          else collect(entry);
        }
    };
    collect(pkg);
    expect(descriptions.length).toBeGreaterThan(500);
    const internal = /\(rules? \d|\brules? \d+ and \d|Document \d|\b[\w-]+\/[\w./-]+\.ts\b|(?<!blob\/main\/)\bdocs\/[\w/-]+\.md/;
    expect(descriptions.filter((text) => internal.test(text))).toEqual([]);
  });
});
