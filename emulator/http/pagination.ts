import { ApiError, parameterError } from "../core/errors";
import type { KeysetRule, SortDirection } from "../core/routes";
import type { ApiResponse } from "./types";

/** `per_page` when none is given, and the largest one honoured (the API's limits). */
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;
/** Above this many matches the service leaves out the totals and the last link. */
const TOTALS_LIMIT = 10_000;

/**
 * Offset pagination as the service does it: `page`/`per_page` from the query (per_page clamped
 * to 100, 0 refused), `X-*` headers, and a `Link` header of absolute URLs that keep every
 * query parameter. A page past the end is an empty array, not an error.
 */
export function paginate(url: URL, query: Record<string, unknown>, items: readonly unknown[]): ApiResponse {
  const perPage = readPerPage(query);
  const page = readPositive(query.page, "page", 1);
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const withTotals = total <= TOTALS_LIMIT;
  // Past the last page there is neither a previous nor a next page (Kaminari's rule).
  const outOfRange = page > totalPages;
  const hasNext = page < totalPages;
  const hasPrev = page > 1 && !outOfRange;

  const headers: Record<string, string> = {
    "X-Page": String(page),
    "X-Per-Page": String(perPage),
    "X-Next-Page": hasNext ? String(page + 1) : "",
    "X-Prev-Page": hasPrev ? String(page - 1) : "",
  };
  if (withTotals) {
    headers["X-Total"] = String(total);
    headers["X-Total-Pages"] = String(totalPages);
  }
  const link = (target: number, rel: string) => `<${pageUrl(url, target, perPage)}>; rel="${rel}"`;
  const links: string[] = [];
  if (hasPrev) links.push(link(page - 1, "prev"));
  if (hasNext) links.push(link(page + 1, "next"));
  links.push(link(1, "first"));
  if (withTotals) links.push(link(totalPages, "last"));
  headers.Link = links.join(", ");

  const start = (page - 1) * perPage;
  return { status: 200, body: items.slice(start, start + perPage), headers };
}

/** `per_page` as both kinds of pagination read it: default 20, at most 100, 0 refused. */
function readPerPage(query: Record<string, unknown>): number {
  return Math.min(readPositive(query.per_page, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE);
}

/**
 * Keyset pagination (`pagination=keyset`) of a listing that serves it: the elements after the
 * cursor in the asked ordering (`order_by`, `sort`, ties broken by id), and only a `Link`
 * header with `rel="next"`, no `X-*` headers. The next link repeats the query with the filter
 * that resumes after the page's last element: `id_after` / `id_before` when ordering by id (as
 * the service does for projects), an opaque `cursor` otherwise. It is sent whenever the page is
 * full, so a walk ends either on a short page without a link or, when the total is a multiple
 * of the page size, on an empty page without one (the spec's "array is empty").
 */
export function paginateKeyset(url: URL, query: Record<string, unknown>, items: readonly unknown[], rule: KeysetRule): ApiResponse {
  const perPage = readPerPage(query);
  const orderBy = typeof query.order_by === "string" && query.order_by ? query.order_by : rule.defaultOrder.orderBy;
  const sort = (typeof query.sort === "string" && query.sort ? query.sort : rule.defaultOrder.sort) as SortDirection;
  // The service's answer for an ordering its keyset pagination does not serve (the listing has
  // already refused values it does not know at all with 400).
  if (!Object.hasOwn(rule.orders, orderBy) || !rule.orders[orderBy]!.includes(sort)) {
    throw new ApiError(405, { error: "Keyset pagination is not yet available for this type of request" });
  }
  const keyOf = rule.keyOf ?? ((item: unknown, field: string) => (item as Record<string, unknown>)[field]);
  const position = (item: unknown): Position => ({ value: keyOf(item, orderBy), id: Number((item as { id: unknown }).id) });
  const direction = sort === "asc" ? 1 : -1;
  const order = (a: Position, b: Position) => direction * (compareValues(a.value, b.value) || a.id - b.id);
  const sorted = [...items].sort((a, b) => order(position(a), position(b)));
  const filter = orderBy === "id" ? (sort === "asc" ? "id_after" : "id_before") : "cursor";
  const after = readCursor(query[filter], filter, orderBy);
  const rest = after ? sorted.filter((item) => order(position(item), after) > 0) : sorted;
  const page = rest.slice(0, perPage);
  const headers: Record<string, string> = {};
  const last = page[page.length - 1];
  if (last !== undefined && page.length === perPage) {
    const next = new URL(url.href);
    next.searchParams.delete("page");
    next.searchParams.set("per_page", String(perPage));
    next.searchParams.set(filter, filter === "cursor" ? writeCursor(position(last)) : String(position(last).id));
    headers.Link = `<${next.href}>; rel="next"`;
  }
  return { status: 200, body: page, headers };
}

/** Where a keyset page ends: the ordering value and the id of its last element. */
interface Position {
  value: unknown;
  id: number;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a ?? ""), String(b ?? "")];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The cursor is opaque to clients: base64url of the last element's ordering value and id. */
function writeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.value, position.id])).toString("base64url");
}

function readCursor(raw: unknown, filter: string, orderBy: string): Position | undefined {
  if (raw === undefined || raw === "") return undefined;
  const text = String(raw);
  if (filter !== "cursor") {
    if (!/^\d+$/.test(text)) throw parameterError(`${filter} is invalid`);
    return { value: Number(text), id: Number(text) };
  }
  try {
    const [value, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof id === "number") return { value, id };
  } catch {
    // Falls through to the parameter error.
  }
  throw parameterError(`cursor is invalid for order_by=${orderBy}`);
}

function pageUrl(url: URL, page: number, perPage: number): string {
  const target = new URL(url.href);
  target.searchParams.set("page", String(page));
  target.searchParams.set("per_page", String(perPage));
  return target.href;
}

/**
 * Reads a positive integer query value. A missing or blank value takes the default; zero or a
 * negative per_page is refused (`per_page does not have a valid value`); a page below 1 reads
 * as the first page, as the service treats it.
 */
function readPositive(raw: unknown, name: "page" | "per_page", fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const text = String(raw).trim();
  if (!/^-?\d+$/.test(text)) throw parameterError(`${name} is invalid`);
  const value = Number(text);
  if (value >= 1) return value;
  if (name === "per_page") throw parameterError(`${name} does not have a valid value`);
  return 1;
}
