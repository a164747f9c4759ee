/**
 * The Pulumi package schema of the library, derived from the declarations (the second
 * face): every resource with its inputs, outputs, required inputs, secrets, descriptions and
 * import id; every lookup and action as a function; the provider's configuration. Types come from the zod
 * schemas through zod's JSON Schema, mapped onto Pulumi's type system (object inputs become named
 * types, unions `oneOf`, enums (`z.enum`, unions of literals) named enum types).
 */
import { z } from "zod";
import { TRANSPORT_SETTINGS } from "../../provider/client/connection";
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { inputKeys, outputKeys, declaredSecrets } from "../../provider/engine/declaration";
import { idFormat } from "../../provider/engine/ids";
import type { ActionDeclaration } from "../../provider/actions";
import type { LookupDeclaration } from "../../provider/lookups/lookup";
import { PACKAGE, pluginToken } from "../../provider/type-tokens";
import { AccessLevel, roleName } from "../../api/access-levels";

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

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, TypeSpec>;
  required?: string[];
}

/** One value of an enum type: the value on the wire, its name in the SDKs, what it means. */
export interface EnumValueSpec {
  value: string | number;
  name: string;
  description?: string;
}

/** An enum type of Pulumi's schema: `"type"` is the values' own (a string or an integer). */
export interface EnumTypeSpec {
  type: "string" | "integer" | "number";
  description?: string;
  enum: EnumValueSpec[];
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  homepage: string;
  repository: string;
  license: string;
  publisher: string;
  meta: { supportPack: boolean };
  config: { variables: Record<string, TypeSpec> };
  provider: { description: string; inputProperties: Record<string, TypeSpec> };
  resources: Record<
    string,
    {
      description: string;
      properties: Record<string, TypeSpec>;
      required: string[];
      inputProperties: Record<string, TypeSpec>;
      requiredInputs: string[];
      /** Every property, optional: what `get(name, id, state)` of an SDK filters by (Go's `<Name>State`). */
      stateInputs: ObjectTypeSpec;
    }
  >;
  functions: Record<string, { description: string; inputs: ObjectTypeSpec; outputs: ObjectTypeSpec }>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  language: Record<string, unknown>;
}

/**
 * The project's repository, where its SDKs are published from. The Go SDK's module sits under it
 * (`sdk/go`, with the package `forge` inside), as Pulumi's own providers lay theirs out; until a
 * release publishes it there, a program points the path at a local copy with a `replace`
 * directive (docs/guides/other-languages.md).
 */
export const REPOSITORY = "https://github.com/pulumi-forge/pulumi-forge";
/** The Go SDK's import path; its module is the folder above (`…/sdk/go`). */
export const GO_IMPORT_PATH = "github.com/pulumi-forge/pulumi-forge/sdk/go/forge";

/** The Python package's README (PyPI's page of it, and `pip show`). */
function pythonReadme(version: string): string {
  return [
    "# pulumi_forge",
    "",
    "Declare a forge (a self-hosted source-hosting platform, REST API `/api/v4`) as code with Pulumi, from Python:",
    "every object of the API as a typed resource, read-only endpoints as functions, drift caught by `pulumi refresh`.",
    "",
    `This is the Python SDK of the provider plugin \`pulumi-resource-forge\` ${version}, generated from its schema;`,
    "the plugin itself comes with the npm package `pulumi-forge` (it runs on Node.js 22.19 or later).",
    "",
    "## Set-up",
    "",
    "```sh",
    "pip install <this package's folder or wheel>    # brings pulumi from PyPI",
    `pulumi plugin install resource forge ${version} --file pulumi-resource-forge-v${version}.tar.gz`,
    "pulumi config set forge:baseUrl https://forge.example.com",
    "pulumi config set --secret forge:token <token>",
    "```",
    "",
    "## Example",
    "",
    "```python",
    "import pulumi",
    "import pulumi_forge as forge",
    "",
    'bug = forge.GroupLabel("bug", group="acme", name="type::bug", color="#D9534F")',
    'member = forge.ProjectMember("jane", project="acme/web", user="jane", access_level=forge.ProjectMemberAccessLevel.MAINTAINER)',
    'pulumi.export("bugLabelId", bug.label_id)',
    "```",
    "",
    "Fields whose values the API lists take the SDK's enums (`forge.ProjectMemberAccessLevel.MAINTAINER`, or",
    '`forge.ProjectMemberAccessLevel(40)`). The functions (`forge.get_group(group="acme")`) answer the forge\'s record',
    'as a dict with the API\'s field names in camelCase (`result["fullPath"]`).',
    "",
    `Guide: ${REPOSITORY}/blob/main/docs/guides/other-languages.md`,
    "",
  ].join("\n");
}

