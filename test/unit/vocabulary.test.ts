/**
 * The declaration vocabulary stays small on purpose: an option that only one declaration uses is
 * either a general concept of the API (one it is likely to meet again, named in its words) or a
 * hook with a typed signature. docs/architecture.md's vocabulary table says which for each, and
 * this test keeps the table true: every option used by one declaration is in it, with the
 * declaration that uses it, and no row names an option that is no longer single-use.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { declarations } from "../../provider/resources";
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { vocabularyUse } from "./vocabulary";

const use = vocabularyUse(Object.values(declarations) as AnyDeclaration[]);
const doc = readFileSync(join(__dirname, "..", "..", "docs", "architecture.md"), "utf8");
const table = doc.slice(doc.indexOf("### The vocabulary"));
const rows = new Map(
  [...table.matchAll(/^\| `([^`]+)` \| ([^|]+) \| (concept|hook) \|/gm)].map((match) => [
    match[1]!,
    { user: match[2]!.trim(), kind: match[3]! },
  ]),
);

it("measures options at every depth", () => {
  expect(use.get("route.readBack")?.length).toBeGreaterThan(1);
  expect(use.get("identity.search.madeBy")?.length).toBeGreaterThan(1);
  expect(use.get("collections.style")?.length).toBeGreaterThan(1);
  expect(use.has("inputs.*.meta.file")).toBe(true);
});

it("names every single-use option in docs/architecture.md's vocabulary table, as a concept or a hook", () => {
  const single = [...use].filter(([, users]) => users.length === 1);
  expect(single.length).toBeGreaterThan(0);
  for (const [option, users] of single)
    expect(rows.get(option), `${option} (used by ${users[0]}) is missing from the vocabulary table`).toMatchObject({ user: users[0] });
  for (const option of rows.keys()) expect(use.get(option), `the table names ${option}, which no declaration uses once`).toHaveLength(1);
});
