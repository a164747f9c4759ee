/**
 * A lookup is data (a {@link LookupDeclaration}) and {@link lookup} is its one interpreter: an
 * async function that reads the forge from a program, for values a stack needs but does not
 * manage: `await getGroup({ group: "acme" })`, or `getGroup.output({ group: someOutput })` to
 * compose with other resources' outputs.
 *
 * They run in the program's process: the connection comes from `FORGE_BASE_URL` /
 * `FORGE_TOKEN` or stack config `forge:baseUrl` / `forge:token`, like the resources.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { clientFor, parseRoute, resolveConnection, type Connection, type Endpoint, type ForgeClient } from "../client";
import { fileDigest } from "../engine/files";
import { fromWire, toSnake } from "../engine/naming";
import type { ResourceArgs } from "../fields";
import { pulumiSdk } from "../pulumi-sdk";

/** A record as the forge returns it, with camelCase keys. */
export type ForgeRecord = Record<string, unknown>;

/** One lookup of the API, declared as data; `npm run generate` exports it under its `name`. */
export interface LookupDeclaration {
  /** The exported function's name: `get<Thing>` for one record, `list<Things>` for a listing. */
  name: string;
  /** One sentence for the docs and the export's TSDoc. */
  summary: string;
  /**
   * An entry of the route table (`routes.groupLabels.list`). Its `:name` parameters come from the
   * arguments of that name; the others go to the query, in snake_case. A `POST` route is an
   * action: it changes the forge each time it is called (the arguments go to the body), and
   * answers one record.
   */
  route: Endpoint<"GET" | "POST">;
  /**
   * Listings that one argument picks among (`all: true` reads `/members/all`): the argument's
   * value, as text, names the route; it is not sent. Without a match, `route`.
   */
  routeBy?: { arg: string; routes: Readonly<Record<string, Endpoint<"GET">>> };
  /** The answer is raw text (a file's content), returned as a string. */
  raw?: boolean;
  /** The arguments, checked before any request; TSDoc on each field reaches the docs. */
  args: z.ZodObject;
  /** A listing: every page is read and the result is an array of records. */
  many: boolean;
  /**
   * Fields of the records that the matching resource keeps secret (a client key's DSN): in a
   * program, `.output()` answers a secret, so that they are encrypted wherever they go.
   */
  secretFields?: readonly string[];
  /**
   * The listing also serves keyset pagination, in this ordering by default: the lookup then
   * takes `pagination: "keyset"` (with its `orderBy` and `sort`, when it has them).
   */
  keyset?: { orderBy: string; sort: "asc" | "desc" };
}

/** A file a lookup reads (an avatar): its name and type as the forge serves it, its size, SHA-256 and content (base64). */
export interface ForgeFile {
  filename: string | undefined;
  contentType: string | undefined;
  size: number;
  sha256: string;
  contentBase64: string;
}

/** A lookup's result: one record, or every record of a listing. */
export type LookupResult<L extends LookupDeclaration> = L["raw"] extends true
  ? string
  : L["many"] extends true
    ? ForgeRecord[]
    : ForgeRecord;

/** A lookup as Pulumi's own functions come: a promise of plain arguments, and an `.output`
 *  form that takes inputs (outputs of other resources, typed as a resource's arguments are)
 *  and returns an output. */
export interface Lookup<L extends LookupDeclaration> {
  (args: z.input<L["args"]>): Promise<LookupResult<L>>;
  output(args: ResourceArgs<L["args"]>): pulumi.Output<LookupResult<L>>;
}

/** Identity function that keeps the literal types of a lookup declaration (its name, its
 *  argument schema, one or many), from which the exported function is typed. */
export function defineLookup<const L extends LookupDeclaration>(declaration: L): L {
  return declaration;
}

