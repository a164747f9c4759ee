/**
 * docs/guides/adopting-and-terraform.md shows the mapping `forge-adopt --from-terraform` applies, generated from
 * the table in provider/adopt/terraform.ts: this test keeps the page equal to it (run it with
 * FORGE_WRITE_DOCS=1 to rewrite the page's table), and every forge resource the table names one
 * forge-adopt can read by import id.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { adoptEntries } from "../../provider/adopt/entries";
import { TERRAFORM_TYPES, TERRAFORM_UNMAPPED, terraformMappingTable } from "../../provider/adopt/terraform";

const PAGE = join(__dirname, "..", "..", "docs", "guides", "adopting-and-terraform.md");
const START =
  "<!-- terraform-mapping:start (generated from provider/adopt/terraform.ts; test/unit/from-terraform-doc.test.ts keeps it) -->";
const END = "<!-- terraform-mapping:end -->";

it("docs/guides/adopting-and-terraform.md shows the mapping the code applies", () => {
  const page = readFileSync(PAGE, "utf8");
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  expect(start, `docs/guides/adopting-and-terraform.md has the marker ${START}`).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const table = `\n${terraformMappingTable()}\n`;
  if (process.env["FORGE_WRITE_DOCS"] === "1") writeFileSync(PAGE, `${page.slice(0, start + START.length)}${table}${page.slice(end)}`);
  expect(
    page.slice(start + START.length, end),
    "the mapping table is stale: run FORGE_WRITE_DOCS=1 npx vitest run --project unit test/unit/from-terraform-doc.test.ts",
  ).toBe(table);
});

it("maps each Terraform type to forge resources forge-adopt reads, and lists no type as both mapped and not", () => {
  for (const [type, mapping] of Object.entries(TERRAFORM_TYPES)) {
    expect(type).toMatch(/^gitlab_[a-z_]+$/);
    expect(mapping.becomes.length, type).toBeGreaterThan(0);
    for (const key of mapping.becomes)
      expect(adoptEntries[key], `${type} becomes ${key}, which forge-adopt does not adopt`).toHaveProperty("find");
  }
  expect(Object.keys(TERRAFORM_UNMAPPED).filter((type) => type in TERRAFORM_TYPES)).toEqual([]);
});
