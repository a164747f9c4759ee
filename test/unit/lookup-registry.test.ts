import { expect, it } from "vitest";
import { parseRoute } from "../../provider/client";
import type { LookupDeclaration } from "../../provider/lookups/lookup";
import { lookupDeclarations } from "../../provider/lookups/registry";

const all = Object.values(lookupDeclarations) as LookupDeclaration[];

it("names each lookup get… for one record and list… for a listing, and each action (a POST) by its verb", () => {
  for (const lookup of all) {
    if (parseRoute(lookup.route).method === "POST") {
      expect(lookup.name, String(lookup.route)).not.toMatch(/^(get|list)[A-Z]/);
      expect(lookup.many, lookup.name).toBe(false);
    } else {
      expect(lookup.name, String(lookup.route)).toMatch(lookup.many ? /^list[A-Z]/ : /^get[A-Z]/);
    }
  }
});

it("picks among listings with the same path parameters, by an optional argument", () => {
  for (const lookup of all.filter((candidate) => candidate.routeBy)) {
    const by = lookup.routeBy!;
    expect(lookup.args.shape[by.arg]?.safeParse(undefined).success, `${lookup.name}: ${by.arg}`).toBe(true);
    for (const route of Object.values(by.routes))
      expect(parseRoute(route).parameters, String(route)).toEqual(parseRoute(lookup.route).parameters);
  }
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
