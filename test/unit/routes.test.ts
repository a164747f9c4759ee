/**
 * Routes are written once, in api/routes.ts: the emulator serves exactly its endpoints, and
 * every route the provider (declarations, hooks, lookups, actions, forge-adopt) or the CLI sends
 * is one of them. The provider's routes are gathered twice: from the declarations themselves,
 * and from the source text of provider/ and cli/ (string and template literals of a method and a
 * path, and the client's calls), so a hook's route cannot slip past.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, endpointOf, templateShape } from "../../api/routes";
import { HTTP_METHODS } from "../../api";
import { routeTable } from "../../emulator/registry";
import { routeOf, type AnyDeclaration, type Request } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";
import { lookupDeclarations } from "../../provider/lookups/registry";
import type { LookupDeclaration } from "../../provider/lookups/lookup";

const ROOT = join(__dirname, "../..");
const served = new Set(routeTable().map((route) => `${route.method} ${templateShape(route.path)}`));
const key = (method: string, path: string) => `${method} ${templateShape(path)}`;

/** Routes built by a function of an input, which the scan cannot read: each with where the table covers it. */
const COMPUTED: Record<string, string> = {
  "provider/resources/repository-storage-move.ts": "movesPath(kind): /<kind>_repository_storage_moves for the spec's three kinds, each in the table",
  "provider/resources/group-integrations.ts": "one route per slug of api/integrations.ts: the declarations' own routes are checked above",
  "provider/resources/job-token-scope-allowlist.ts": "one route per allowlist (projects, groups): the declarations' own routes are checked above",
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The routes a declaration's requests name. */
function declarationRoutes(declaration: AnyDeclaration): string[] {
  const requests: (Request | { list: string } | undefined)[] = [declaration.create, declaration.read, declaration.update, declaration.delete];
  const identity = declaration.identity;
  if ("fields" in identity && identity.find) requests.push(typeof identity.find === "string" ? identity.find : identity.find);
  if ("none" in identity && identity.search) requests.push({ list: identity.search.list });
  return requests.flatMap((request) => {
    if (request === undefined) return [];
    if (typeof request === "object" && "list" in request) return [request.list];
    return [routeOf(request as Request)];
  });
}

/** Route literals in the source text, `${CONST}` resolved from the file's own constants. */
/** A path template as code writes it: segments, parameters and `${CONST}` parts, nothing else
 *  (a sentence in a comment or a message is not a route). */
const PATH = "(?:/|\\$\\{)[A-Za-z0-9_:./{}$-]*";

function sourceRoutes(): { routes: { route: string; file: string }[]; unresolved: { text: string; file: string }[] } {
  const routes: { route: string; file: string }[] = [];
  const unresolved: { text: string; file: string }[] = [];
  const methods = HTTP_METHODS.join("|");
  for (const path of [...tsFiles(join(ROOT, "provider")), ...tsFiles(join(ROOT, "cli"))]) {
    const file = relative(ROOT, path).split("\\").join("/");
    if (file.startsWith("provider/generated/")) continue;
    const text = readFileSync(path, "utf8");
    const constants = new Map<string, string>();
    for (const match of text.matchAll(/const (\w+) = ["`]([^"`$]*)["`]/g)) constants.set(match[1]!, match[2]!);
    const resolve = (literal: string) => literal.replace(/\$\{(\w+)\}/g, (whole, name: string) => constants.get(name) ?? whole);
    const add = (method: string, raw: string) => {
      const resolved = resolve(raw);
      // A type (`GET /${string}`), not a route.
      if (resolved.includes("${string}")) return;
      if (resolved.includes("${")) unresolved.push({ text: `${method} ${raw}`, file });
      else routes.push({ route: `${method} ${resolved}`, file });
    };
    // "GET /groups/:group" and `PUT ${ROUTE}`
    for (const match of text.matchAll(new RegExp(`["\`](${methods}) (${PATH})["\`]`, "g"))) add(match[1]!, match[2]!);
    // client.request("POST", "/groups/:group/ldap_sync", ...)
    for (const match of text.matchAll(new RegExp(`request(?:<[^(]*>)?\\("(${methods})", ["\`](${PATH})["\`]`, "g"))) add(match[1]!, match[2]!);
    // client.list("/projects", ...): a GET
    for (const match of text.matchAll(new RegExp(`\\.list(?:<[^(]*>)?\\(["\`](${PATH})["\`]`, "g"))) add("GET", match[1]!);
  }
  return { routes, unresolved };
}

describe("the route table", () => {
  it("is what the emulator serves: every endpoint, each once", () => {
    const keys = ENDPOINTS.map((endpoint) => key(endpoint.method, endpoint.path));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((entry) => !served.has(entry))).toEqual([]);
    expect(served.size).toBe(keys.length);
  });

  it("holds every route a declaration or a lookup names, and the emulator serves it", () => {
    const named = [
      ...(Object.values(declarations) as AnyDeclaration[]).flatMap(declarationRoutes),
      ...(Object.values(lookupDeclarations) as LookupDeclaration[]).flatMap((lookup) => [lookup.route, ...Object.values(lookup.routeBy?.routes ?? {})]),
    ];
    expect(named.length).toBeGreaterThan(150);
    const missing = named.filter((route) => {
      const [method, path] = route.split(" ") as [string, string];
      return !endpointOf(method, path) || !served.has(key(method, path));
    });
    expect(missing).toEqual([]);
  });

  it("holds every route the source of provider/ and cli/ sends, hooks and actions included", () => {
    const { routes, unresolved } = sourceRoutes();
    // A floor measured on this code: a scan that finds fewer has stopped reading routes.
    expect(routes.length).toBeGreaterThan(120);
    const missing = routes.filter(({ route }) => {
      const [method, path] = route.split(" ") as [string, string];
      return !endpointOf(method, path) || !served.has(key(method, path));
    });
    expect(missing).toEqual([]);
    expect(unresolved.filter(({ file }) => !COMPUTED[file])).toEqual([]);
  });

  it("fails for a route the API does not have", () => {
    expect(endpointOf("GET", "/groups/:id/labels/:label_id")).toBeDefined();
    expect(endpointOf("GET", "/groups/:id/label/:label_id")).toBeUndefined();
    expect(endpointOf("PATCH", "/groups/:id/labels/:label_id")).toBeUndefined();
  });
});