/** The connection of code running in the program (lookups, actions): stack config, else the environment. */
export function programConnection(): Connection {
  let config: pulumi.Config | undefined;
  try {
    config = new (pulumiSdk().Config)("forge");
  } catch {
    config = undefined; // outside a Pulumi program: environment only
  }
  return resolveConnection({ get: (key) => config?.get(key.slice(key.indexOf(":") + 1)) });
}

/**
 * Arguments checked before any request, for lookups and actions alike. The error names each
 * field and the reason, never a value (an action's argument may be a token).
 */
export function parseArguments<S extends z.ZodType>(label: string, schema: S, args: unknown): z.output<S> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`);
  // A RunError: in a program, Pulumi prints the message alone, not a stack trace into the library.
  throw new (pulumiSdk().RunError)(`${label}: invalid arguments: ${issues.join("; ")}`);
}

/**
 * Runs a lookup with validated arguments: path fields from the template, the rest as query.
 * The client defaults to the program's connection; `forge-adopt` passes its own.
 */
export async function runLookup(declaration: LookupDeclaration, args: Record<string, unknown>, client?: ForgeClient): Promise<unknown> {
  const data = { ...(parseArguments(declaration.name, declaration.args, args) as Record<string, unknown>) };
  const by = declaration.routeBy;
  const route = (by && data[by.arg] !== undefined ? by.routes[String(data[by.arg])] : undefined) ?? declaration.route;
  if (by) delete data[by.arg];
  const inPath = new Set(parseRoute(route).parameters);
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    params[inPath.has(key) ? key : toSnake(key)] = value;
  }
  const forge = client ?? clientFor(programConnection());
  if (declaration.many) {
    const { pagination, ...rest } = params;
    const keyset =
      pagination === "keyset" && declaration.keyset
        ? {
            orderBy: String(rest["order_by"] ?? declaration.keyset.orderBy),
            sort: (rest["sort"] ?? declaration.keyset.sort) as "asc" | "desc",
          }
        : undefined;
    return fromWire(await forge.list(route as Endpoint<"GET">, rest, keyset ? { keyset } : {}));
  }
  const response = await forge.request(route, params);
  const body = response.body;
  if (Buffer.isBuffer(body)) return fileRecord(body, response.headers);
  if (declaration.raw) return typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body);
  return fromWire(body);
}

/** A file's name from `Content-Disposition`: the exact `filename*` (RFC 8187) when given, else `filename`. */
function dispositionFilename(header: string): string | undefined {
  const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // a malformed encoding: fall back to the plain name
    }
  }
  return /filename="([^"]*)"/.exec(header)?.[1];
}

function fileRecord(content: Buffer, headers: Record<string, string>): ForgeFile {
  return {
    filename: dispositionFilename(headers["content-disposition"] ?? ""),
    contentType: headers["content-type"],
    size: content.length,
    sha256: fileDigest(content),
    contentBase64: content.toString("base64"),
  };
}

/** The function of a lookup declaration. */
export function lookup<const L extends LookupDeclaration>(declaration: L): Lookup<L> {
  const call = (args: z.input<L["args"]>) => runLookup(declaration, args as Record<string, unknown>) as Promise<LookupResult<L>>;
  return Object.assign(call, {
    output: (args: ResourceArgs<L["args"]>) => {
      const answer = pulumiSdk()
        .output(args)
        .apply((plain) => call(plain as z.input<L["args"]>));
      return declaration.secretFields?.length ? (pulumiSdk().secret(answer) as unknown as typeof answer) : answer;
    },
  });
}

/** Lookup declarations by name, keeping each one's type. */
export function lookupsByName<const T extends readonly LookupDeclaration[]>(list: T): { readonly [L in T[number] as L["name"]]: L } {
  const byName: Record<string, LookupDeclaration> = {};
  for (const declaration of list) {
    if (byName[declaration.name]) throw new Error(`pulumi-forge: two lookups named ${declaration.name}`);
    byName[declaration.name] = declaration;
  }
  return byName as { readonly [L in T[number] as L["name"]]: L };
}
