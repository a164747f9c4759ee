import type { HttpMethod } from "../../api";
import type { Actor } from "./records";

/*
 * The vocabulary of a resource's route table. Routes name their path parameters
 * (`/groups/:group/labels/:labelId`) and handlers read them by name, typed from the template.
 * Answers are data; the HTTP layer writes them out and paginates the listings marked `paged`.
 */

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The decoded path parameters of a template, by name: `{ group: string; labelId: string }`. */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string };

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
 * The orderings a listing serves with keyset pagination (Document 1, Pagination): the sorts
 * allowed per `order_by`, the listing's own default ordering, and how to read an element's
 * value of an `order_by` field (default: the record's field of that name).
 */
export interface KeysetRule {
  orders: Readonly<Record<string, readonly SortDirection[]>>;
  defaultOrder: { orderBy: string; sort: SortDirection };
  keyOf?: (item: unknown, orderBy: string) => unknown;
}

/** One route of a resource: method, a template relative to /api/v4, and a handler over its model. */
export interface Route<Model> {
  method: HttpMethod;
  path: string;
  handler(request: RouteRequest, model: Model): RouteAnswer;
}

/**
 * The route helper of a model: `route("GET", "/groups/:group/labels", (r, labels) => ...)`
 * gives the handler `r.params.group`, checked against the template at compile time.
 */
export function routesOf<Model>() {
  return <const Path extends string>(
    method: HttpMethod,
    path: Path,
    handler: (request: RouteRequest<PathParams<Path>>, model: Model) => RouteAnswer,
  ): Route<Model> => ({
    method,
    path,
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
 * The four routes of a plain collection: `GET base` (one page of the listing, or the whole
 * array when `listing` is `"whole"`), `GET base/:item`, `POST base` (201), `DELETE base/:item` (204).
 */
export function collectionRoutes<Model extends CollectionModel<PathParams<Base>>, const Base extends string>(
  base: Base,
  item: string,
  listing: "paged" | "whole",
): Route<Model>[] {
  const one = `${base}/:${item}`;
  // The router matched the template, so the parameters it names are present.
  const path = (request: RouteRequest) => request.params as PathParams<Base>;
  const ref = (request: RouteRequest) => request.params[item] as string;
  return [
    {
      method: "GET",
      path: base,
      handler: (r, model) => (listing === "paged" ? paged : ok)(model.list(r.actor, path(r))),
    },
    { method: "GET", path: one, handler: (r, model) => ok(model.get(r.actor, path(r), ref(r))) },
    { method: "POST", path: base, handler: (r, model) => created(model.create(r.actor, path(r), r.input)) },
    {
      method: "DELETE",
      path: one,
      handler: (r, model) => {
        model.delete(r.actor, path(r), ref(r));
        return noContent();
      },
    },
  ];
}
