/**
 * Prettier leaves the generated modules alone: `npm run generate` writes them, and
 * test/unit/generated-files.test.ts keeps them current. Whether the code is formatted is
 * `npm run lint` (Prettier's check and knip), a linter run beside the suite by `.ci/run`.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { generatedFiles } from "../../scripts/generate/generate";

const root = resolve(__dirname, "../..");

it("leaves alone exactly the modules the generator writes", () => {
  const ignored = readFileSync(join(root, ".prettierignore"), "utf8")
    .split("\n")
    .filter((line) => line.endsWith(".ts"));
  const generated = [...generatedFiles().keys()].filter((path) => path.endsWith(".ts"));
  expect(ignored.sort()).toEqual(generated.sort());
});
