/**
 * Routes are written once, in api/routes.ts: every other part names an entry of its table
 * (`routes.groupLabels.create`), so a route the API does not have is a type error. What the types
 * cannot see is checked here: the emulator serves exactly the table, declarations and lookups
 * name the table's own entries (not look-alike objects), the parameters of a declaration's
 * routes are fields of its state.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS, endpointName, routes, type Endpoint } from "../../api/routes";
import { routeTable } from "../../emulator/registry";
import { parseRoute } from "../../provider/client";
import { inputKeys, optionsOf, outputKeys, routeOf, type AnyDeclaration } from "../../provider/engine/declaration";
import type { LookupDeclaration } from "../../provider/lookups/lookup";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { declarations } from "../../provider/resources";

const shape = (path: string) => path.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, ":");

/** The routes a declaration's generic requests name (hooks send theirs through `ctx.call`). */
function declarationRoutes(declaration: AnyDeclaration): Endpoint[] {
  const found: Endpoint[] = [];
  for (const request of [declaration.create, declaration.read, declaration.update, declaration.delete]) {
    if (request === undefined) continue;
    if ("list" in request) found.push(request.list);
    else {
      found.push(routeOf(request));
      const shared = optionsOf(request).sharedListing;
      if (shared) found.push(shared);
    }
  }
  const identity = declaration.identity;
  if ("fields" in identity && identity.find) found.push("list" in identity.find ? identity.find.list : identity.find);
  if ("none" in identity && identity.search) found.push(identity.search.list);
  return found;
}

const lookupRoutes = (lookup: LookupDeclaration): Endpoint[] => [lookup.route, ...Object.values(lookup.routeBy?.routes ?? {})];

describe("the route table", () => {
  it("holds each endpoint once, under one name", () => {
    const keys = ENDPOINTS.map((endpoint) => `${endpoint.method} ${shape(endpoint.path)}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    expect(ENDPOINTS.length).toBeGreaterThan(150);
    expect(endpointName(routes.groupLabels.create)).toBe("groupLabels.create");
    expect(endpointName(routes.groupIntegrations.bySlug["chat-webhook"].set)).toBe("groupIntegrations.bySlug.chat-webhook.set");
    expect(endpointName({ method: "GET", path: "/groups/:group" })).toBeUndefined();
    expect(String(routes.groupLabels.update)).toBe("PUT /groups/:group/labels/:labelId");
  });

  it("is what the emulator serves: every entry, each once", () => {
    const served = routeTable();
    const byEntry = new Map(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint]));
    const keys = served.map((route) => `${route.method} ${route.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    expect(keys.filter((key) => !byEntry.has(key))).toEqual([]);
    expect([...byEntry.keys()].filter((key) => !keys.includes(key))).toEqual([]);
    // The gates come from the table.
    const avatar = served.find((route) => route.path === routes.groups.avatar.path);
    expect(avatar?.anonymous).toBe(true);
    const sites = served.find((route) => route.method === "POST" && route.path === routes.geoSites.create.path);
    expect(sites?.availability).toEqual(routes.geoSites.create.availability);
  });

  it("is where every route of a declaration or a lookup comes from (its entries, not look-alikes)", () => {
    const named = [
      ...(Object.values(declarations) as AnyDeclaration[]).flatMap(declarationRoutes),
      ...(Object.values(lookupDeclarations) as LookupDeclaration[]).flatMap(lookupRoutes),
    ];
    expect(named.length).toBeGreaterThan(150);
    expect(named.filter((route) => endpointName(route) === undefined).map(String)).toEqual([]);
  });

  it("names each path parameter of a declaration's routes after a field of its state", () => {
    const missing: string[] = [];
    for (const declaration of Object.values(declarations) as AnyDeclaration[]) {
      const fields = new Set([...inputKeys(declaration), ...outputKeys(declaration), ...declaration.idParts]);
      for (const route of declarationRoutes(declaration)) {
        for (const parameter of parseRoute(route).parameters) if (!fields.has(parameter)) missing.push(`${declaration.name}: ${String(route)} :${parameter}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
