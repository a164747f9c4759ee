/** Reference pages take each field's words from its own declaration, also where two declarations share a file. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const page = (name: string) => readFileSync(join(__dirname, "../../docs/reference", `${name}.md`), "utf8");
const row = (text: string, field: string) => text.split("\n").find((line) => line.startsWith(`| \`${field}\` |`)) ?? "";

it("the project-level protected environment is described in project words, the group-level one in group words", () => {
  const project = page("ProjectProtectedEnvironment");
  expect(row(project, "name")).toContain("free text");
  expect(row(project, "name")).not.toContain("deployment tier");
  expect(row(project, "deployAccessLevels")).not.toContain("of the group");
  const group = page("GroupProtectedEnvironment");
  expect(row(group, "name")).toContain("deployment tier");
});

it("the project allowlist entry's outputs speak of the allowed project", () => {
  expect(row(page("JobTokenScopeProjectAllowlistEntry"), "targetWebUrl")).toContain("project's web address");
});
