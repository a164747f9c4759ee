/**
 * Writes docs/policies.md: the prose of docs/policies/template.md with its placeholders filled in
 * from the pack (each policy's name, level, resources, description and settings), from
 * policies/config.example.json, and from the declarations' zod schemas (the input rules each one
 * enforces). Run `node dist/scripts/generate/policies.js` after `tsc`; test/policies/docs.test.ts
 * fails when the committed page differs from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { z } from "zod";
import { policies } from "../../policies/all";
import { policyTargets } from "../../policies/lib/define";
import { type AnyDeclaration } from "../../provider/engine/declaration";
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { ruleWording, show, wordList } from "../../provider/fields";

// Compiled, this file runs from dist/docs/policies; the page and its template live in the sources.
const root = resolve(__dirname, "../..", __dirname.split(sep).includes("dist") ? ".." : ".");
const TEMPLATE = join(root, "docs/policies/template.md");
export const PAGE = join(root, "docs/policies.md");

const all = Object.values(declarations) as AnyDeclaration[];

/** The parts of a zod 4 definition this page reads. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
  format?: string;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The worded rules (valueRule, crossFieldRule) among a schema's checks; every refinement has one. */
function wordedRules(def: Def): string[] {
  return (def.checks ?? []).flatMap((check) => {
    if (check._zod.def.check !== "custom") return [];
    const wording = ruleWording.get(check);
    if (!wording)
      throw new Error("a refinement of a schema has no wording: build it with valueRule or crossFieldRule (provider/fields.ts)");
    return [wording];
  });
}

/** A schema's built-in check of the given kind, if it has one. */
function builtIn(def: Def, kind: string): CheckDef | undefined {
  return def.checks?.map((check) => check._zod.def).find((check) => check.check === kind);
}

function textPhrase(def: Def): string {
  const worded = wordedRules(def);
  const pattern = builtIn(def, "string_format")?.pattern;
  const min = builtIn(def, "min_length")?.minimum;
  const max = builtIn(def, "max_length")?.maximum;
  // A worded rule says what the text is; the length of such text goes without saying.
  if (worded.length > 0) return worded.join(", ");
  if (def.format === "url") return "a URL";
  const noun = `${min === 1 ? "non-empty " : ""}text${pattern ? ` matching \`${pattern.source}\`` : ""}`;
  const sizes = [min !== undefined && min > 1 ? `at least ${min}` : "", max !== undefined ? `at most ${max}` : ""].filter(Boolean);
  return sizes.length ? `${noun} of ${sizes.join(" and ")} characters` : noun;
}

function numberPhrase(def: Def): string {
  const noun = builtIn(def, "number_format")?.format === "safeint" ? "integer" : "number";
  const above = builtIn(def, "greater_than");
  const below = builtIn(def, "less_than");
  if (above && !above.inclusive && above.value === 0 && !below) return `a positive ${noun}`;
  const bounds = [
    above ? `${above.inclusive ? "at least" : "more than"} ${above.value}` : "",
    below ? `${below.inclusive ? "at most" : "less than"} ${below.value}` : "",
  ];
  return [`${noun === "integer" ? "an" : "a"} ${noun}`, ...bounds.filter(Boolean)].join(", ");
}

/** One value's rule in words: `a positive integer or non-empty text`, `one of 30, 40 or 60`. */
function phrase(schema: z.ZodType): string {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return textPhrase(def);
    case "number":
      return numberPhrase(def);
    case "boolean":
      return "true or false";
    case "enum":
      return `one of ${wordList(Object.values(def.entries ?? {}).map(show))}`;
    case "literal":
      return `one of ${wordList((def.values ?? []).map(show))}`;
    case "union":
      return (def.options ?? []).map(phrase).join(" or ");
    case "array": {
      const min = builtIn(def, "min_length")?.minimum;
      const size = min === undefined ? "a list" : `a list of at least ${min}`;
      if (defOf(def.element!).type === "object") return `${size} ${min === 1 ? "entry" : "entries"}`;
      return `${size}${min === undefined ? "" : " items"}, each ${phrase(def.element!)}`;
    }
    default:
      return def.type;
  }
}

interface Row {
  input: string;
  /** "yes", "no", or empty for the rules of a list entry as a whole. */
  required: string;
  rule: string;
}

/** The rows of an object's fields under `prefix`, entries of lists as `field[]`. */
function rows(object: z.ZodType, prefix: string): Row[] {
  const result: Row[] = [];
  for (const [key, field] of Object.entries(defOf(object).shape ?? {})) {
    const optional = defOf(field).type === "optional";
    const value = optional ? defOf(field).innerType! : field;
    const path = `${prefix}${key}`;
    result.push({ input: path, required: optional ? "no" : "yes", rule: phrase(value) });
    const element = defOf(value).element;
    if (element && defOf(element).type === "object") result.push(...entryRows(element, `${path}[]`));
  }
  return result;
}

/** A list entry: its own rules (a row of their own), then its fields. */
function entryRows(entry: z.ZodType, path: string): Row[] {
  const def = defOf(entry);
  const strict = def.catchall !== undefined && defOf(def.catchall).type === "never";
  const own = [...wordedRules(def), ...(strict ? ["no other fields"] : [])];
  return [...(own.length ? [{ input: path, required: "", rule: own.join("; ") }] : []), ...rows(entry, `${path}.`)];
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

function inputRules(): string {
  return all
    .map((declaration) => {
      const across = wordedRules(defOf(declaration.inputs));
      const lines = [
        `### ${declaration.name}`,
        "",
        "| Input | Required | Rule |",
        "|---|---|---|",
        ...rows(declaration.inputs, "").map((row) => `| \`${row.input}\` | ${row.required} | ${cell(row.rule)} |`),
        ...across.map((rule) => `| (across inputs) | | ${cell(rule)} |`),
      ];
      return lines.join("\n");
    })
    .join("\n\n");
}

