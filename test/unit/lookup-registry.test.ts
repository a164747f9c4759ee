import { expect, it } from "vitest";
import { parseRoute } from "../../provider/client";
import type { LookupDeclaration } from "../../provider/lookups/lookup";
import { lookupDeclarations } from "../../provider/lookups/registry";

const all = Object.values(lookupDeclarations) as LookupDeclaration[];

it("names each lookup get… for one record and list… for a listing", () => {
  for (const lookup of all) expect(lookup.name, lookup.route).toMatch(lookup.many ? /^list[A-Z]/ : /^get[A-Z]/);
});

it("takes every path parameter of a lookup's route as a required argument", () => {
  for (const lookup of all) {
    for (const parameter of parseRoute(lookup.route).parameters) {
      const schema = lookup.args.shape[parameter];
      expect(schema, `${lookup.name}: :${parameter}`).toBeDefined();
      expect(schema?.safeParse(undefined).success, `${lookup.name}: ${parameter} is optional`).toBe(false);
    }
  }
});
