/**
 * The Pulumi package schema generated from the declarations (provider/plugin/schema.json, kept
 * current by the generated-files test): every resource, input and output with its type, required
 * inputs, secrets and description, the import id; every lookup and action as a function; the configuration.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { inputKeys, outputKeys, secretKeys, type AnyDeclaration } from "../../provider/engine/declaration";
import { idFormat } from "../../provider/engine/ids";
import { declarations } from "../../provider/resources";
import { actionDeclarations } from "../../provider/actions";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { pluginToken, type PackageSchema, type TypeSpec } from "../../provider/plugin/schema";

const pkg = JSON.parse(readFileSync(join(__dirname, "../../provider/plugin/schema.json"), "utf8")) as PackageSchema;
const all = Object.values(declarations) as AnyDeclaration[];

/** Every `$ref` of a type spec, at any depth. */
function refs(spec: TypeSpec | undefined): string[] {
  if (!spec) return [];
  return [...(spec.$ref ? [spec.$ref] : []), ...refs(spec.items), ...refs(spec.additionalProperties), ...(spec.oneOf ?? []).flatMap(refs)];
}

describe("the package schema", () => {
  it.each(all.map((declaration) => [declaration.name, declaration] as const))("%s: inputs, outputs, required inputs, secrets, descriptions, import id", (_name, declaration) => {
    const resource = pkg.resources[pluginToken(declaration.name)]!;
    expect(resource).toBeDefined();
    expect(Object.keys(resource.inputProperties).sort()).toEqual(inputKeys(declaration).sort());
    expect(Object.keys(resource.properties).sort()).toEqual([...new Set([...inputKeys(declaration), ...outputKeys(declaration)])].sort());
    const required = inputKeys(declaration).filter((key) => !(declaration.inputs.shape[key] as z.ZodType).safeParse(undefined).success);
    expect(resource.requiredInputs.sort()).toEqual(required.sort());
    for (const key of secretKeys(declaration)) expect(resource.properties[key]?.secret, `${key} is secret`).toBe(true);
    for (const [key, property] of Object.entries(resource.inputProperties)) expect(property.description, `${declaration.name}.${key} has a description`).toBeTruthy();
    expect(resource.description).toContain(`pulumi import ${pluginToken(declaration.name)} <name> ${idFormat(declaration)}`);
  });

  it("has every lookup and action as a function, the connection as configuration with the token secret, and only types it defines", () => {
    expect(Object.keys(pkg.functions).sort()).toEqual([...Object.keys(lookupDeclarations), ...actionDeclarations.map((action) => action.name)].map(pluginToken).sort());
    expect(pkg.functions[pluginToken("revokeGroupToken")]?.inputs.required?.sort()).toEqual(["group", "token"]);
    expect(pkg.functions[pluginToken("revokeGroupToken")]?.inputs.properties["token"]?.secret).toBe(true);
    expect(pkg.functions[pluginToken("listErrorTrackingClientKeys")]?.outputs.properties["result"]?.secret).toBe(true);
    expect(pkg.functions[pluginToken("getGroup")]?.outputs.properties["result"]?.secret).toBeUndefined();
    expect(pkg.config.variables["baseUrl"]?.type).toBe("string");
    expect(pkg.config.variables["token"]?.secret).toBe(true);
    const everyRef = [
      ...Object.values(pkg.resources).flatMap((resource) => Object.values(resource.properties).flatMap(refs)),
      ...Object.values(pkg.types).flatMap((type) => Object.values(type.properties).flatMap(refs)),
      ...Object.values(pkg.functions).flatMap((fn) => Object.values(fn.inputs.properties).flatMap(refs)),
    ];
    for (const ref of everyRef) {
      if (ref === "pulumi.json#/Any") continue;
      expect(pkg.types[ref.slice("#/types/".length)], ref).toBeDefined();
    }
  });
});
