/**
 * The README's YAML programs are the suite's: a ```yaml block whose first line names an example
 * file (`# examples/yaml/Pulumi.yaml`) must stand in that file line for line, in one piece, so
 * that what test/e2e/yaml.test.ts runs is what the README shows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```yaml\n# (examples\/\S+)\n([\s\S]*?)```/g)].map(([, file, body]) => ({ file: file!, body: body! }));

it("finds the README's YAML example blocks", () => {
  expect(blocks.map((block) => block.file)).toContain("examples/yaml/Pulumi.yaml");
});

it.each(blocks.map((block) => [block.file, block] as const))("the README's excerpt of %s is one piece of it", (_file, block) => {
  const source = readFileSync(join(ROOT, block.file), "utf8");
  expect(block.body.trim().split("\n").length).toBeGreaterThan(10);
  expect(source).toContain(block.body);
});
