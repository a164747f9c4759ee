/**
 * The Pulumi package schema of the library, derived from the declarations (issue 20's second
 * face): every resource with its inputs, outputs, required inputs, secrets, descriptions and
 * import id; every lookup and action as a function; the provider's configuration. Types come from the zod
 * schemas through zod's JSON Schema, mapped onto Pulumi's type system (object inputs become named
 * types, unions `oneOf`, enums strings with their values in the description).
 */
import { z } from "zod";
import { TRANSPORT_SETTINGS } from "../client/connection";
import type { AnyDeclaration } from "../engine/declaration";
import { inputKeys, outputKeys, secretKeys } from "../engine/declaration";
import { idFormat } from "../engine/ids";
import type { ActionDeclaration } from "../actions";
import type { LookupDeclaration } from "../lookups/lookup";
import { PACKAGE, typeTokenOf } from "../type-tokens";


/** The type token of a declaration in the plugin's face. */
export function pluginToken(name: string): string {
  return typeTokenOf("plugin", name);
}

type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** A property or type reference of Pulumi's schema. */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
  description?: string;
  secret?: boolean;
}

interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, TypeSpec>;
  required?: string[];
}

export interface PackageSchema {
  name: string;
  version: string;
  description: string;
  config: { variables: Record<string, TypeSpec> };
  provider: { description: string; inputProperties: Record<string, TypeSpec> };
  resources: Record<string, { description: string; properties: Record<string, TypeSpec>; required: string[]; inputProperties: Record<string, TypeSpec>; requiredInputs: string[] }>;
  functions: Record<string, { description: string; inputs: ObjectTypeSpec; outputs: ObjectTypeSpec }>;
  types: Record<string, ObjectTypeSpec>;
  language: Record<string, unknown>;
}

/** Maps a JSON Schema (from zod) onto Pulumi's types, naming object types under `typePrefix`. */
class TypeMapper {
  readonly types: Record<string, ObjectTypeSpec> = {};

  map(schema: JsonSchema, typeName: string): TypeSpec {
    const description = schema.description;
    const spec = this.#map(schema, typeName);
    return description && !spec.description ? { ...spec, description } : spec;
  }

  #map(schema: JsonSchema, typeName: string): TypeSpec {
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) {
      const concrete = variants.filter((variant) => variant.type !== "null");
      if (concrete.length === 1) return this.map(concrete[0]!, typeName);
      return { oneOf: concrete.map((variant, index) => this.map(variant, `${typeName}${index}`)) };
    }
    if (schema.allOf?.length === 1) return this.map(schema.allOf[0]!, typeName);
    if (schema.enum || schema.const !== undefined) {
      const values = schema.enum ?? [schema.const];
      const kind = typeof values[0] === "number" ? (values.every((value) => Number.isInteger(value)) ? "integer" : "number") : typeof values[0] === "boolean" ? "boolean" : "string";
      return { type: kind, description: `One of ${values.map((value) => JSON.stringify(value)).join(", ")}.` };
    }
    const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== "null") : schema.type;
    switch (type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return { type };
      case "array":
        return { type: "array", items: schema.items ? this.map(schema.items, `${typeName}Item`) : { $ref: "pulumi.json#/Any" } };
      case "object": {
        if (schema.properties && Object.keys(schema.properties).length > 0) {
          const token = pluginToken(typeName);
          this.types[token] = {
            type: "object",
            properties: Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, this.map(value, `${typeName}${capitalized(key)}`)])),
            ...(schema.required?.length ? { required: schema.required } : {}),
          };
          return { $ref: `#/types/${token}` };
        }
        const values = typeof schema.additionalProperties === "object" ? this.map(schema.additionalProperties, `${typeName}Value`) : { $ref: "pulumi.json#/Any" };
        return { type: "object", additionalProperties: values };
      }
      default:
        return { $ref: "pulumi.json#/Any" };
    }
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The JSON Schema of one field, as the program writes it (input) or the state holds it (output). */
function fieldSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

