/**
 * The program of an adoption as Pulumi YAML (`forge-adopt --language yaml`): a whole Pulumi.yaml
 * for the provider plugin, with the same header, order, names, import ids, references and stack
 * config keys as the TypeScript program, and the same stability (same forge, same bytes). Also
 * the list `pulumi import --file` reads.
 */
import type { State } from "../engine/declaration";
import { pluginToken } from "../type-tokens";
import { yaml } from "./escape";
import type { AdoptedResource, Adoption } from "./read";
import { configLine, configOf, headerLines, isCommented, isFile, isReference, isSecret, placeTitle, type RenderOptions } from "./render";

export interface YamlRenderOptions extends RenderOptions {
  /** The project's name in Pulumi.yaml. */
  project: string;
  /** The plugin directory for `plugins.providers`; undefined writes no such block (a plugin installed with `pulumi plugin install`). */
  pluginPath?: string | undefined;
}

const INDENT = "  ";

export function renderYamlProgram(adoption: Adoption, command: string, options: YamlRenderOptions): string {
  const config = configOf(adoption);
  const lines = headerLines(adoption, command, options, "a property that differs from the forge").map((text) => yaml(text, "comment"));
  lines.push("", `name: ${yaml(options.project, "literal")}`, "runtime: yaml");
  if (options.pluginPath !== undefined) {
    lines.push(
      "# The provider plugin: the directory of the installed package's (npm install pulumi-forge).",
      "plugins:",
      "  providers:",
      "    - name: forge",
      `      path: ${yaml(options.pluginPath, "literal")}`,
    );
  }
  if (config.length > 0) {
    // The project's `config:` block (the template's `configuration:` is deprecated; the YAML host
    // v1.10 did not read `config:`; docs/installation-configuration.md, *Pulumi YAML*).
    lines.push("", "config:");
    for (const { secret } of config) lines.push(`  ${yaml(secret.key, "literal")}:`, "    type: string", "    secret: true");
  }
  lines.push("", "resources:");
  let place: string | undefined;
  for (const resource of adoption.resources) {
    const here = placeTitle(resource);
    if (here !== place) {
      lines.push(...(place === undefined ? [] : [""]), `  ${yaml(`${here} ${"-".repeat(Math.max(3, 94 - here.length))}`, "comment")}`);
      place = here;
    } else {
      lines.push("");
    }
    lines.push(...resourceLines(resource));
  }
  if (config.length > 0) {
    lines.push("", yaml("Stack config this program reads; set each value before the first `pulumi up`:", "comment"));
    for (const item of config) lines.push(yaml(configLine(item), "comment"));
  }
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function resourceLines(resource: AdoptedResource): string[] {
  const properties = Object.entries(resource.inputs);
  return [
    ...(resource.origin ? [`  ${yaml(`terraform: ${resource.origin}`, "comment")}`] : []),
    `  ${yaml(resource.name, "literal")}:`,
    `    type: ${pluginToken(resource.declaration.name)}`,
    ...(properties.length > 0 ? ["    properties:", ...properties.flatMap(([name, item]) => entry(name, item, "      "))] : []),
    "    options:",
    `      import: ${yaml(resource.importId, "value")}`,
  ];
}

/** `name: value` at `indent`, a block below it when the value is a list or an object. */
function entry(name: string, item: unknown, indent: string): string[] {
  const comment = isCommented(item) ? ` ${yaml(item.comment, "comment")}` : "";
  const plain = isCommented(item) ? item.value : item;
  const key = yaml(name, "key");
  if (isFile(plain)) return [`${indent}${key}:${comment}`, `${indent}${INDENT}fn::readFile: ${yaml(`./${plain.path}`, "value")}`];
  const inline = inlineValue(plain);
  if (inline !== undefined) return [`${indent}${key}: ${inline}${comment}`];
  return [`${indent}${key}:${comment}`, ...block(plain as object, indent + INDENT)];
}

/** A list or object as block lines (a list's items with `- `). */
function block(item: object, indent: string): string[] {
  if (!Array.isArray(item)) return Object.entries(item as State).flatMap(([name, field]) => entry(name, field, indent));
  return item.flatMap((element) => {
    const comment = isCommented(element) ? ` ${yaml(element.comment, "comment")}` : "";
    const plain = isCommented(element) ? element.value : element;
    const inline = inlineValue(plain);
    if (inline !== undefined) return [`${indent}- ${inline}${comment}`];
    const lines = block(plain as object, `${indent}${INDENT}`);
    // The first line of the item's block moves up beside its dash.
    return lines.length === 0 ? [`${indent}- {}`] : [`${indent}- ${lines[0]!.trimStart()}${comment}`, ...lines.slice(1)];
  });
}

/** A value that fits on its key's line (a scalar, a reference, a secret, an empty list or object), or undefined. */
function inlineValue(item: unknown): string | undefined {
  if (isSecret(item)) return `\${${item.key}}`;
  if (isReference(item)) {
    // A logical name is a slug (read.ts), which a property access takes as it is.
    if (!/^[A-Za-z0-9_-]+$/.test(item.target))
      throw new Error(`forge-adopt: ${JSON.stringify(item.target)} is no name a Pulumi YAML reference can hold`);
    return `\${${item.target}.${item.output}}`;
  }
  if (item === null || typeof item !== "object") return scalar(item);
  if (Array.isArray(item) && item.length === 0) return "[]";
  if (!Array.isArray(item) && Object.keys(item).length === 0) return "{}";
  return undefined;
}

/** A property's scalar value: a string as the YAML host reads it back, numbers, booleans and null as themselves. */
function scalar(item: unknown): string {
  if (typeof item === "string") return yaml(item, "value");
  return item === undefined ? "null" : JSON.stringify(item);
}

/** The list `pulumi import --file <file>` reads: every object with its plugin type token, name and import id. */
export function renderImportList(adoption: Adoption): string {
  const resources = adoption.resources.map((resource) => ({
    type: pluginToken(resource.declaration.name),
    name: resource.name,
    id: resource.importId,
  }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
