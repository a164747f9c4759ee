import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Dispatcher } from "undici";
import { normalizeBaseUrl, openAgent, type Connection, type Transport } from "./connection";
import { exchange, type Dispatch, type DispatchOptions } from "./exchange";
import { RateLimitPacer } from "./pacer";
import { pacingInterceptor } from "./pacing-interceptor";
import { MAX_PAGES, PER_PAGE, nextPageUrl } from "./pagination";
import { redirectInterceptor } from "./redirect-interceptor";
import { interpret, type ForgeResponse } from "./response";
import { resolveRetryPolicy, type RetryPolicy, type RetryWait } from "./retry";
import { retryInterceptor, type RetryRequestOptions } from "./retry-interceptor";
import type { Endpoint, HttpMethod, RouteParams } from "./route";
import { ForgeTarget, type Prepared } from "./target";
import { USER_AGENT } from "./version";
import { httpTime } from "./http-time";
import { observeForgeDate } from "./forge-clock";

/** Redirects (301 of a moved project) a GET follows before the 301 is reported as an error. */
export const MAX_REDIRECTS = 5;

/** One page of a listing ({@link ForgeClient.pages}); `last` when the forge says no page follows. */
export interface ListingPage<T> {
  items: T[];
  last: boolean;
}

/** Options of {@link ForgeClient.list}. */
export interface ListOptions {
  /** Keyset pagination in this ordering, where the listing serves it (the API's pagination rules). */
  keyset?: { orderBy: string; sort: "asc" | "desc" };
}

/** Per-request timeout (response headers, then each stall of the body) unless the client sets one. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Options of {@link ForgeClient.request}. */
export interface RequestOptions {
  /** Statuses taken as success besides 2xx (e.g. 304 for label subscribe). */
  acceptStatuses?: number[];
  /** Send as multipart/form-data (any Buffer/Blob param also implies it). */
  multipart?: boolean;
}

/** Options of the {@link ForgeClient} constructor. */
interface ForgeClientOptions {
  /** The forge's address without /api/v4 (a trailing /api/v4 or slash is removed). */
  baseUrl: string;
  /** Access token sent in `PRIVATE-TOKEN`; omit for anonymous calls. */
  token?: string;
  /** Per-request timeout in milliseconds (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Retry policy (default: backoff with jitter for up to 60 s, or the transport's `retryBudgetMs`). */
  retry?: RetryPolicy;
  /** Told of each wait before a retry, with the request it is for (the provider logs it). */
  onRetryWait?: RetryWaitListener;
  /** CA bundle, client certificate, insecure switch, proxies; `timeoutMs` here is used when the option above is not given. */
  transport?: Transport;
}

/** See {@link ForgeClientOptions.onRetryWait}. */
export type RetryWaitListener = (wait: RetryWait & { method: HttpMethod; path: string }) => void;

/**
 * What the clients of one forge and token share: the keep-alive dispatcher (connection.ts) and
 * the pacer (the rate limit is the token's, so one count of it).
 */
interface SharedDispatcher {
  agent: Dispatcher;
  pacer: RateLimitPacer;
}

/**
 * HTTP client for the forge's REST API (`<baseUrl>/api/v4`): the placement rule for parameters,
 * then one dispatch through undici layers composed over one keep-alive Agent —
 * redirects (redirect-interceptor.ts) over retries (retry-interceptor.ts) over the rate-limit
 * pacer (pacing-interceptor.ts) — then the answer or a typed error (response.ts).
 */
export class ForgeClient {
  /** Normalized base URL (no trailing slash, no /api/v4). */
  readonly baseUrl: string;
  readonly #token: string | undefined;
  readonly #target: ForgeTarget;
  readonly #timeoutMs: number;
  readonly #retryBudgetMs: number;
  readonly #headers: Record<string, string>;
  readonly #shared: SharedDispatcher;
  readonly #dispatch: Dispatch;