/** Whether a type of the schema is an enum. */
export function isEnumType(type: ObjectTypeSpec | EnumTypeSpec): type is EnumTypeSpec {
  return "enum" in type;
}

/**
 * Where a schema sits: the resource or function it belongs to, the field it is the value of
 * (singular for a list's items: `targetAccessLevel`), and its path for people
 * (`targetAccessLevels[]`).
 */
interface Place {
  owner: string;
  field: string;
  path: string;
}

/** An enum met while mapping: where, and its values. */
interface EnumUse {
  place: Place;
  kind: EnumTypeSpec["type"];
  values: (string | number)[];
}

/**
 * The names and meanings of the values of integer enums, by the field they are the value of: the
 * API's words (api/). A string value names itself (`default_and_protected` is
 * `DefaultAndProtected`); a number does not, so an integer enum whose field is not here fails the
 * generation, naming the field.
 */
const INTEGER_VALUES: { field: RegExp; values: Record<number, { name: string; description: string }> }[] = [
  {
    field: /accessLevel$/i,
    values: Object.fromEntries(
      Object.entries(AccessLevel).map(([name, value]) => [value, { name, description: `${roleName(value)} (${value}).` }]),
    ),
  },
  {
    field: /^cadence$/,
    values: {
      1: { name: "Daily", description: "Every day." },
      7: { name: "Weekly", description: "Every 7 days (the forge's default)." },
      14: { name: "Biweekly", description: "Every 14 days." },
      30: { name: "Monthly", description: "Every 30 days." },
      90: { name: "Quarterly", description: "Every 90 days." },
    },
  },
  {
    field: /^defaultBranchProtection$/,
    values: {
      0: { name: "NotProtected", description: "No protection: developers and maintainers may push, force push and delete the branch." },
      1: { name: "Partial", description: "Partial: developers may push new commits, not force push." },
      2: { name: "Full", description: "Full: only maintainers may push." },
      3: { name: "AgainstPushes", description: "Protected against pushes: developers may merge, not push." },
      4: { name: "FullAfterInitialPush", description: "Full protection after the initial push." },
    },
  },
  {
    field: /^groupInheritanceType$/,
    values: {
      0: { name: "DirectMembers", description: "Direct members of `groupId` only (the default)." },
      1: { name: "InheritedMembers", description: "Members of `groupId` and of its ancestor groups." },
    },
  },
];

/** The SDKs' name of a string value: its words run together, each capitalized (`light-indigo` is `LightIndigo`). */
function valueName(value: string): string {
  const name = value
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map(capitalized)
    .join("");
  return /^[0-9]/.test(name) ? `Value${name}` : name;
}

function enumValues(use: EnumUse): EnumValueSpec[] {
  if (use.kind === "string") return use.values.map((value) => ({ value, name: valueName(String(value)) }));
  const known = INTEGER_VALUES.find((entry) => entry.field.test(use.place.field));
  return use.values.map((value) => {
    const words = known?.values[value as number];
    if (!words)
      throw new Error(
        `scripts/generate/schema.ts: the value ${value} of ${use.place.owner}.${use.place.field} has no name: add it to INTEGER_VALUES`,
      );
    return { value, ...words };
  });
}

/** The same values, in any order. */
function signature(use: EnumUse): string {
  return `${use.kind}:${JSON.stringify([...use.values].sort())}`;
}

/**
 * The name of each enum's type: the field's name when every field of that name, in every resource
 * and function, takes the same values and more than one resource or function has it
 * (`Visibility`); otherwise the owner's name before it (`ProjectMemberAccessLevel`), shared by the
 * fields of one owner with the same values (a protected environment's deploy and approval levels).
 */
