/**
 * The ignore file of `forge-drift --unmanaged` and `forge-adopt --unmanaged`: what a team allows to
 * live outside code (labels starting with `tmp-`, broadcast messages), each entry with its reason.
 * A team commits it beside its stacks file; the report says which entries matched and which
 * matched nothing (stale rules).
 */
import { z } from "zod";
import { parseTypeToken } from "../type-tokens";

/** A string or a list of them, as a list. */
const oneOrMore = (what: string) =>
  z
    .union(
      [
        z.string().min(1, `${what} is empty`),
        z.array(z.string().min(1, `${what} holds an empty entry`)).min(1, `${what} is an empty list`),
      ],
      {
        error: `${what} is a string or a list of strings`,
      },
    )
    .transform((value) => (Array.isArray(value) ? value : [value]));

/** One entry of the ignore file, as written. */
export const ignoreRuleSchema = z
  .strictObject(
    {
      /** Resource names (`GroupLabel`) or type tokens of either face; every kind when left out. */
      kind: oneOrMore("kind").optional(),
      /** Group or project paths (`acme/**`: `*` stops at `/`, `**` does not; no case), `instance`, or `snippets`; everywhere when left out. */
      scope: oneOrMore("scope").optional(),
      /** Patterns of the object's own name (`tmp-*`: `*` matches anything, `?` one character; case counts). */
      name: oneOrMore("name").optional(),
      /** Why these objects may live outside code: printed with every match. */
      reason: z
        .string({ error: "reason is missing: say why these objects may live outside code" })
        .trim()
        .min(1, "reason is empty: say why these objects may live outside code"),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown field ${issue.keys.join(", ")} (an entry has kind, scope, name and reason)`
          : "an entry is a mapping of kind, scope, name and reason",
    },
  )
  .refine((rule) => rule.kind !== undefined || rule.scope !== undefined || rule.name !== undefined, {
    error: "an entry names at least one of kind, scope and name (one with none would hide everything)",
  });

/** One entry of the ignore file, checked. */
export type IgnoreRule = z.output<typeof ignoreRuleSchema>;

/** The file: `ignore:` holding the entries (an empty file, or `ignore: []`, ignores nothing). */
const ignoreFileSchema = z.strictObject(
  { ignore: z.array(z.unknown(), { error: "ignore is a list of entries" }).default([]) },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field ${issue.keys.join(", ")} (the file holds \`ignore:\`, a list of entries)`
        : "expected `ignore:` holding a list of entries",
  },
);

/**
 * The entries of an ignore file's parsed text, each checked; an error names the entry (its
 * number, from 1) and the field. `knownKinds` are the resource names a `kind` may name.
 */
export function parseIgnoreRules(parsed: unknown, knownKinds: ReadonlySet<string>): IgnoreRule[] {
  const file = ignoreFileSchema.safeParse(parsed ?? {});
  if (!file.success) throw new Error(file.error.issues.map((issue) => issue.message).join("; "));
  return file.data.ignore.map((raw, index) => {
    const rule = ignoreRuleSchema.safeParse(raw);
    if (!rule.success) {
      const message = rule.error.issues
        .map((issue) => `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`)
        .join("; ");
      throw new Error(`entry ${index + 1}: ${message}`);
    }
    const kinds = rule.data.kind?.map((kind) => parseTypeToken(kind)?.name ?? kind);
    const unknown = kinds?.find((kind) => !knownKinds.has(kind));
    if (unknown !== undefined)
      throw new Error(
        `entry ${index + 1}: kind: ${JSON.stringify(unknown)} is no resource of the forge (one of ${[...knownKinds].sort().join(", ")})`,
      );
    return { ...rule.data, ...(kinds ? { kind: kinds } : {}) };
  });
}

/** What an ignore rule is matched against: the object's kind, where it is, and its own name. */
export interface IgnoreSubject {
  kind: string;
  scope: "group" | "project" | "instance" | "user";
  /** The group's or project's full path (empty for the instance, the username for `user`). */
  path: string;
  /** The object's own name; undefined before the object is read. */
  name?: string;
}

/**
 * Whether a rule matches: every field it gives matches. `name` is undefined before the object is
 * read: a rule with a name pattern then does not match yet (undefined), one without matches or not.
 */
export function ruleMatches(rule: IgnoreRule, subject: IgnoreSubject): boolean | undefined {
  if (rule.kind && !rule.kind.includes(subject.kind)) return false;
  if (rule.scope && !rule.scope.some((pattern) => scopeMatches(pattern, subject))) return false;
  if (!rule.name) return true;
  if (subject.name === undefined) return undefined;
  return rule.name.some((pattern) => glob(pattern, "name").test(subject.name!));
}

function scopeMatches(pattern: string, subject: IgnoreSubject): boolean {
  if (subject.scope === "instance") return pattern === "instance";
  if (subject.scope === "user") return pattern === "snippets";
  return glob(pattern, "path").test(subject.path);
}

/** One step of a glob: a character, `?` (one character), `*` (any run). */
type GlobStep = { char: string } | { one: true } | { any: true; crossesSlash: boolean };

/** A glob's steps: in a path `*` stops at `/` and `**` does not; in a name `*` matches anything. */
function steps(pattern: string, what: "path" | "name"): GlobStep[] {
  const result: GlobStep[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index]!;
    if (character === "*" && pattern[index + 1] === "*") {
      result.push({ any: true, crossesSlash: true });
      index++;
    } else if (character === "*") result.push({ any: true, crossesSlash: what === "name" });
    else if (character === "?") result.push({ one: true });
    else result.push({ char: character });
  }
  return result;
}

/**
 * A glob matched in time linear in the text for each step of the pattern (the set of steps
 * reachable after each character), never by backtracking: a pattern such as `tmp-*-*-*-done`
 * against a long name took seconds per name as a regular expression. In a path `?` and `*` never
 * match `/`, and case does not count; in a name case counts.
 */
function glob(pattern: string, what: "path" | "name"): { test(text: string): boolean } {
  const plan = steps(what === "path" ? pattern.toLowerCase() : pattern, what);
  // The steps reachable from `at` without reading a character: any `*` may match nothing.
  const close = (states: Set<number>) => {
    for (const at of [...states].sort((a, b) => a - b)) {
      for (let next = at; next < plan.length && "any" in plan[next]!; next++) states.add(next + 1);
    }
    return states;
  };
  return {
    test(input: string) {
      const text = what === "path" ? input.toLowerCase() : input;
      let states = close(new Set([0]));
      for (const character of text) {
        const next = new Set<number>();
        for (const at of states) {
          const step = plan[at];
          if (!step) continue;
          if ("any" in step) {
            if (step.crossesSlash || character !== "/") next.add(at);
          } else if ("one" in step) {
            if (what === "name" || character !== "/") next.add(at + 1);
          } else if (step.char === character) next.add(at + 1);
        }
        if (next.size === 0) return false;
        states = close(next);
      }
      return states.has(plan.length);
    },
  };
}
