/**
 * Every file of code is as Prettier writes it (print width 140, `.prettierrc.json`): `npm run
 * format` rewrites them. Markdown, YAML and JSON are left alone (`.prettierignore`): they are
 * prose and examples that the docs tests run. So are the generated modules, which
 * `npm run generate` writes and test/unit/generated-files.test.ts keeps current.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { generatedFiles } from "../../scripts/generate/generate";

const root = resolve(__dirname, "../..");
const prettier = resolve(root, "node_modules/prettier/bin/prettier.cjs");
/** The files of code Prettier checks, as `npm run format` names them. */
const CODE = "**/*.{ts,mts,cts,js,mjs,cjs}";

/** The files Prettier would change under `cwd`, by path; empty when every file is formatted. */
async function unformatted(cwd: string, pattern = CODE): Promise<string[]> {
  const result = await promisify(execFile)(process.execPath, [prettier, "--list-different", pattern], { cwd }).catch(
    (error: { stdout?: string; code?: number }) => {
      // 1: some files differ (listed); anything else is Prettier failing, which must not pass.
      if (error.code !== 1) throw error;
      return { stdout: error.stdout ?? "" };
    },
  );
  return result.stdout.split("\n").filter((line) => line !== "");
}

it("every file of code is formatted (run `npm run format`)", async () => {
  expect(await unformatted(root), "not as Prettier writes them: run `npm run format`").toEqual([]);
}, 120_000);

it("leaves alone exactly the modules the generator writes", () => {
  const ignored = readFileSync(join(root, ".prettierignore"), "utf8")
    .split("\n")
    .filter((line) => line.endsWith(".ts"));
  const generated = [...generatedFiles().keys()].filter((path) => path.endsWith(".ts"));
  expect(ignored.sort()).toEqual(generated.sort());
});

it("the check sees a file Prettier would change", async () => {
  const dir = mkdtempSync(join(tmpdir(), "forge-format-"));
  writeFileSync(join(dir, ".prettierrc.json"), readFileSync(join(root, ".prettierrc.json")));
  writeFileSync(join(dir, "ok.ts"), 'export const ok = "formatted";\n');
  writeFileSync(join(dir, "bad.ts"), "export const  bad = {a:1}\n");
  expect(await unformatted(dir)).toEqual(["bad.ts"]);
}, 60_000);
