import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { PAGE, policiesPage } from "../../scripts/generate/policies";

it("the committed docs/policies.md matches the pack and the schemas (run npm run generate)", () => {
  expect(readFileSync(PAGE, "utf8")).toBe(policiesPage());
});
