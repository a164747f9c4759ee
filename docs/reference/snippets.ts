/**
 * The reference pages' programs, from one set of example values (docs/reference/examples.ts):
 * TypeScript on the dynamic classes (`pulumi-forge`) and Pulumi YAML on the provider plugin
 * (`forge:index:<Name>`), for resources and lookups. The type tokens come from
 * provider/type-tokens.ts.
 */
import { stringify } from "yaml";
import { typeTokenOf } from "../../provider/type-tokens";
import { OutputOf, SecretConfig, type ExampleResource } from "./examples";

/** A line longer than this puts each property of the inputs on a line of its own. */
const WIDTH = 100;

/** The value an example stands for when it is checked: a secret's or another resource's output's sample. */
export function sampleOf(value: unknown): unknown {
  if (value instanceof SecretConfig || value instanceof OutputOf) return value.sample;
  if (Array.isArray(value)) return value.map(sampleOf);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sampleOf(item)]));
  return value;
}

function usesSecrets(value: unknown): boolean {
  if (value instanceof SecretConfig) return true;
  if (value instanceof OutputOf) return false;
  if (Array.isArray(value)) return value.some(usesSecrets);
  return value !== null && typeof value === "object" && Object.values(value).some(usesSecrets);
}

function secretKeysOf(value: unknown): string[] {
  if (value instanceof SecretConfig) return [value.key];
  if (value instanceof OutputOf) return [];
  if (Array.isArray(value)) return value.flatMap(secretKeysOf);
  return value !== null && typeof value === "object" ? Object.values(value).flatMap(secretKeysOf) : [];
}

function tsKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/** A value as TypeScript, on one line. */
function tsValue(value: unknown): string {
  if (value instanceof SecretConfig) return `config.requireSecret(${JSON.stringify(value.key)})`;
  if (value instanceof OutputOf) return `${value.resource}.${value.output}`;
  if (Array.isArray(value)) return `[${value.map(tsValue).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([key, item]) => `${tsKey(key)}: ${tsValue(item)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** `const <name> = new forge.<Type>("<name>", {...}[, options]);`, its inputs on one line when they fit. */
function tsDeclaration(resource: ExampleResource, options?: string): string {
  const head = `const ${resource.name} = new forge.${resource.type}(${JSON.stringify(resource.name)}, `;
  const tail = `${options ? `, ${options}` : ""});`;
  const inline = `${head}${tsValue(resource.inputs)}${tail}`;
  if (inline.length <= WIDTH) return inline;
  const lines = Object.entries(resource.inputs).map(([key, item]) => `  ${tsKey(key)}: ${tsValue(item)},`);
  return [`${head}{`, ...lines, `}${tail}`].join("\n");
}

/** A TypeScript program (the dynamic classes) that declares the resources; the last takes `options` (`{ import: "acme:17" }`). */
export function typescriptProgram(resources: ExampleResource[], options?: string): string {
  const secrets = resources.some((resource) => usesSecrets(resource.inputs));
  return [
    ...(secrets ? [`import * as pulumi from "@pulumi/pulumi";`] : []),
    `import * as forge from "pulumi-forge";`,
    "",
    ...(secrets ? ["const config = new pulumi.Config();"] : []),
    ...resources.map((resource, index) => tsDeclaration(resource, index === resources.length - 1 ? options : undefined)),
    "",
  ].join("\n");
}

/** A value as the YAML program holds it: a secret is its config key's `${key}`, an output `${resource.output}`. */
function yamlValue(value: unknown): unknown {
  if (value instanceof SecretConfig) return `\${${value.key}}`;
  if (value instanceof OutputOf) return `\${${value.resource}.${value.output}}`;
  if (Array.isArray(value)) return value.map(yamlValue);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, yamlValue(item)]));
  return value;
}

/** YAML text: strings that YAML 1.1 would read as another type (a date, `yes`, a number) are quoted. */
function yamlText(document: unknown): string {
  return stringify(document, { lineWidth: 0, version: "1.1" });
}

/** The `config:` block of a YAML program: every secret its resources read, each a secret string. */
function yamlConfig(resources: ExampleResource[]): Record<string, unknown> {
  const keys = [...new Set(resources.flatMap((resource) => secretKeysOf(resource.inputs)))];
  return keys.length ? { config: Object.fromEntries(keys.map((key) => [key, { type: "string", secret: true }])) } : {};
}

/** A Pulumi YAML program (the provider plugin) that declares the resources; the last takes `options` (`{ import: "acme:17" }`). */
export function yamlProgram(resources: ExampleResource[], options?: Record<string, unknown>): string {
  const declared = Object.fromEntries(
    resources.map((resource, index) => [
      resource.name,
      {
        type: typeTokenOf("plugin", resource.type),
        properties: yamlValue(resource.inputs),
        ...(options && index === resources.length - 1 ? { options } : {}),
      },
    ]),
  );
  return yamlText({ ...yamlConfig(resources), resources: declared });
}

/** A lookup's call in TypeScript: `forge.<name>.output({...})`, its answer a Pulumi output. */
export function typescriptLookup(name: string, variable: string, args: Record<string, unknown>): string {
  return [`import * as forge from "pulumi-forge";`, "", `const ${variable} = forge.${name}.output(${tsValue(args)});`, ""].join("\n");
}

/** A lookup's call in Pulumi YAML: a variable that is the invoke's `result`. */
export function yamlLookup(name: string, variable: string, args: Record<string, unknown>): string {
  const invoke = {
    function: typeTokenOf("plugin", name),
    ...(Object.keys(args).length ? { arguments: yamlValue(args) } : {}),
    return: "result",
  };
  return yamlText({ variables: { [variable]: { "fn::invoke": invoke } } });
}