  /**
   * @param shared - The connection and pacer to use (clientFor); without it the client opens its own.
   * @throws ForgeConfigError when the base URL is not a usable http(s) URL.
   */
  constructor(options: ForgeClientOptions, shared?: SharedDispatcher) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#target = new ForgeTarget(this.baseUrl);
    this.#token = options.token || undefined;
    const transport = options.transport ?? {};
    this.#timeoutMs = options.timeoutMs ?? transport.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const policy = resolveRetryPolicy({
      ...(transport.retryBudgetMs !== undefined ? { maxTotalMs: transport.retryBudgetMs } : {}),
      ...options.retry,
    });
    this.#retryBudgetMs = policy.maxTotalMs;
    this.#headers = { "user-agent": USER_AGENT, accept: "application/json", ...(this.#token ? { "private-token": this.#token } : {}) };
    this.#shared = shared ?? { agent: openAgent(this.baseUrl, transport), pacer: new RateLimitPacer() };
    const listener = options.onRetryWait;
    const target = this.#target;
    // compose() puts the first interceptor next to the Agent: every attempt is paced, every hop retried.
    const dispatcher = this.#shared.agent.compose(
      pacingInterceptor(this.#shared.pacer),
      retryInterceptor({
        policy,
        ...(listener
          ? {
              onWait: (wait: RetryWait, request: { method: HttpMethod; path: string }) =>
                listener({ ...wait, method: request.method, path: target.displayPath(request.path) }),
            }
          : {}),
      }),
      redirectInterceptor({ target, maxRedirects: MAX_REDIRECTS }),
    );
    this.#dispatch = (dispatchOptions, handler) => dispatcher.dispatch(dispatchOptions, handler);
  }

  /** Placement rule: `:name` segments of the template come from params (URL-encoded, removed
   *  from params); the rest goes to the query for GET/DELETE and to a JSON body otherwise.
   *  Params are wire names (snake_case); undefined values are dropped. The route is an entry of
   *  the route table (`routes.groups.get`, api/routes.ts), whose path parameters `params` must
   *  hold; the form with a method and a path is the low-level one, for the client's own tests.
   *
   *  @throws ForgeApiError for a non-2xx status not in `acceptStatuses` (after retries),
   *  ForgeNetworkError when no answer came, Error for a missing path parameter (nothing is sent). */
  request<T = unknown, E extends Endpoint = Endpoint>(
    route: E,
    params?: RouteParams<E>,
    options?: RequestOptions,
  ): Promise<ForgeResponse<T>>;
  request<T = unknown>(
    method: HttpMethod,
    pathTemplate: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<ForgeResponse<T>>;
  async request<T = unknown>(
    ...args: [Endpoint, Record<string, unknown>?, RequestOptions?] | [HttpMethod, string, Record<string, unknown>?, RequestOptions?]
  ): Promise<ForgeResponse<T>> {
    const [method, pathTemplate, params, options = {}] =
      typeof args[0] === "object"
        ? [args[0].method, args[0].path, args[1] as Record<string, unknown> | undefined, args[2] as RequestOptions | undefined]
        : (args as [HttpMethod, string, Record<string, unknown>?, RequestOptions?]);
    return this.#execute<T>(this.#target.prepare(method, pathTemplate, params, options.multipart), options);
  }

  /** Every element of a paginated listing: per_page=100, then Link rel="next" verbatim.
   *  A listing without pagination headers is the one page. With `keyset`, the first request asks
   *  for keyset pagination in that ordering (listings that can be long: groups, projects, users),
   *  so that deep pages cost the forge nothing and no offset limit applies. */
  list<T = unknown, E extends Endpoint<"GET"> = Endpoint<"GET">>(route: E, params?: RouteParams<E>, options?: ListOptions): Promise<T[]>;
  list<T = unknown>(pathTemplate: string, params?: Record<string, unknown>, options?: ListOptions): Promise<T[]>;
  async list<T = unknown>(route: Endpoint<"GET"> | string, params: Record<string, unknown> = {}, options: ListOptions = {}): Promise<T[]> {
    return this.#listPages<T>(route, params, options, MAX_PAGES);
  }

  async #listPages<T>(
    route: Endpoint<"GET"> | string,
    params: Record<string, unknown>,
    options: ListOptions,
    maxPages: number,
  ): Promise<T[]> {
    const items: T[] = [];
    for await (const { items: page, last } of this.#pages<T>(route, params, options, maxPages)) {
      items.push(...page);
      if (last) return items;
    }
    return items;
  }

  /**
   * A listing a page at a time, for a caller that reads on only while it needs to (reads that
   * share a parent's listing, engine/shared-listings.ts): each step sends one request.
   */
  pages<T = unknown>(route: Endpoint<"GET">, params: Record<string, unknown>): AsyncGenerator<ListingPage<T>, void, undefined> {
    return this.#pages<T>(route, params, {}, MAX_PAGES);
  }

  async *#pages<T>(
    route: Endpoint<"GET"> | string,
    params: Record<string, unknown>,
    options: ListOptions,
    maxPages: number,
  ): AsyncGenerator<ListingPage<T> & { number: number }, void, undefined> {
    const pathTemplate = typeof route === "string" ? route : route.path;
    const keyset = options.keyset ? { pagination: "keyset", order_by: options.keyset.orderBy, sort: options.keyset.sort } : {};
    const first = this.#target.prepare("GET", pathTemplate, { ...params, ...keyset, per_page: params["per_page"] ?? PER_PAGE });
    const seen = new Set<string>();
    let current: Prepared = first;
    for (let page = 1; ; page++) {
      const response = await this.#execute<unknown>(current, {});
      if (!Array.isArray(response.body)) {
        throw new Error(`GET ${current.displayPath} did not return a list (page ${page})`);
      }
      const next = nextPageUrl(response.headers["link"], this.#target.origin + current.target);
      yield { items: response.body as T[], last: next === undefined, number: page };
      if (next === undefined) return;
      if (page >= maxPages || seen.has(next)) {
        throw new Error(`GET ${first.displayPath}: pagination did not end after ${page} pages; stopping to avoid a loop`);
      }
      seen.add(next);
      current = this.#target.fromUrl(next, first.displayPath, "next-page link");
    }
  }

  /** Closes the connections once pending requests are done (for a client of clientFor, those of every client sharing them). */
  async close(): Promise<void> {
    forget(this.#shared);
    await this.#shared.agent.close();
  }

  async #execute<T>(prepared: Prepared, options: RequestOptions): Promise<ForgeResponse<T>> {
    const total = httpTime.getStore();
    const started = total ? performance.now() : 0;
    const sent = Date.now();
    try {
      const response = await this.#exchange<T>(prepared, options);
      observeForgeDate(this.baseUrl, response.headers["date"], sent, Date.now());
      return response;
    } finally {
      if (total) total.ms += performance.now() - started;
    }
  }

  async #exchange<T>(prepared: Prepared, options: RequestOptions): Promise<ForgeResponse<T>> {
    const { method, target, body, contentType } = prepared;
    const forgeRetry: RetryRequestOptions = options.acceptStatuses ? { acceptStatuses: options.acceptStatuses } : {};
    const result = await exchange(this.#dispatch, {
      origin: this.#target.origin,
      path: target,
      method,
      headers: contentType ? { ...this.#headers, "content-type": contentType } : this.#headers,
      body: body ?? null,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      forgeRetry,
    } as DispatchOptions);
    // undici hands an HTTP/1.1 socket back to its pool one event-loop turn after the response
    // ends (client-h1.js, onMessageComplete); without this yield, back-to-back calls would find
    // it busy and open a second connection.
    await nextTurn();
    // After a redirect, messages name where the request ended up.
    const path = (result.context?.["movedTo"] as string | undefined) ?? target;
    return interpret<T>(result, {
      method,
      displayPath: path === target ? prepared.displayPath : this.#target.displayPath(path),
      url: this.#target.origin + path,
      baseUrl: this.baseUrl,
      ...(options.acceptStatuses ? { acceptStatuses: options.acceptStatuses } : {}),
      ...(this.#token ? { token: this.#token } : {}),
      timeoutMs: this.#timeoutMs,
      retryBudgetMs: this.#retryBudgetMs,
    });
  }
}

