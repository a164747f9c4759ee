import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { referencePages } from "../../docs/reference/generate";

it("the committed resource reference matches the declarations (run node dist/docs/reference/generate.js)", () => {
  for (const [name, text] of referencePages()) {
    expect(readFileSync(join(__dirname, "../../docs/reference", name), "utf8"), name).toBe(text);
  }
});
