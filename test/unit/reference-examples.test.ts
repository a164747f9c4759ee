/**
 * The examples of the docs, on both faces. The reference pages' example values
 * (docs/reference/examples.ts) are inputs each resource and lookup takes; their TypeScript
 * programs compile against the library (they are fragments, which test/consumer does not run);
 * and every Pulumi YAML program of the README and docs/ parses and names only what the plugin's
 * schema has: resource types and their input properties (nested objects and enum values
 * included), functions and their arguments, with the required ones present.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { exampleArguments, exampleImportId } from "../../scripts/generate/reference";
import { resourceExamples } from "../../docs/reference/examples";
import { sampleOf } from "../../docs/reference/snippets";
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { parseId } from "../../provider/engine/ids";
import type { LookupDeclaration } from "../../provider/lookups/lookup";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { isEnumType, type PackageSchema, type TypeSpec } from "../../scripts/generate/schema";
import { declarationByName, declarations } from "../../provider/resources";
import { PACKAGE } from "../../provider/type-tokens";
import { docBlocks } from "../consumer/doc-blocks";

const ROOT = join(__dirname, "..", "..");
const schema = JSON.parse(readFileSync(join(ROOT, "provider", "plugin", "schema.json"), "utf8")) as PackageSchema;
const all = Object.values(declarations) as AnyDeclaration[];
const lookups = Object.values(lookupDeclarations) as LookupDeclaration[];

describe("the reference pages' example values", () => {
  it("cover every resource, and nothing else", () => {
    expect(Object.keys(resourceExamples).sort()).toEqual(all.map((declaration) => declaration.name).sort());
  });

  it.each(all.map((declaration) => [declaration.name, declaration] as const))(
    "%s: the example's inputs pass the resource's schema, and its import id reads back",
    (_name, declaration) => {
      const example = resourceExamples[declaration.name]!;
      for (const resource of [...(example.before ?? []), { type: declaration.name, name: example.name, inputs: example.inputs }]) {
        const parsed = declarationByName(resource.type).inputs.safeParse(sampleOf(resource.inputs));
        expect(parsed.success, `${resource.type} ${resource.name}: ${parsed.error?.message}`).toBe(true);
        expect(resource.name, "a name TypeScript and YAML both take as it is").toMatch(/^[a-z][A-Za-z0-9]*$/);
      }
      const id = exampleImportId(declaration);
      expect(parseId(declaration, id)).toMatchObject(Object.fromEntries(declaration.idParts.map((part) => [part, expect.anything()])));
    },
  );

  it.each(lookups.map((lookup) => [lookup.name, lookup] as const))(
    "%s: the example's arguments pass the lookup's schema",
    (_name, lookup) => {
      const parsed = lookup.args.safeParse(exampleArguments(lookup));
      expect(parsed.success, parsed.error?.message).toBe(true);
    },
  );
});

describe("the reference pages' TypeScript programs", () => {
  it("compile against the library (`pulumi-forge` is provider/index.ts)", () => {
    const blocks = docBlocks(ROOT, "ts").filter((block) => block.where.startsWith("docs/reference/"));
    // Two programs a resource (the example, the import; a rotating one is never imported), one a lookup, and the index's script calling an action.
    const rotating = all.filter((declaration) => declaration.rotation).length;
    expect(rotating).toBeGreaterThan(0);
    expect(blocks.length).toBe(2 * all.length - rotating + lookups.length + 1);
    // A script with top-level `await` is an ES module.
    const extension = (code: string) => (/^(?:const .*= )?await /m.test(code) ? "mts" : "ts");
    const files = new Map(
      blocks.map((block, index) => [join(ROOT, "docs", "reference", `.example-${index}.${extension(block.code)}`), block]),
    );
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      lib: ["lib.es2023.d.ts"],
      types: ["node"],
      strict: true,
      noUncheckedIndexedAccess: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      baseUrl: ROOT,
      paths: { "pulumi-forge": ["provider/index.ts"] },
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, language, ...rest) => {
      const block = files.get(name);
      return block ? ts.createSourceFile(name, block.code, language) : getSourceFile(name, language, ...rest);
    };
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => files.has(name) || fileExists(name);
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => files.get(name)?.code ?? readFile(name);
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && files.has(diagnostic.file.fileName))
      .map(
        (diagnostic) => `${files.get(diagnostic.file!.fileName)!.where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
      );
    expect(problems).toEqual([]);
  }, 60_000);
});

/** What a YAML program may hold where the schema wants a value: `${...}` interpolations and `fn::` calls stand for values checked elsewhere. */
function computed(value: unknown): boolean {
  if (typeof value === "string") return value.includes("${");
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).some((key) => key.startsWith("fn::"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The problems of a value against a property of the schema: a wrong type, an unknown property, a missing required one, a value no enum has. */
function valueProblems(spec: TypeSpec, value: unknown, where: string): string[] {
  if (computed(value)) return [];
  if (spec.oneOf)
    return spec.oneOf.some((variant) => valueProblems(variant, value, where).length === 0)
      ? []
      : [`${where}: ${JSON.stringify(value)} is none of its types`];
  if (spec.$ref === "pulumi.json#/Any") return [];
  if (spec.$ref) {
    const token = spec.$ref.slice("#/types/".length);
    const type = schema.types[token];
    if (!type) return [`${where}: the schema has no type ${token}`];
    if (isEnumType(type))
      return type.enum.some((entry) => entry.value === value) ? [] : [`${where}: ${JSON.stringify(value)} is not a value of ${token}`];
    return objectProblems(type.properties, type.required ?? [], value, where, token);
  }
  switch (spec.type) {
    case "string":
      return typeof value === "string" ? [] : [`${where}: ${JSON.stringify(value)} is not a string`];
    case "integer":
      return Number.isInteger(value) ? [] : [`${where}: ${JSON.stringify(value)} is not an integer`];
    case "number":
      return typeof value === "number" ? [] : [`${where}: ${JSON.stringify(value)} is not a number`];
    case "boolean":
      return typeof value === "boolean" ? [] : [`${where}: ${JSON.stringify(value)} is not a boolean`];
    case "array":
      return Array.isArray(value)
        ? value.flatMap((item, index) => valueProblems(spec.items ?? {}, item, `${where}[${index}]`))
        : [`${where}: not a list`];
    case "object":
      return isRecord(value)
        ? Object.entries(value).flatMap(([key, item]) =>
            spec.additionalProperties ? valueProblems(spec.additionalProperties, item, `${where}.${key}`) : [],
          )
        : [`${where}: not a map`];
    default:
      return [];
  }
}

function objectProblems(
  properties: Record<string, TypeSpec>,
  required: readonly string[],
  value: unknown,
  where: string,
  what: string,
): string[] {
  if (computed(value)) return [];
  if (!isRecord(value)) return [`${where}: not a map of ${what}'s properties`];
  return [
    ...Object.entries(value).flatMap(([key, item]) =>
      properties[key] ? valueProblems(properties[key], item, `${where}.${key}`) : [`${where}: ${what} has no property ${key}`],
    ),
    ...required.filter((key) => !(key in value)).map((key) => `${where}: ${what} needs ${key}`),
  ];
}

/** Every `fn::invoke` under a value, with where it is. */
function invokes(value: unknown, where: string): { where: string; call: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => invokes(item, `${where}[${index}]`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === "fn::invoke" ? [{ where, call: item }, ...invokes(item, where)] : invokes(item, `${where}.${key}`),
  );
}

/** The names a program's `${...}` may start with: its resources, variables and configuration, and Pulumi's own. */
function declaredNames(program: Record<string, unknown>): Set<string> {
  const keys = (part: unknown) => (isRecord(part) ? Object.keys(part) : []);
  return new Set([
    "pulumi",
    ...keys(program["resources"]),
    ...keys(program["variables"]),
    ...keys(program["config"]),
    ...keys(program["configuration"]),
  ]);
}

function interpolations(value: unknown): string[] {
  if (typeof value === "string") return [...value.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_-]*)/g)].map((match) => match[1]!);
  if (Array.isArray(value)) return value.flatMap(interpolations);
  return isRecord(value) ? Object.values(value).flatMap(interpolations) : [];
}

