/**
 * Routes are written once, in api/routes.ts: every other part names an entry of its table
 * (`routes.groupLabels.create`), so a route the API does not have is a type error. What the types
 * cannot see is checked here: the emulator serves exactly the table, declarations and lookups
 * name the table's own entries (not look-alike objects), the parameters of a declaration's
 * routes are fields of its state, and no source file but the table holds a route string.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS } from "../../api";
import { ENDPOINTS, endpointName, routes, type Endpoint } from "../../api/routes";
import { routeTable } from "../../emulator/registry";
import { parseRoute } from "../../provider/client";
import { inputKeys, optionsOf, outputKeys, routeOf, type AnyDeclaration } from "../../provider/engine/declaration";
import type { LookupDeclaration } from "../../provider/lookups/lookup";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { declarations } from "../../provider/resources";

const ROOT = join(__dirname, "../..");

/** Where route strings may be written: the table itself, and tests (which address concrete
 *  objects: `/groups/acme/labels/7`). */
const TABLE = "api/routes.ts";
const NOT_SCANNED = ["test/", "node_modules/", "dist/", "examples/node_modules/"];

/**
 * Files allowed to hold a route string, each with its reason. Empty: a file that needs one names
 * an entry of the table instead (group integrations take theirs from `routes.groupIntegrations.
 * bySlug`, storage moves from `routes.repositoryStorageMoves[kind]`).
 */
const EXCEPTIONS: Record<string, string> = {};

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
        for (const parameter of parseRoute(route).parameters)
          if (!fields.has(parameter)) missing.push(`${declaration.name}: ${String(route)} :${parameter}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

// ---- The boundary: no route string outside the table ----

const METHOD_ROUTE = new RegExp(`^(${HTTP_METHODS.join("|")}) /`);
/** The first segments of the API's paths (`groups`, `geo_sites`, `project_repository_storage_moves`). */
const API_SEGMENTS = [...new Set(ENDPOINTS.map((endpoint) => endpoint.path.split("/")[1]!))];

/** True for a path template of the API (`/groups/:group/labels`, `/${kind}_repository_storage_moves`):
 *  a literal starting with `/` whose first segment is one of the API's, `${...}` matching anything
 *  but not standing for the whole segment. */
function isApiPath(text: string): boolean {
  const segment = /^\/([^/?#\s]*)/.exec(text)?.[1];
  if (segment === undefined || /\s/.test(text)) return false;
  const parts = segment.split("\u0000");
  if (parts.every((part) => part === "")) return false;
  const pattern = new RegExp(`^${parts.map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")).join(".*")}$`);
  return API_SEGMENTS.some((candidate) => pattern.test(candidate));
}

/** What a file holds before it can hold a route string (a quote followed by a method or a slash)
 *  or a low-level request. */
const MAYBE_ROUTE = new RegExp(`["'\`](?:(?:${HTTP_METHODS.join("|")}) )?/|\\.request\\(`);

/** A route string: `"GET /groups/:group"`, or a path template of the API. */
const isRouteString = (text: string) => METHOD_ROUTE.test(text) || isApiPath(text);

/** The string and template literals of a source text (template spans as `\0`), with their lines,
 *  and the client calls of the low-level form `request("GET", path)`. */
function scan(file: string, text: string): { literals: { line: number; text: string }[]; lowLevel: number[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const literals: { line: number; text: string }[] = [];
  const lowLevel: number[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.push({ line: lineOf(node), text: node.text });
    else if (ts.isTemplateExpression(node))
      literals.push({ line: lineOf(node), text: node.head.text + node.templateSpans.map((span) => `\u0000${span.literal.text}`).join("") });
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "request") {
      const first = node.arguments[0];
      if (first && ts.isStringLiteralLike(first) && (HTTP_METHODS as readonly string[]).includes(first.text)) lowLevel.push(lineOf(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { literals, lowLevel };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const file = relative(ROOT, path).split("\\").join("/");
    if (entry.isDirectory())
      return NOT_SCANNED.some((prefix) => `${file}/`.startsWith(prefix)) || entry.name.startsWith(".") ? [] : sourceFiles(path);
    return /\.(c|m)?(t|j)s$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

describe("no route string outside the table", () => {
  const files = sourceFiles(ROOT);

  it("reads the whole code base: provider, emulator, cli, policies, docs, bench", () => {
    for (const folder of ["api/", "provider/", "emulator/", "cli/", "policies/", "docs/", "bench/"])
      expect(
        files.some((file) => file.startsWith(folder)),
        folder,
      ).toBe(true);
    expect(files.some((file) => file.startsWith("test/"))).toBe(false);
  });

  it("finds route strings where they are: the table's own", () => {
    const { literals } = scan(TABLE, readFileSync(join(ROOT, TABLE), "utf8"));
    // A floor measured on the table: a scan that finds fewer has stopped recognising routes.
    expect(literals.filter((literal) => isRouteString(literal.text)).length).toBeGreaterThan(100);
    const sample = scan(
      "sample.ts",
      'const a = "GET /groups/:group"; const b = `/${kind}_repository_storage_moves`; const c = `/groups/${id}/labels`; const d = "/tmp/x"; const e = `/${prefix}/-/commit/${sha}`; client.request("POST", path);',
    );
    expect(
      sample.literals.filter((literal) => isRouteString(literal.text)).map((literal) => literal.text.replace(/\u0000/g, "${}")),
    ).toEqual(["GET /groups/:group", "/${}_repository_storage_moves", "/groups/${}/labels"]);
    expect(sample.lowLevel).toEqual([1]);
  });

  it("is what every other file holds: routes by name, never as text", () => {
    const found: string[] = [];
    for (const file of files.filter((candidate) => candidate !== TABLE && !EXCEPTIONS[candidate])) {
      const text = readFileSync(join(ROOT, file), "utf8");
      // Parsed only when a literal could be a route: one that starts with a method or a slash.
      if (!MAYBE_ROUTE.test(text)) continue;
      const { literals, lowLevel } = scan(file, text);
      for (const literal of literals.filter((candidate) => isRouteString(candidate.text)))
        found.push(`${file}:${literal.line}: ${JSON.stringify(literal.text.replace(/\u0000/g, "${}"))}`);
      // The client's method-and-path form is its own (and its tests'): code names an entry.
      if (!file.startsWith("provider/client/")) for (const line of lowLevel) found.push(`${file}:${line}: request("<METHOD>", path)`);
    }
    expect(found).toEqual([]);
  });

  it("names its exceptions with a reason, and each still needs one", () => {
    for (const [file, reason] of Object.entries(EXCEPTIONS)) {
      expect(reason.length, file).toBeGreaterThan(20);
      const { literals } = scan(file, readFileSync(join(ROOT, file), "utf8"));
      expect(
        literals.some((literal) => isRouteString(literal.text)),
        `${file} holds no route string any more: drop its exception`,
      ).toBe(true);
    }
  });
});
