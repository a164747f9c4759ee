import type { Endpoint, PathParams } from "../../api/routes";
import type { Actor } from "./records";

/*
 * The vocabulary of a resource's route table. Each route is an entry of the API's route table
 * (api/routes.ts: `routes.groupLabels.get`), and handlers read its path parameters by name,
 * typed from the entry's template (`r.params.labelId`). Answers are data; the HTTP layer writes
 * them out and paginates the listings marked `paged`.
 */

/** A parsed API request as a handler sees it. */
export interface RouteRequest<Params = Record<string, string>> {
  /** Decoded path parameters (`acme%2Fplatform` → `acme/platform`). */
  params: Params;
  /** Query and body parameters merged, the body winning (bracket notation resolved). */
  input: Record<string, unknown>;
  /** The caller, or null when anonymous. */
  actor: Actor;
}

/** What a handler answers; `body` undefined means no body (204, 304). */
export interface RouteAnswer {
  status: number;
  body?: unknown;
  /** The body is a whole listing: the HTTP layer answers one page of it, with the headers. */
  paged?: true;
  /** The listing also serves keyset pagination (`pagination=keyset`), in these orderings. */
  keyset?: KeysetRule;
  /** Headers of a file answer (its type and name). */
  headers?: Record<string, string>;
}

export type SortDirection = "asc" | "desc";

/**
 * The orderings a listing serves with keyset pagination (the API's pagination rules): the sorts
 * allowed per `order_by`, the listing's own default ordering, and how to read an element's
 * value of an `order_by` field (default: the record's field of that name).
 */
export interface KeysetRule {
  orders: Readonly<Record<string, readonly SortDirection[]>>;
  defaultOrder: { orderBy: string; sort: SortDirection };
  keyOf?: (item: unknown, orderBy: string) => unknown;
}

/** One route of a resource: an endpoint of the API's route table, and a handler over its model. */
export interface Route<Model> {
  endpoint: Endpoint;
  handler(request: RouteRequest, model: Model): RouteAnswer;
}

/**
 * The route helper of a model: `route(routes.groupLabels.list, (r, labels) => ...)` gives the
 * handler `r.params.group`, checked against the entry's template at compile time.
 */
export function routesOf<Model>() {
  return <const E extends Endpoint>(
    endpoint: E,
    handler: (request: RouteRequest<PathParams<E["path"]>>, model: Model) => RouteAnswer,
  ): Route<Model> => ({
    endpoint,
    // The router matched the template, so every parameter it names is present.
    handler: handler as Route<Model>["handler"],
  });
}

/** 200 with a JSON body. */
export const ok = (body: unknown): RouteAnswer => ({ status: 200, body });
/** 200 with one page of a listing (offset pagination, or keyset where `keyset` allows it). */
export const paged = (items: readonly unknown[], keyset?: KeysetRule): RouteAnswer => ({
  status: 200,
  body: items,
  paged: true,
  ...(keyset ? { keyset } : {}),
});
/** 200 with a file as the body (an avatar), its type and name in the headers. */
export const file = (content: { data: Buffer; contentType: string; filename: string }): RouteAnswer => ({
  status: 200,
  body: content.data,
  headers: { "Content-Type": content.contentType, "Content-Disposition": contentDisposition(content.filename) },
});

/**
 * `inline` with the file's name as HTTP allows it (RFC 6266): an ASCII `filename` for old clients
 * (other characters as `_`), and the exact name UTF-8 percent-encoded in `filename*` (RFC 8187).
 * A name outside Latin-1 in a header would make Node refuse the whole answer.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === filename ? `inline; filename="${filename}"` : `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
/** 201 with a JSON body. */
export const created = (body: unknown): RouteAnswer => ({ status: 201, body });
/** 204 without a body. */
export const noContent = (): RouteAnswer => ({ status: 204 });

/** What {@link collectionRoutes} calls: records below a path, one of them addressed by a parameter. */
export interface CollectionModel<Path> {
  list(actor: Actor, path: Path): unknown[];
  get(actor: Actor, path: Path, ref: string): unknown;
  create(actor: Actor, path: Path, input: Record<string, unknown>): unknown;
  delete(actor: Actor, path: Path, ref: string): void;
}

/**
 * The four routes of a plain collection: `GET list` (one page of the listing, or the whole
 * array when `listing` is `"whole"`), `GET get` (the item is its template's last parameter),
 * `POST create` (201), `DELETE delete` (204).
 */
export function collectionRoutes<Model extends CollectionModel<PathParams<Base>>, const Base extends string>(
  endpoints: { list: Endpoint<"GET", Base>; get: Endpoint<"GET">; create: Endpoint<"POST", Base>; delete: Endpoint<"DELETE"> },
  listing: "paged" | "whole",
): Route<Model>[] {
  const item = /:([A-Za-z_][A-Za-z0-9_]*)$/.exec(endpoints.get.path)?.[1];
  if (item === undefined) throw new Error(`${String(endpoints.get)} names no item`);
  // The router matched the template, so the parameters it names are present.
  const path = (request: RouteRequest) => request.params as PathParams<Base>;
  const ref = (request: RouteRequest) => request.params[item] as string;
  return [
    { endpoint: endpoints.list, handler: (r, model) => (listing === "paged" ? paged : ok)(model.list(r.actor, path(r))) },
    { endpoint: endpoints.get, handler: (r, model) => ok(model.get(r.actor, path(r), ref(r))) },
    { endpoint: endpoints.create, handler: (r, model) => created(model.create(r.actor, path(r), r.input)) },
    {
      endpoint: endpoints.delete,
      handler: (r, model) => {
        model.delete(r.actor, path(r), ref(r));
        return noContent();
      },
    },
  ];
}
