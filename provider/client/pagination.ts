/** Pages a listing may span before {@link ForgeClient.list} assumes a loop and stops with an error. */
export const MAX_PAGES = 10_000;

/** Page size asked for by `list()` unless the caller sets `per_page`; the forge clamps to 100 anyway. */
export const PER_PAGE = 100;

/** One entry of a `Link` header. */
export interface LinkEntry {
  /** The URL between angle brackets, exactly as sent. */
  url: string;
  /** Relation types (`rel="next last"` gives two). */
  rels: string[];
}

/** Parses an RFC 8288 `Link` header: `<url>; rel="next", <url2>; rel="last"`. */
export function parseLinkHeader(header: string | undefined): LinkEntry[] {
  if (!header) return [];
  const entries: LinkEntry[] = [];
  // The URL is delimited by <>, so commas inside it do not split entries.
  const entry = /<([^>]*)>((?:\s*;\s*[^;,]+)*)/g;
  for (const match of header.matchAll(entry)) {
    const url = match[1] ?? "";
    const rels: string[] = [];
    for (const param of (match[2] ?? "").split(";")) {
      const rel = /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(param);
      if (rel?.[1]) rels.push(...rel[1].toLowerCase().split(/\s+/).filter(Boolean));
    }
    entries.push({ url, rels });
  }
  return entries;
}

/** The `rel="next"` URL of a `Link` header, resolved against `current` if relative (the forge sends absolute ones). */
export function nextPageUrl(header: string | undefined, current: string): string | undefined {
  const next = parseLinkHeader(header).find((link) => link.rels.includes("next"));
  if (!next?.url) return undefined;
  return /^https?:\/\//i.test(next.url) ? next.url : new URL(next.url, current).href;
}
