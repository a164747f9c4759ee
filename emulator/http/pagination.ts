import { parameterError } from "../core/errors";
import type { ApiResponse } from "./types";

/** `per_page` when none is given, and the largest one honoured (Document 1, Limits). */
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
  const perPage = Math.min(readPositive(query.per_page, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE);
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
