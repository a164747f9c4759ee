/**
 * The forge's address space: where a call goes (`<origin><base path>/api/v4<path>?<query>`), and
 * which URLs the forge hands back (next-page links, a moved project's Location) may be followed
 * with the token. Messages name the path relative to /api/v4, without the query.
 */
import type { FormData } from "undici";
import { placeParams } from "./encoding";
import type { HttpMethod } from "./route";

/** One request, ready for the wire. */
export interface Prepared {
  method: HttpMethod;
  /** Path and query sent on the wire. */
  target: string;
  /** Path relative to /api/v4 without query, for messages. */
  displayPath: string;
  body?: string | FormData;
  contentType?: string;
}

/** The API root of one forge. */
export class ForgeTarget {
  /** `http(s)://host[:port]`. */
  readonly origin: string;
  /** The base URL's path followed by `/api/v4`. */
  readonly apiPath: string;

  /** @param baseUrl - A normalized base URL (see normalizeBaseUrl). */
  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.apiPath = `${url.pathname.replace(/\/+$/, "")}/api/v4`;
  }

  /** Applies the placement rule (see placeParams) and puts the result under the API root. */
  prepare(method: HttpMethod, pathTemplate: string, params?: Record<string, unknown>, multipart?: boolean): Prepared {
    const placed = placeParams(method, pathTemplate, params, multipart);
    return {
      method,
      target: this.apiPath + placed.path + (placed.query ? `?${placed.query}` : ""),
      displayPath: placed.path,
      ...(placed.body !== undefined ? { body: placed.body } : {}),
      ...(placed.contentType !== undefined ? { contentType: placed.contentType } : {}),
    };
  }

  /**
   * A next-page or redirect URL, used verbatim: only its origin is split off, its path and query
   * are sent as they are.
   *
   * @param fromPath - The display path of the request whose answer named the URL (for the message).
   * @throws Error when the URL is not on this forge: the token must only go to the configured forge.
   */
  fromUrl(url: string, fromPath: string, what: string): Prepared {
    const match = /^(https?:\/\/[^/?#]+)([^#]*)/i.exec(url);
    const origin = match?.[1] ? new URL(match[1]).origin : undefined;
    if (!match || origin !== this.origin) {
      // A different origin usually means the forge's external URL setting disagrees with the base URL in use.
      throw new Error(
        `GET ${fromPath}: the ${what} points to ${origin ?? "an unparsable URL"}, not ${this.origin}; ` +
          "refusing to send the token there (check the forge's external URL setting)",
      );
    }
    const rest = match[2] ?? "";
    const target = rest.startsWith("/") ? rest : `/${rest}`;
    return { method: "GET", target, displayPath: this.displayPath(target) };
  }

  /** The path of a wire target relative to /api/v4, without its query (never a token in a link). */
  displayPath(target: string): string {
    const q = target.indexOf("?");
    const pathOnly = q === -1 ? target : target.slice(0, q);
    return pathOnly.startsWith(this.apiPath) ? pathOnly.slice(this.apiPath.length) || "/" : pathOnly;
  }
}