function enumTypeNames(uses: readonly EnumUse[]): (use: EnumUse) => string {
  const byField = new Map<string, EnumUse[]>();
  for (const use of uses) byField.set(use.place.field, [...(byField.get(use.place.field) ?? []), use]);
  const shared = new Set(
    [...byField]
      .filter(([, all]) => new Set(all.map(signature)).size === 1 && new Set(all.map((use) => use.place.owner)).size > 1)
      .map(([field]) => field),
  );
  // A field named after another of its owner with the same values takes that one's type
  // (`grantedAccessLevel` is a `ProjectMemberAccessLevel`).
  const baseField = (use: EnumUse): string =>
    uses.find(
      (other) =>
        other.place.owner === use.place.owner &&
        other.place.field !== use.place.field &&
        use.place.field.endsWith(capitalized(other.place.field)) &&
        signature(other) === signature(use),
    )?.place.field ?? use.place.field;
  const nameOf = (use: EnumUse) => {
    const field = baseField(use);
    return shared.has(field) ? capitalized(field) : `${capitalized(use.place.owner)}${capitalized(field)}`;
  };
  const signatures = new Map<string, string>();
  for (const use of uses) {
    const name = nameOf(use);
    if ((signatures.get(name) ?? signature(use)) !== signature(use))
      throw new Error(`scripts/generate/schema.ts: two enums would be named ${name}`);
    signatures.set(name, signature(use));
  }
  return nameOf;
}

/**
 * Maps a JSON Schema (from zod) onto Pulumi's types: an object with properties becomes a named
 * object type, a union `oneOf`, an enum of two values or more a named enum type (with
 * `enumNames`; without, it records the enum and maps it to its values' type, the first of
 * packageSchema's two passes).
 */
class TypeMapper {
  readonly types: Record<string, ObjectTypeSpec | EnumTypeSpec> = {};
  readonly enums: EnumUse[] = [];

  /** Without `named` (the first pass), enums are only recorded; with it, each is a type named by `name`, described with every field of `all` that takes it. */
  constructor(private readonly named?: { name: (use: EnumUse) => string; all: readonly EnumUse[] }) {}

  map(schema: JsonSchema, typeName: string, place: Place): TypeSpec {
    const description = schema.description;
    const spec = this.#map(schema, typeName, place);
    return description && !spec.description ? { ...spec, description } : spec;
  }

