/**
 * The words of fields that declarations (resources/), lookups (lookups/) and actions share: field
 * types (`groupRef`, `projectRef`, `serverId`, `labelColor`, ...), the rules and wording of their
 * checks, wire normalizers, and the arguments of a declaration as Pulumi inputs. Below every room
 * that declares, so that the arrows between them point one way (test/unit/provider-boundaries.test.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { colorAsHex, isLabelColor, roleName } from "../api";

/** A group: its numeric id or its full path (`acme/platform`). */
export const groupRef = z.union([z.number().int().positive(), z.string().min(1)]);
/** A project: its numeric id or its full path (`acme/web`). */
export const projectRef = z.union([z.number().int().positive(), z.string().min(1)]);
/** A positive integer id assigned by the forge. */
export const serverId = z.number().int().positive();

/** A value as a message shows it: strings quoted, the rest as JSON. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** `a`, `a or b`, `a, b or c` (or `and`). */
export function wordList(values: readonly unknown[], conjunction: "or" | "and" = "or"): string {
  const items = values.map(String);
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** `30 (Developer), 40 (Maintainer) or 60 (Admin)`: roles as messages offer them. */
export function roleList(levels: readonly number[]): string {
  return wordList(levels.map((level) => `${level} (${roleName(level)})`));
}

/** The wording of each rule the schemas check beyond types, by check: docs/policies.md lists them. */
export const ruleWording = new WeakMap<object, string>();

/**
 * A rule on one input's value that zod's types cannot state: `z.string().check(valueRule(...))`.
 * `rule` is its wording in the docs; `message` says what is wrong with a value and what to write
 * instead. The issue is a format issue of the field, not a `custom` one: check.ts reads custom
 * issues as cross-field rules and would drop them whenever another input is unknown at preview.
 */
export function valueRule(spec: {
  format: string;
  rule: string;
  holds(value: string): boolean;
  message(value: string): string;
}): z.core.$ZodCheck<string> {
  const check = z.superRefine<string>((value, ctx) => {
    if (!spec.holds(value)) ctx.addIssue({ code: "invalid_format", format: spec.format, input: value, message: spec.message(value) });
  });
  ruleWording.set(check, spec.rule);
  return check;
}

/**
 * A rule across inputs, or across the fields of a list entry: `z.object({...}).check(crossFieldRule(...))`.
 * `problem` returns the field to report, relative to the object (`[]`: the object itself), and
 * a message with the fix.
 */
export function crossFieldRule<T>(spec: {
  rule: string;
  problem(args: T): { path: Array<string | number>; message: string } | undefined;
}): z.core.$ZodCheck<T> {
  const check = z.superRefine<T>((args, ctx) => {
    const problem = spec.problem(args);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });
  ruleWording.set(check, spec.rule);
  return check;
}

/** Text the forge refuses when blank (`can't be blank`): whitespace alone counts as blank. */
export function nonBlank(what: string, max?: number) {
  const text = z.string().check(
    valueRule({
      format: "non-blank",
      rule: `text that is not blank${max === undefined ? "" : `, of at most ${max} characters`}`,
      holds: (value) => value.trim() !== "",
      message: () => `It is blank. Give the ${what}.`,
    }),
  );
  return max === undefined ? text : text.max(max);
}

/** The likely fix of a label colour the forge refuses. */
function labelColorFix(value: unknown): string {
  if (typeof value === "string" && /^[0-9A-Fa-f]{6}$/.test(value)) return `Add the leading #: "#${value}".`;
  const short = typeof value === "string" ? /^#?([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f])$/.exec(value) : null;
  if (short) {
    const [, r, g, b] = short;
    return `Write it with 6 hex digits: "#${r}${r}${g}${g}${b}${b}".`;
  }
  return 'Use a 6-digit hex colour with a leading # (such as "#FF0000") or a CSS colour name (such as "red").';
}

const labelColorProblem = (value: unknown) => `${show(value)} is not a label colour the forge accepts. ${labelColorFix(value)}`;

export const labelColor = z.string({ error: (issue) => (issue.input === undefined ? undefined : labelColorProblem(issue.input)) }).check(
  valueRule({
    format: "label-color",
    rule: "a 6-digit hex colour with a leading # (#FF0000) or a CSS colour name (red)",
    holds: isLabelColor,
    message: labelColorProblem,
  }),
);

/** ISO 8601 datetime, as the forge takes it; compared as instants, not as text. */
export const datetime = z.string().check(
  valueRule({
    format: "datetime",
    rule: "an ISO 8601 datetime",
    holds: (value) => !Number.isNaN(Date.parse(value)),
    message: (value) => `${show(value)} is not a datetime. Write it in ISO 8601, UTC, such as "2026-12-01T10:00:00Z".`,
  }),
);

export const normalizers = {
  color: (value: unknown) => (typeof value === "string" ? colorAsHex(value) : value),
  instant: (value: unknown) => (typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : value),
  numberSet: (value: unknown) => (Array.isArray(value) ? [...value].sort((a, b) => Number(a) - Number(b)) : value),
  /** A numeric string names an id: `"42"` and `42` are the same project or group. */
  ref: (value: unknown) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
};

/** A list of strings that the API takes and returns comma-separated (`user_xids`). */
export const commaSeparated = {
  toWire: (value: unknown) => (Array.isArray(value) ? value.join(",") : value),
  fromWire: (value: unknown) => (typeof value === "string" ? value.split(",").filter((item) => item !== "") : value),
};

/**
 * A value, or an output of one, at every depth: Pulumi resolves outputs nested in objects and
 * lists before the provider sees the inputs, so a secret from config inside an object or another
 * resource's id inside a list entry type-checks where it works.
 */
export type DeepInput<T> = pulumi.Input<
  T extends readonly (infer E)[] ? DeepInput<E>[] : T extends object ? { [K in keyof T]: DeepInput<T[K]> } : T
>;

/** The arguments of a resource: its zod input type, each field (and each nested field) an `Input`. */
export type ResourceArgs<I extends z.ZodObject> = { [K in keyof z.input<I>]: DeepInput<z.input<I>[K]> };
