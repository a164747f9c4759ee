/**
 * The docs' YAML programs are the suite's: a ```yaml block whose first line names an example file
 * (`# examples/yaml/Pulumi.yaml`) must stand in that file line for line, in one piece, so that
 * what test/e2e/yaml.test.ts runs is what the docs show.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { docBlocks } from "../consumer/doc-blocks";

const ROOT = join(__dirname, "..", "..");
const blocks = docBlocks(ROOT, "yaml").flatMap((block) => {
  const [, file] = /^# (examples\/\S+)\n/.exec(block.code) ?? [];
  return file ? [{ where: block.where, file, body: block.code.slice(block.code.indexOf("\n") + 1) }] : [];
});

it("finds the docs' YAML example blocks", () => {
  expect(blocks.map((block) => block.file)).toContain("examples/yaml/Pulumi.yaml");
});

it.each(blocks.map((block) => [block.where, block] as const))("%s is one piece of the example it names", (_where, block) => {
  const source = readFileSync(join(ROOT, block.file), "utf8");
  expect(block.body.trim().split("\n").length).toBeGreaterThan(10);
  expect(source).toContain(block.body);
});
