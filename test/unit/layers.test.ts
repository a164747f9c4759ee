/** Every test file is in exactly one layer; the engine suites fail without the CLI unless skipping was asked for. */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { LAYERS } from "../layers";
import { engineTestDecision, SKIP_ENGINE_VARIABLE } from "../e2e/harness";

const ROOT = join(__dirname, "../..");

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" || name === "programs" ? [] : testFiles(path);
    return name.endsWith(".test.ts") ? [relative(ROOT, path).split("\\").join("/")] : [];
  });
}

/** A glob of the layers' form (`dir/**\/*.test.ts` or a file) as a test. */
function matches(pattern: string, file: string): boolean {
  if (!pattern.includes("*")) return pattern === file;
  const base = pattern.slice(0, pattern.indexOf("**"));
  return file.startsWith(base) && file.endsWith(".test.ts");
}

it("puts every test file in exactly one layer", () => {
  const files = testFiles(join(ROOT, "test"));
  expect(files.length).toBeGreaterThan(90);
  const placed = files.map((file) => ({
    file,
    layers: Object.entries(LAYERS)
      .filter(([, layer]) => layer.include.some((pattern) => matches(pattern, file)) && !(layer.exclude ?? []).includes(file))
      .map(([name]) => name),
  }));
  expect(placed.filter((entry) => entry.layers.length !== 1)).toEqual([]);
});

it("runs an engine suite when the CLI is there, skips it only on request, and fails without the CLI otherwise", () => {
  expect(engineTestDecision({}, true)).toBe("run");
  expect(engineTestDecision({ [SKIP_ENGINE_VARIABLE]: "1" }, false)).toBe("skip");
  expect(() => engineTestDecision({}, false)).toThrow(/not installed .* run `\. scripts\/setup\.sh`.* FORGE_SKIP_ENGINE_TESTS=1/);
});
