/** `--help` is the first thing people type: every bin prints its usage and exits 0. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(__dirname, "../..");
const bins = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin: Record<string, string> }).bin;

for (const [name, file] of Object.entries(bins)) {
  it(`${name} --help prints its usage and exits 0`, () => {
    const output = execFileSync(process.execPath, [join(root, file), "--help"], { encoding: "utf8", timeout: 30_000, cwd: root });
    expect(output.toLowerCase()).toContain(`usage: ${name}`);
    expect(output).not.toMatch(/unknown option/i);
  });
}