function resourcesOf(tokens: string[]): string {
  if (tokens.length === all.length) return "every resource";
  return tokens.map((token) => all.find((declaration) => typeToken(declaration) === token)?.name ?? token).join(", ");
}

function policyTable(): string {
  return [
    "| Policy | Level | Looks at | Checks |",
    "|---|---|---|---|",
    ...policies.map((policy) => {
      const kind = "validateStack" in policy ? ", across the stack" : "";
      return `| \`${policy.name}\` | ${policy.enforcementLevel} | ${resourcesOf(policyTargets(policy))}${kind} | ${cell(policy.description ?? "")} |`;
    }),
  ].join("\n");
}

function settingsTable(): string {
  const lines = ["| Policy | Setting | Default | What it sets |", "|---|---|---|---|"];
  for (const policy of policies) {
    for (const [key, schema] of Object.entries(policy.configSchema?.properties ?? {})) {
      const value = schema as { default?: unknown; description?: string };
      lines.push(
        `| \`${policy.name}\` | \`${key}\` | \`${cell(JSON.stringify(value.default).replace(/,/g, ", "))}\` | ${cell(value.description ?? "")} |`,
      );
    }
  }
  return lines.join("\n");
}

/** The page as it should be committed. */
export function policiesPage(): string {
  const fill: Record<string, string> = {
    policies: policyTable(),
    settings: settingsTable(),
    "example-config": ["```json", readFileSync(join(root, "policies/config.example.json"), "utf8").trimEnd(), "```"].join("\n"),
    "input-rules": inputRules(),
  };
  const template = readFileSync(TEMPLATE, "utf8").replace(/^<!--[^]*?-->\n/, "");
  const page = template.replace(/^\{\{([a-z-]+)\}\}$/gm, (_, name: string) => {
    const text = fill[name];
    if (text === undefined) throw new Error(`docs/policies/template.md: unknown placeholder {{${name}}}`);
    return text;
  });
  return `<!-- Generated by scripts/generate/policies.ts from the policy pack and the schemas; edit docs/policies/template.md. -->\n${page}`;
}

if (require.main === module) {
  writeFileSync(PAGE, policiesPage());
  console.log(`wrote ${PAGE}`);
}