  #map(schema: JsonSchema, typeName: string, place: Place): TypeSpec {
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) {
      const concrete = variants.filter((variant) => variant.type !== "null");
      if (concrete.length === 1) return this.map(concrete[0]!, typeName, place);
      return { oneOf: concrete.map((variant, index) => this.map(variant, `${typeName}${index}`, place)) };
    }
    if (schema.allOf?.length === 1) return this.map(schema.allOf[0]!, typeName, place);
    if (schema.enum || schema.const !== undefined) {
      const values = (schema.enum ?? [schema.const]) as (string | number | boolean)[];
      const kind =
        typeof values[0] === "number"
          ? values.every((value) => Number.isInteger(value))
            ? "integer"
            : "number"
          : typeof values[0] === "boolean"
            ? "boolean"
            : "string";
      if (values.length === 1 || kind === "boolean")
        return { type: kind, description: `Only ${values.map((value) => JSON.stringify(value)).join(", ")}.` };
      return this.#enum({ place, kind, values: values as (string | number)[] });
    }
    const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== "null") : schema.type;
    switch (type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return { type };
      case "array":
        return {
          type: "array",
          items: schema.items
            ? this.map(schema.items, `${typeName}Item`, { ...place, field: place.field.replace(/(?<=.)s$/, ""), path: `${place.path}[]` })
            : { $ref: "pulumi.json#/Any" },
        };
      case "object": {
        if (schema.properties && Object.keys(schema.properties).length > 0) {
          const token = pluginToken(typeName);
          this.types[token] = {
            type: "object",
            properties: Object.fromEntries(
              Object.entries(schema.properties).map(([key, value]) => [
                key,
                this.map(value, `${typeName}${capitalized(key)}`, {
                  owner: place.owner,
                  field: key,
                  path: place.path ? `${place.path}.${key}` : key,
                }),
              ]),
            ),
            ...(schema.required?.length ? { required: schema.required } : {}),
          };
          return { $ref: `#/types/${token}` };
        }
        const values =
          typeof schema.additionalProperties === "object"
            ? this.map(schema.additionalProperties, `${typeName}Value`, { ...place, path: `${place.path}{}` })
            : { $ref: "pulumi.json#/Any" };
        return { type: "object", additionalProperties: values };
      }
      default:
        return { $ref: "pulumi.json#/Any" };
    }
  }

  #enum(use: EnumUse): TypeSpec {
    this.enums.push(use);
    if (!this.named) return { type: use.kind };
    const { name, all } = this.named;
    const token = pluginToken(name(use));
    const existing = this.types[token];
    if (existing && !isEnumType(existing))
      throw new Error(`scripts/generate/schema.ts: the enum ${token} would replace an object type of that name`);
    if (!existing) {
      const fields = [
        ...new Set(all.filter((other) => name(other) === name(use)).map((other) => `\`${other.place.owner}.${other.place.path}\``)),
      ];
      this.types[token] = { type: use.kind, description: `The values of ${fields.join(", ")}.`, enum: enumValues(use) };
    }
    return { $ref: `#/types/${token}` };
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value that is never absent and never null. */
function alwaysSet(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success && !schema.safeParse(null).success;
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
    // A rotating resource is never imported (its notes say why).
    declaration.rotation
      ? ""
      : `## Import\n\nThe import id is \`${idFormat(declaration)}\`:\n\n\`\`\`sh\n$ pulumi import ${pluginToken(declaration.name)} <name> ${idFormat(declaration)}\n\`\`\``,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/**
 * A lookup's result: a record is a map (YAML and the typed SDKs can index a map, `${group["id"]}`,
 * where Pulumi YAML refuses any property access on `Any`), a listing a list of them, raw text a string.
 */
export function lookupResult(lookup: LookupDeclaration): TypeSpec {
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
  // Two passes: the first finds every enum, so that the second can name each from all its uses.
  const { enums } = mappedSchema(options, new TypeMapper());
  const { schema } = mappedSchema(options, new TypeMapper({ name: enumTypeNames(enums), all: enums }));
  return schema;
}

function mappedSchema(options: Parameters<typeof packageSchema>[0], mapper: TypeMapper): { schema: PackageSchema; enums: EnumUse[] } {
  const resources: PackageSchema["resources"] = {};
  for (const declaration of options.declarations) {
    const secrets = new Set(declaredSecrets(declaration));
    const property = (key: string, schema: z.ZodType, io: "input" | "output") => {
      const json = fieldSchema(schema, io);
      const spec = mapper.map(json, `${declaration.name}${capitalized(key)}`, {
        owner: declaration.name,
        field: key,
        path: key,
      });
      // The field's own description (fields built from data, such as the integrations') before the
      // reference's words, which may come from another resource's field of the same name.
      const description = json.description || options.describe?.(declaration, key) || spec.description;
      return { ...spec, ...(description ? { description } : {}), ...(secrets.has(key) ? { secret: true } : {}) };
    };
    const inputs = inputKeys(declaration);
    const inputProperties = Object.fromEntries(
      inputs.map((key) => [key, property(key, declaration.inputs.shape[key] as z.ZodType, "input")]),
    );
    const outputProperties = Object.fromEntries(
      outputKeys(declaration).map((key) => [key, property(key, declaration.outputs.shape[key] as z.ZodType, "output")]),
    );
    const requiredInputs = inputs.filter((key) => !(declaration.inputs.shape[key] as z.ZodType).safeParse(undefined).success);
    const properties = { ...inputProperties, ...outputProperties };
    resources[pluginToken(declaration.name)] = {
      description: resourceDescription(declaration),
      properties,
      // An output the forge may answer null for (a top-level group's parent) is not required: the
      // SDKs then type it optional (a pointer in Go, `Optional` in Python) rather than a zero value.
      required: [...requiredInputs, ...outputKeys(declaration).filter((key) => alwaysSet(declaration.outputs.shape[key] as z.ZodType))],
      inputProperties,
      requiredInputs,
      stateInputs: {
        type: "object",
        description: `What an existing ${declaration.name} is read with: every property, each optional.`,
        properties,
      },
    };
  }
  const functions: PackageSchema["functions"] = {};
  const addFunction = (name: string, description: string, args: z.ZodType, result: TypeSpec, secretArgs: readonly string[] = []) => {
    const inputs = mapper.map(fieldSchema(args, "input"), `${capitalized(name)}Args`, { owner: name, field: "args", path: "" });
    const argsType = inputs.$ref ? mapper.types[inputs.$ref.slice("#/types/".length)] : undefined;
    const inputType = argsType && !isEnumType(argsType) ? argsType : undefined;
    for (const arg of secretArgs)
      if (inputType?.properties?.[arg]) inputType.properties[arg] = { ...inputType.properties[arg], secret: true };
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
    addFunction(
      action.name,
      `${action.summary} An action: it runs each time a program calls it, previews included; call it from a one-off program or script.`,
      action.args,
      {
        $ref: "pulumi.json#/Any",
        description: "What the forge answered (null when it answers nothing).",
      },
      action.secretArgs,
    );
  }
  const configType = (kind: string): TypeSpec =>
    kind === "boolean" ? { type: "boolean" } : kind === "milliseconds" || kind === "count" ? { type: "integer" } : { type: "string" };
  const variables: Record<string, TypeSpec> = {
    baseUrl: { type: "string", description: "The forge's address, without /api/v4 (or the FORGE_BASE_URL environment variable)." },
    token: {
      type: "string",
      secret: true,
      description: "The access token (or the FORGE_TOKEN environment variable); never stored in state.",
    },
    ...Object.fromEntries(
      Object.values(TRANSPORT_SETTINGS).map((setting) => [
        setting.config.slice(`${PACKAGE}:`.length),
        {
          ...configType(setting.kind),
          description: `${setting.description} Or the ${setting.env} environment variable.`,
          ...("secret" in setting ? { secret: setting.secret } : {}),
        },
      ]),
    ),
  };
  const schema: PackageSchema = {
    name: PACKAGE,
    displayName: "Forge",
    version: options.version,
    description: "Declare a forge (a self-hosted source-hosting platform, REST API /api/v4) as code.",
    keywords: ["pulumi", "forge", "gitops", "category/infrastructure", "kind/native"],
    homepage: REPOSITORY,
    repository: REPOSITORY,
    license: "Apache-2.0",
    publisher: "pulumi-forge",
    // supportPack: every generator writes the schema's version into its SDK (the plugin version
    // each resource asks the engine for) and Go's generator writes the module's go.mod.
    meta: { supportPack: true },
    config: { variables },
    provider: { description: "The forge provider: the connection of its resources.", inputProperties: variables },
    resources,
    functions,
    types: mapper.types,
    language: {
      nodejs: { packageName: "@pulumi-forge/sdk", respectSchemaVersion: true },
      python: {
        packageName: "pulumi_forge",
        // pulumi 3.259 (the oldest release this package is tested with) needs Python 3.10.
        pythonRequires: ">=3.10",
        requires: { pulumi: ">=3.259.0,<4.0.0" },
        readme: pythonReadme(options.version),
        respectSchemaVersion: true,
      },
      go: { importBasePath: GO_IMPORT_PATH, respectSchemaVersion: true },
      csharp: { respectSchemaVersion: true },
    },
  };
  return { schema: linkedDocs(schema), enums: mapper.enums };
}

/**
 * The schema with every mention of a page of the docs (`docs/guides/rotation.md`) as its address
 * in the repository: an SDK's reader has no checkout to open it in.
 */
function linkedDocs<T>(value: T): T {
  if (typeof value === "string") return value.replace(/(?<![\w/.:-])docs\/([\w./-]+\.md)/g, `${REPOSITORY}/blob/main/docs/$1`) as T;
  if (Array.isArray(value)) return value.map(linkedDocs) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, key === "readme" ? entry : linkedDocs(entry)])) as T;
  return value;
}
