/**
 * Every test file is in exactly one layer; the engine suites fail without the CLI unless skipping
 * was asked for; CONTRIBUTING.md's table of the layers is `LAYERS`, row for row.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
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

it("CONTRIBUTING.md's table of the layers has one row per layer, in order, naming where each layer's files are", () => {
  const text = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8");
  const section = text.slice(text.indexOf("### The layers"), text.indexOf("\n### ", text.indexOf("### The layers") + 1));
  const rows = section
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| /, "")));
  expect(rows.map(([layer]) => layer)).toEqual(Object.keys(LAYERS).map((name) => `\`${name}\``));
  for (const [layer, where] of rows) {
    const named = [...where!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((path) => path.startsWith("test/"));
    const included = LAYERS[layer!.slice(1, -1)]!.include.map((pattern) => pattern.replace(/\/\*\*\/\*\.test\.ts$/, ""));
    expect(named, layer).toEqual(included);
  }
});
