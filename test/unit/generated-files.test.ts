import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REGENERATE, generatedFiles, replaceSection } from "../../provider/generated/generate";
import * as forge from "../../provider";
import { declarations } from "../../provider/resources";
import { lookupDeclarations } from "../../provider/lookups/registry";

const root = join(__dirname, "../..");

describe("generated files (exports, reference, README lists)", () => {
  for (const [path, text] of generatedFiles()) {
    it(`${path} is current`, () => {
      const committed = readFileSync(join(root, path), "utf8");
      expect(committed, `${path} is stale: run \`${REGENERATE}\``).toBe(text);
    });
  }
});

it("exports a class for every declaration and a function for every lookup", () => {
  const exported = forge as unknown as Record<string, unknown>;
  for (const declaration of Object.values(declarations)) expect(exported[declaration.name], declaration.name).toHaveProperty("typeToken");
  for (const name of Object.keys(lookupDeclarations)) expect(exported[name], name).toHaveProperty("output");
});

it("replaces only what lies between a section's markers, and names missing markers", () => {
  const text = "a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb\n";
  expect(replaceSection(text, "x", "new\n")).toBe("a\n<!-- generated:x -->\n\nnew\n\n<!-- /generated:x -->\nb\n");
  expect(() => replaceSection(text, "y", "new")).toThrow("<!-- generated:y -->");
});