/** The problems of one YAML program against the plugin's schema; `checked` counts its forge resources and invokes. */
function programProblems(program: Record<string, unknown>, checked: { resources: number; invokes: number }): string[] {
  const problems: string[] = [];
  const resources = isRecord(program["resources"]) ? program["resources"] : {};
  for (const [name, declared] of Object.entries(resources)) {
    if (!isRecord(declared) || typeof declared["type"] !== "string") {
      problems.push(`resources.${name}: no type`);
      continue;
    }
    const type = declared["type"];
    const where = `resources.${name}`;
    if (type === `pulumi:providers:${PACKAGE}`) {
      problems.push(...objectProblems(schema.provider.inputProperties, [], declared["properties"] ?? {}, `${where}.properties`, type));
    } else if (type.startsWith(`${PACKAGE}:`)) {
      const resource = schema.resources[type];
      if (!resource) problems.push(`${where}: the schema has no resource ${type}`);
      else
        problems.push(
          ...objectProblems(resource.inputProperties, resource.requiredInputs, declared["properties"] ?? {}, `${where}.properties`, type),
        );
      checked.resources++;
    }
    const options = declared["options"];
    if (options !== undefined && (!isRecord(options) || (options["import"] !== undefined && typeof options["import"] !== "string")))
      problems.push(`${where}.options: import takes an id, as a string`);
  }
  for (const { where, call } of invokes(program, "")) {
    if (!isRecord(call) || typeof call["function"] !== "string") {
      problems.push(`${where}: fn::invoke without a function`);
      continue;
    }
    const fn = schema.functions[call["function"]];
    if (!fn) {
      if (call["function"].startsWith(`${PACKAGE}:`)) problems.push(`${where}: the schema has no function ${call["function"]}`);
      continue;
    }
    checked.invokes++;
    problems.push(
      ...objectProblems(fn.inputs.properties, fn.inputs.required ?? [], call["arguments"] ?? {}, `${where}.arguments`, call["function"]),
    );
    if (call["return"] !== undefined && !(String(call["return"]) in fn.outputs.properties))
      problems.push(`${where}.return: ${call["function"]} has no output ${String(call["return"])}`);
  }
  const config = isRecord(program["config"]) ? program["config"] : {};
  for (const [key, entry] of Object.entries(config)) {
    if (
      isRecord(entry) &&
      entry["type"] !== undefined &&
      !["string", "integer", "boolean", "array", "object"].includes(String(entry["type"]))
    )
      problems.push(`config.${key}: type ${String(entry["type"])} is not a project config type`);
  }
  const names = declaredNames(program);
  for (const name of interpolations({ resources: program["resources"], variables: program["variables"], outputs: program["outputs"] })) {
    if (!names.has(name)) problems.push(`\${${name}...}: nothing in the program is named ${name}`);
  }
  return problems;
}

