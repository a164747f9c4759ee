/**
 * Every entry point of the package has declarations a node10 project (`moduleResolution: node`,
 * the `pulumi new typescript` template) finds: `types` and `typesVersions` name the dist/node10/
 * twin (scripts/node10-types.ts) of each `exports` target, and `files` publishes them. That such
 * a project compiles and runs is test/consumer/package.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  types: string;
  exports: Record<string, string>;
  typesVersions: Record<string, Record<string, string[]>>;
  files: string[];
};

const node10Twin = (target: string) => target.replace(/^\.\/dist\//, "dist/node10/").replace(/\.js$/, ".d.ts");

it("types and typesVersions name the node10 declarations of every entry point of exports", () => {
  expect(manifest.types).toBe(node10Twin(manifest.exports["."]!));
  const entryPoints = Object.entries(manifest.exports).filter(
    ([subpath]) => subpath !== "." && subpath !== "./package.json" && !subpath.startsWith("./dist/"),
  );
  expect(manifest.typesVersions).toEqual({
    "*": Object.fromEntries(entryPoints.map(([subpath, target]) => [subpath.slice(2), [node10Twin(target)]])),
  });
  expect(manifest.files).toContain("dist/node10/**/*.d.ts");
});