/** What a resource's page says, with its import id. */
function resourceDescription(declaration: AnyDeclaration): string {
  const notes = (declaration.notes ?? []).map((note) => `- ${note}`).join("\n");
  return [
    declaration.summary,
    notes,
    `## Import\n\nThe import id is \`${idFormat(declaration)}\`:\n\n\`\`\`sh\n$ pulumi import ${pluginToken(declaration.name)} <name> ${idFormat(declaration)}\n\`\`\``,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/**
 * A lookup's result: a record is a map (YAML and the typed SDKs can index a map, `${group["id"]}`,
 * where Pulumi YAML refuses any property access on `Any`), a listing a list of them, raw text a string.
 */
function lookupResult(lookup: LookupDeclaration): TypeSpec {
  // A lookup that answers secret fields answers them all as one secret, as its `.output` does.
  const secret = lookup.secretFields?.length ? { secret: true } : {};
  if (lookup.raw) return { type: "string", description: "The text the forge answered." };
  const record: TypeSpec = { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } };
  return lookup.many
    ? { type: "array", items: record, description: "Every record of the listing, with camelCase keys.", ...secret }
    : { ...record, description: "The record the forge answered, with camelCase keys.", ...secret };
}

/** The schema of the package: resources, lookups and actions as functions, configuration. */
export function packageSchema(options: {
  version: string;
  declarations: readonly AnyDeclaration[];
  lookups: readonly LookupDeclaration[];
  /** The actions, served as functions like the lookups. */
  actions?: readonly ActionDeclaration[];
  /** A field's documentation (the reference page's words); the schema's own description otherwise. */
  describe?: (declaration: AnyDeclaration, field: string) => string;
}): PackageSchema {
  const mapper = new TypeMapper();
  const resources: PackageSchema["resources"] = {};
  for (const declaration of options.declarations) {
    const secrets = new Set(secretKeys(declaration));
    const property = (key: string, schema: z.ZodType, io: "input" | "output") => {
      const spec = mapper.map(fieldSchema(schema, io), `${declaration.name}${capitalized(key)}`);
      const description = options.describe?.(declaration, key) || spec.description;
      return { ...spec, ...(description ? { description } : {}), ...(secrets.has(key) ? { secret: true } : {}) };
    };
    const inputs = inputKeys(declaration);
    const inputProperties = Object.fromEntries(inputs.map((key) => [key, property(key, declaration.inputs.shape[key] as z.ZodType, "input")]));
    const outputProperties = Object.fromEntries(outputKeys(declaration).map((key) => [key, property(key, declaration.outputs.shape[key] as z.ZodType, "output")]));
    const requiredInputs = inputs.filter((key) => !(declaration.inputs.shape[key] as z.ZodType).safeParse(undefined).success);
    resources[pluginToken(declaration.name)] = {
      description: resourceDescription(declaration),
      properties: { ...inputProperties, ...outputProperties },
      required: [...requiredInputs, ...outputKeys(declaration).filter((key) => !(declaration.outputs.shape[key] as z.ZodType).safeParse(undefined).success)],
      inputProperties,
      requiredInputs,
    };
  }
  const functions: PackageSchema["functions"] = {};
  const addFunction = (name: string, description: string, args: z.ZodType, result: TypeSpec, secretArgs: readonly string[] = []) => {
    const inputs = mapper.map(fieldSchema(args, "input"), `${capitalized(name)}Args`);
    const inputType = inputs.$ref ? mapper.types[inputs.$ref.slice("#/types/".length)] : undefined;
    for (const arg of secretArgs) if (inputType?.properties?.[arg]) inputType.properties[arg] = { ...inputType.properties[arg], secret: true };
    functions[pluginToken(name)] = {
      description,
      inputs: inputType ?? { type: "object", properties: {} },
      outputs: { type: "object", properties: { result }, required: ["result"] },
    };
    if (inputs.$ref) delete mapper.types[inputs.$ref.slice("#/types/".length)];
  };
  for (const lookup of options.lookups) addFunction(lookup.name, lookup.summary, lookup.args, lookupResult(lookup));
  // An invoke runs on every preview and update of a program that calls it: the descriptions say so.
  for (const action of options.actions ?? []) {
    addFunction(action.name, `${action.summary} An action: it runs each time a program calls it, previews included; call it from a one-off program or script.`, action.args, {
      $ref: "pulumi.json#/Any",
      description: "What the forge answered (null when it answers nothing).",
    }, action.secretArgs);
  }
  const settings = Object.values(TRANSPORT_SETTINGS).map(({ config, kind }) => [config.slice(`${PACKAGE}:`.length), kind] as const);
  const configType = (kind: string): TypeSpec => (kind === "boolean" ? { type: "boolean" } : kind === "milliseconds" || kind === "count" ? { type: "integer" } : { type: "string" });
  const variables: Record<string, TypeSpec> = {
    baseUrl: { type: "string", description: "The forge's address, without /api/v4 (or FORGE_BASE_URL)." },
    token: { type: "string", secret: true, description: "The access token (or FORGE_TOKEN); never stored in state." },
    ...Object.fromEntries(settings.map(([name, kind]) => [name, { ...configType(kind), ...(name === "clientKey" ? { secret: true } : {}) }])),
  };
  return {
    name: PACKAGE,
    version: options.version,
    description: "Declare a forge (a self-hosted source-hosting platform, REST API /api/v4) as code.",
    config: { variables },
    provider: { description: "The forge provider: the connection of its resources.", inputProperties: variables },
    resources,
    functions,
    types: mapper.types,
    language: { nodejs: { packageName: "@pulumi-forge/sdk" }, python: { packageName: "pulumi_forge" } },
  };
}