describe("the Pulumi YAML programs of the README and docs/", () => {
  const blocks = docBlocks(ROOT, "yaml");
  const checked = { resources: 0, invokes: 0 };

  it.each(blocks.map((block) => [block.where, block] as const))(
    "%s parses and names only what the plugin's schema has",
    (_where, block) => {
      const documents = parseAllDocuments(block.code);
      for (const document of Array.isArray(documents) ? documents : [documents]) {
        expect(
          document.errors.map((error) => error.message),
          "YAML syntax",
        ).toEqual([]);
        const program = document.toJS() as unknown;
        if (!isRecord(program) || !("resources" in program || "variables" in program)) continue;
        expect(programProblems(program, checked)).toEqual([]);
      }
    },
  );

  it("checked every reference page's resources and every lookup's invoke", () => {
    // Each page: the example (with the resources it takes outputs of) and the import.
    expect(checked.resources).toBeGreaterThanOrEqual(2 * all.length);
    expect(checked.invokes).toBeGreaterThanOrEqual(lookups.length);
  });

  it("finds what a wrong program gets wrong", () => {
    const wrong = {
      config: { key: { type: "String", secret: true } },
      resources: {
        bug: { type: "forge:index:GroupLabel", properties: { group: "acme", name: "type::bug", colour: "red" } },
        member: { type: "forge:index:ProjectMember", properties: { project: "acme/web", user: "jane", accessLevel: 45 } },
        nothing: { type: "forge:index:NoSuchThing", properties: {} },
        env: {
          type: "forge:index:ProjectProtectedEnvironment",
          properties: { project: "acme/web", name: "production", deployAccessLevels: [{ accessLevel: 40, role: 1 }] },
        },
      },
      variables: {
        group: { "fn::invoke": { function: "forge:index:getGroup", arguments: { grup: "acme" }, return: "record" } },
        label: "${bugg.labelId}",
      },
    };
    const problems = programProblems(wrong, { resources: 0, invokes: 0 });
    expect(problems).toEqual(
      expect.arrayContaining([
        "resources.bug.properties: forge:index:GroupLabel has no property colour",
        "resources.bug.properties: forge:index:GroupLabel needs color",
        "resources.member.properties.accessLevel: 45 is not a value of forge:index:ProjectMemberAccessLevel",
        "resources.nothing: the schema has no resource forge:index:NoSuchThing",
        "resources.env.properties.deployAccessLevels[0]: forge:index:ProjectProtectedEnvironmentDeployAccessLevelsItem has no property role",
        ".variables.group.arguments: forge:index:getGroup has no property grup",
        ".variables.group.arguments: forge:index:getGroup needs group",
        ".variables.group.return: forge:index:getGroup has no output record",
        "config.key: type String is not a project config type",
        "${bugg...}: nothing in the program is named bugg",
      ]),
    );
  });
});
