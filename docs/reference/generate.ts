/**
 * Writes docs/reference/*.md from the resource declarations: types from the zod schemas
 * (JSON Schema), descriptions from the TSDoc on each field, ids, replacement and secrets from
 * the declaration itself. Run `node dist/docs/reference/generate.js` after `tsc`; a test fails
 * when the committed pages differ from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ts from "typescript";
import { z } from "zod";
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { inputKeys, replacementKeys, secretKeys, typeToken } from "../../provider/engine/declaration";
import { idFormat } from "../../provider/engine/ids";
import { declarations } from "../../provider/resources";

const root = resolve(__dirname, __dirname.includes(`${join("dist", "docs")}`) ? "../../.." : "../..");
const resourcesDir = join(root, "provider/resources");
const outputDir = join(root, "docs/reference");

type JsonSchema = { description?: string; type?: string | string[]; enum?: unknown[]; anyOf?: JsonSchema[]; items?: JsonSchema; properties?: Record<string, JsonSchema>; required?: string[] };

/** TSDoc of every `name: ...` property in the resource sources, by field name and file. */
function fieldDocs(): Map<string, string> {
  const docs = new Map<string, string>();
  for (const file of ts.sys.readDirectory(resourcesDir, [".ts"])) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name)) {
        const comment = ts.getJSDocCommentsAndTags(node).map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "").join(" ").trim();
        if (comment) docs.set(`${node.name.text}@${file}`, comment);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return docs;
}

function describeType(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  if (schema.anyOf) return schema.anyOf.map(describeType).join(" \\| ");
  if (schema.type === "array") return `${describeType(schema.items)}[]`.replace(/^(.*\|.*)\[\]$/, "($1)[]");
  if (Array.isArray(schema.type)) return schema.type.map((type) => describeType({ type })).join(" \\| ");
  if (schema.type === "integer") return "number";
  return schema.type ?? "object";
}

function sourceFileOf(declaration: AnyDeclaration): string[] {
  return ts.sys.readDirectory(resourcesDir, [".ts"]).filter((file) => readFileSync(file, "utf8").includes(`name: "${declaration.name}"`));
}

function docFor(docs: Map<string, string>, files: string[], field: string): string {
  for (const file of [...files, ...ts.sys.readDirectory(resourcesDir, [".ts"])]) {
    const doc = docs.get(`${field}@${file}`);
    if (doc) return doc.replace(/\s+/g, " ").replace(/\|/g, "\\|");
  }
  return "";
}

function page(declaration: AnyDeclaration, docs: Map<string, string>): string {
  const files = sourceFileOf(declaration);
  const inputs = z.toJSONSchema(declaration.inputs, { unrepresentable: "any", io: "input" }) as JsonSchema;
  const outputs = z.toJSONSchema(declaration.outputs, { unrepresentable: "any" }) as JsonSchema;
  const replacing = replacementKeys(declaration);
  const secrets = secretKeys(declaration);
  const lines = [
    `# ${declaration.name}`,
    "",
    declaration.summary,
    "",
    `- Type token: \`${typeToken(declaration)}\``,
    `- Id and import id: \`${idFormat(declaration)}\``,
    `- Replacement: ${replacing.length === inputKeys(declaration).length ? "every input change replaces it (the API has no update)" : replacing.length ? replacing.map((k) => `\`${k}\``).join(", ") : "never; every change is an update"}${declaration.deleteBeforeReplace ? " (the old object is deleted first)" : ""}`,
    `- Secrets in state (encrypted): ${secrets.length ? secrets.map((k) => `\`${k}\``).join(", ") : "none"}`,
    "",
    "## Inputs",
    "",
    "| Name | Type | Required | Description |",
    "|---|---|---|---|",
    ...Object.entries(inputs.properties ?? {}).map(
      ([name, schema]) =>
        `| \`${name}\` | ${describeType(schema)} | ${inputs.required?.includes(name) ? "yes" : "no"} | ${docFor(docs, files, name) || (schema.description ?? "")}${declaration.writeOnly?.includes(name) ? " (write-only)" : ""} |`,
    ),
    "",
    "## Outputs",
    "",
    "Every input, and:",
    "",
    "| Name | Type | Description |",
    "|---|---|---|",
    ...Object.entries(outputs.properties ?? {}).map(([name, schema]) => `| \`${name}\` | ${describeType(schema)} | ${docFor(docs, files, name) || (schema.description ?? "")} |`),
    "",
    "## Import",
    "",
    "```ts",
    `new forge.${declaration.name}("name", { /* the object's current settings */ }, { import: "${idFormat(declaration)}" });`,
    "```",
    "",
    "The program's inputs must match the object; afterwards the resource is managed like any other.",
  ];
  if (declaration.notes?.length) lines.push("", "## Notes", "", ...declaration.notes.map((note) => `- ${note}`));
  return `<!-- Generated by docs/reference/generate.ts from the declaration; do not edit. -->\n${lines.join("\n")}\n`;
}

/** The reference pages by file name. */
export function referencePages(): Map<string, string> {
  const docs = fieldDocs();
  const pages = new Map<string, string>();
  const all = Object.values(declarations) as AnyDeclaration[];
  for (const declaration of all) pages.set(`${declaration.name}.md`, page(declaration, docs));
  const index = [
    "<!-- Generated by docs/reference/generate.ts; do not edit. -->",
    "# Resource reference",
    "",
    "| Resource | What it is | Import id |",
    "|---|---|---|",
    ...all.map((declaration) => `| [${declaration.name}](${declaration.name}.md) | ${declaration.summary} | \`${idFormat(declaration)}\` |`),
    "",
  ].join("\n");
  pages.set("README.md", index);
  return pages;
}

if (require.main === module) {
  for (const [name, text] of referencePages()) writeFileSync(join(outputDir, name), text);
  console.log(`wrote ${referencePages().size} pages to ${outputDir}`);
}
