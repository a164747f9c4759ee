/**
 * The program of an adoption as Pulumi YAML (`forge-adopt --language yaml`): a whole Pulumi.yaml
 * for the provider plugin, with the same header, order, names, import ids, references and stack
 * config keys as the TypeScript program, and the same stability (same forge, same bytes). Also
 * the list `pulumi import --file` reads.
 */
import type { State } from "../engine/declaration";
import { pluginToken } from "../type-tokens";
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
  const lines = headerLines(adoption, command, options, "a property that differs from the forge").map((text) => (text ? `# ${text}` : "#"));
  lines.push("", `name: ${scalar(options.project)}`, "runtime: yaml");
  if (options.pluginPath !== undefined) {
    lines.push("# The provider plugin: the directory of the installed package's (npm install pulumi-forge).", "plugins:", "  providers:", "    - name: forge", `      path: ${scalar(options.pluginPath)}`);
  }
  if (config.length > 0) {
    // The project's `config:` block (the template's `configuration:` is deprecated; the YAML host
    // v1.10 did not read `config:`; README, *From YAML and other languages*).
    lines.push("", "config:");
    for (const { secret } of config) lines.push(`  ${secret.key}:`, "    type: string", "    secret: true");
  }
  lines.push("", "resources:");
  let place: string | undefined;
  for (const resource of adoption.resources) {
    const here = placeTitle(resource);
    if (here !== place) {
      lines.push(...(place === undefined ? [] : [""]), `  # ${here} ${"-".repeat(Math.max(3, 94 - here.length))}`);
      place = here;
    } else {
      lines.push("");
    }
    lines.push(...resourceLines(resource));
  }
  if (config.length > 0) {
    lines.push("", "# Stack config this program reads; set each value before the first `pulumi up`:");
    for (const item of config) lines.push(`# ${configLine(item)}`);
  }
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

function resourceLines(resource: AdoptedResource): string[] {
  const properties = Object.entries(resource.inputs);
  return [
    ...(resource.origin ? [`  # terraform: ${resource.origin}`] : []),
    `  ${key(resource.name)}:`,
    `    type: ${pluginToken(resource.declaration.name)}`,
    ...(properties.length > 0 ? ["    properties:", ...properties.flatMap(([name, item]) => entry(name, item, "      "))] : []),
    "    options:",
    `      import: ${scalar(resource.importId)}`,
  ];
}

/** `name: value` at `indent`, a block below it when the value is a list or an object. */
function entry(name: string, item: unknown, indent: string): string[] {
  const comment = isCommented(item) ? ` # ${item.comment}` : "";
  const plain = isCommented(item) ? item.value : item;
  if (isFile(plain)) return [`${indent}${key(name)}:${comment}`, `${indent}${INDENT}fn::readFile: ${scalar(`./${plain.path}`)}`];
  const inline = inlineValue(plain);
  if (inline !== undefined) return [`${indent}${key(name)}: ${inline}${comment}`];
  return [`${indent}${key(name)}:${comment}`, ...block(plain as object, indent + INDENT)];
}

/** A list or object as block lines (a list's items with `- `). */
function block(item: object, indent: string): string[] {
  if (!Array.isArray(item)) return Object.entries(item as State).flatMap(([name, field]) => entry(name, field, indent));
  return item.flatMap((element) => {
    const comment = isCommented(element) ? ` # ${element.comment}` : "";
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
  if (isReference(item)) return `\${${item.target}.${item.output}}`;
  if (item === null || typeof item !== "object") return scalar(item);
  if (Array.isArray(item) && item.length === 0) return "[]";
  if (!Array.isArray(item) && Object.keys(item).length === 0) return "{}";
  return undefined;
}

/** YAML words that would not read back as the string they spell. */
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null)$/i;

/**
 * A scalar as YAML: plain when it reads back as the same string, double-quoted (JSON's escapes,
 * which YAML shares) otherwise. A literal `${` is doubled: Pulumi YAML would interpolate it.
 */
export function scalar(item: unknown): string {
  if (typeof item !== "string") return item === undefined ? "null" : JSON.stringify(item);
  const text = item.replaceAll("${", () => "$${");
  // Plain only from a letter or a slash on (a digit, a dot or a sign could read as a number), with no
  // character that YAML gives a meaning.
  const plain = /^[A-Za-z_/][A-Za-z0-9 _./@()+,;=-]*$/.test(text) && !text.endsWith(" ") && !RESERVED.test(text);
  return plain ? text : JSON.stringify(text);
}

function key(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? name : JSON.stringify(name);
}

/** The list `pulumi import --file <file>` reads: every object with its plugin type token, name and import id. */
export function renderImportList(adoption: Adoption): string {
  const resources = adoption.resources.map((resource) => ({ type: pluginToken(resource.declaration.name), name: resource.name, id: resource.importId }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