/** A shared dispatcher of clientFor, with its clients (one per retry-wait listener). */
interface CachedDispatcher extends SharedDispatcher {
  clients: Map<RetryWaitListener | undefined, ForgeClient>;
}

const dispatchers = new Map<string, CachedDispatcher>();
const MAX_CACHED = 16;

/** Short SHA-256 fingerprint of a token, safe to print or use as a key. */
export function tokenFingerprint(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 16);
}

/**
 * The shared client for a connection, so that a provider process reuses one keep-alive Agent
 * and one rate-limit pacer per (baseUrl, token, transport settings). Keys hold a hash of the
 * token, never the token. Only that shared dispatcher is cached by settings; the client's own layers are
 * cheap, so clients differing in their retry-wait listener are distinct clients over the same
 * dispatcher (the same call returns the same client).
 */
export function clientFor(connection: Connection, onRetryWait?: RetryWaitListener): ForgeClient {
  const baseUrl = normalizeBaseUrl(connection.baseUrl);
  const transport = connection.transport ?? {};
  // Every setting is part of the key (a CA bundle, proxy, timeout or retry budget changed in
  // config makes a new shared dispatcher); hashed, the key holds no secret.
  const key = `${baseUrl} ${tokenFingerprint(connection.token)} ${tokenFingerprint(JSON.stringify(transport))}`;
  const shared = remember(dispatchers, key, () => ({
    agent: openAgent(baseUrl, transport),
    pacer: new RateLimitPacer(),
    clients: new Map(),
  }));
  return remember(
    shared.clients,
    onRetryWait,
    () =>
      new ForgeClient(
        {
          baseUrl,
          token: connection.token,
          ...(connection.transport ? { transport: connection.transport } : {}),
          ...(onRetryWait ? { onRetryWait } : {}),
        },
        shared,
      ),
  );
}

/** Closes and forgets every client made by {@link clientFor} (tests, or a clean shutdown). */
export async function closeClients(): Promise<void> {
  const all = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.all(all.map((shared) => shared.agent.close()));
}

/** The cached value for `key`, made on a miss; the oldest entry goes beyond {@link MAX_CACHED}. */
function remember<K, V>(cache: Map<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= MAX_CACHED) {
      // Evicted entries are not closed: a caller may still hold one; idle sockets expire on their own.
      const oldest = cache.keys().next().value as K;
      cache.delete(oldest);
    }
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** Drops a closed shared dispatcher from the cache, so that clientFor opens a new one. */
function forget(shared: SharedDispatcher): void {
  for (const [key, cached] of dispatchers) if (cached === shared) dispatchers.delete(key);
}
