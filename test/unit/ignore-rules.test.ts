/**
 * The ignore file's patterns (provider/adopt/ignore.ts): in a scope path `*` stops at `/`, `**`
 * does not, `?` is one character, case does not count; in a name `*` and `?` match anything, case
 * counts. They are matched without backtracking: a pattern of many stars against a long name
 * answers as quickly as a short one (the regular expression they were took 7.4 s per name).
 */
import { describe, expect, it } from "vitest";
import { parseIgnoreRules, ruleMatches } from "../../provider/adopt/ignore";

const KINDS = new Set(["GroupLabel", "ProjectMember"]);
const rule = (entry: Record<string, unknown>) => parseIgnoreRules({ ignore: [{ reason: "test", ...entry }] }, KINDS)[0]!;
const label = (path: string, name?: string) => ({
  kind: "GroupLabel",
  scope: "group" as const,
  path,
  ...(name !== undefined ? { name } : {}),
});

describe("ignore patterns", () => {
  it("scope: * within a segment, ** across, ? one character but /, no case", () => {
    expect(ruleMatches(rule({ scope: "acme/*" }), label("acme/web"))).toBe(true);
    expect(ruleMatches(rule({ scope: "acme/*" }), label("acme/web/team"))).toBe(false);
    expect(ruleMatches(rule({ scope: "acme/**" }), label("acme/web/team"))).toBe(true);
    expect(ruleMatches(rule({ scope: "ACME/we?" }), label("acme/web"))).toBe(true);
    expect(ruleMatches(rule({ scope: "acme?web" }), label("acme/web"))).toBe(false);
    expect(ruleMatches(rule({ scope: "acme/**/team" }), label("acme/a/b/team"))).toBe(true);
    expect(ruleMatches(rule({ scope: "acme" }), label("acme/web"))).toBe(false);
  });

  it("name: * and ? anything, / included, case counts; undefined before the object is read", () => {
    expect(ruleMatches(rule({ name: "tmp-*" }), label("acme", "tmp-a/b"))).toBe(true);
    expect(ruleMatches(rule({ name: "tmp-*" }), label("acme", "TMP-a"))).toBe(false);
    expect(ruleMatches(rule({ name: "t?p-*-done" }), label("acme", "tmp-x-y-done"))).toBe(true);
    expect(ruleMatches(rule({ name: "*" }), label("acme", ""))).toBe(true);
    expect(ruleMatches(rule({ name: "a*b*c" }), label("acme", "abxcd"))).toBe(false);
    expect(ruleMatches(rule({ name: "tmp-*" }), label("acme"))).toBeUndefined();
    // Characters a regular expression would read as its own are plain characters here.
    expect(ruleMatches(rule({ name: "a.(b)+[c]$" }), label("acme", "a.(b)+[c]$"))).toBe(true);
    expect(ruleMatches(rule({ name: "a.(b)+[c]$" }), label("acme", "aX(b)+[c]$"))).toBe(false);
  });

  it("a pattern of many stars against a 2,000-character name is answered, matching or not, without backtracking", () => {
    const long = `tmp-${"-".repeat(2_000)}x`;
    expect(ruleMatches(rule({ name: "tmp-*-*-*-*-*-*-done" }), label("acme", long))).toBe(false);
    expect(ruleMatches(rule({ name: "tmp-*-*-*-*-*-*-x" }), label("acme", long))).toBe(true);
    expect(ruleMatches(rule({ scope: "**/**/**/**/**/z" }), label(`${"a/".repeat(1_000)}b`))).toBe(false);
  });
});
