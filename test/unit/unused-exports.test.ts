/**
 * Nothing exported goes unused and no file is orphaned: knip reads the import graph from the
 * package's entry points (the library, its runtime, the emulator and its CLI, the policy pack,
 * the example programs, the tests). An export only the file itself uses is not reported.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = resolve(__dirname, "../..");

it("knip finds no unused file, export, type or duplicate export", async () => {
  const knip = resolve(root, "node_modules/knip/bin/knip.js");
  const result = await promisify(execFile)(process.execPath, [knip, "--no-progress", "--no-exit-code", "--reporter", "compact"], {
    cwd: root,
  }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr ?? "" }));
  expect(`${result.stdout}${result.stderr}`.trim(), "knip findings (remove the export, or use it)").toBe("");
}, 60_000);
