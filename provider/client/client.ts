import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { rootCertificates } from "node:tls";
import { EnvHttpProxyAgent, type Dispatcher, type FormData } from "undici";
import { normalizeBaseUrl, TRANSPORT_SETTINGS, type Connection, type Transport } from "./connection";
import { placeParams } from "./encoding";
import type { HttpMethod } from "./route";
import { ForgeApiError, ForgeNetworkError, ForgeNotApiError } from "./errors";
import { MAX_PAGES, PER_PAGE, nextPageUrl } from "./pagination";
import { pacing, RateLimitPacer } from "./pacer";
import { resolveRetryPolicy, runWithRetry, type AttemptOutcome, type RetryPolicy, type RetryWait } from "./retry";
import { USER_AGENT } from "./version";

/** Redirects (301 of a moved project) a GET follows before the 301 is reported as an error. */
export const MAX_REDIRECTS = 5;

/** Options of {@link ForgeClient.list}. */
export interface ListOptions {
  /** Keyset pagination in this ordering, where the listing serves it (Document 1, Pagination). */
  keyset?: { orderBy: string; sort: "asc" | "desc" };
}

/** Requests in flight to one forge at once unless the transport sets `maxConnections`. */
export const DEFAULT_MAX_CONNECTIONS = 16;

/** Per-request timeout (response headers, then each stall of the body) unless the client sets one. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Options of {@link ForgeClient.request}. */
export interface RequestOptions {
  /** POST only: on an ambiguous failure (502/503/504, reset) called before a retry;
   *  an object it returns is taken as the result, so nothing is created twice. */
  findExisting?: () => Promise<unknown | undefined>;
  /** Statuses taken as success besides 2xx (e.g. 304 for label subscribe). */
  acceptStatuses?: number[];
  /** Send as multipart/form-data (any Buffer/Blob param also implies it). */
  multipart?: boolean;
}

/** A successful answer. */
export interface ForgeResponse<T = unknown> {
  /** HTTP status (200 when `findExisting` supplied the result). */
  status: number;
  /** Response headers, names lower-cased, repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON, a Buffer for files (images, octet streams), text for other content types, undefined for an empty body (204, 304). */
  body: T;
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

/** A body that claimed to be JSON but did not parse; kept as text for error messages. */
class InvalidJson {
  constructor(readonly text: string) {}
}

interface Prepared {
  method: HttpMethod;
  /** Path and query sent on the wire. */
  target: string;
  /** Path relative to /api/v4 without query, for messages. */
  displayPath: string;
  body?: string | FormData;
  contentType?: string;
}

/**
 * HTTP client for the forge's REST API (`<baseUrl>/api/v4`): one keep-alive undici Agent,
 * the placement rule for parameters, retries, timeouts and typed errors.
 */
export class ForgeClient {
  /** Normalized base URL (no trailing slash, no /api/v4). */
  readonly baseUrl: string;
  readonly #token: string | undefined;
  readonly #origin: string;
  readonly #apiPath: string;
  readonly #timeoutMs: number;
  readonly #policy: ReturnType<typeof resolveRetryPolicy>;
  readonly #agent: EnvHttpProxyAgent;
  /** The agent with the client's layers composed over it (undici interceptors): pacing. */
  readonly #dispatcher: Dispatcher;
  readonly #transport: Transport;
  readonly #onRetryWait: RetryWaitListener | undefined;

  /** @throws ForgeConfigError when the base URL is not a usable http(s) URL. */
  constructor(options: ForgeClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const url = new URL(this.baseUrl);
    this.#origin = url.origin;
    this.#apiPath = `${url.pathname.replace(/\/+$/, "")}/api/v4`;
    this.#token = options.token || undefined;
    this.#transport = options.transport ?? {};
    this.#timeoutMs = options.timeoutMs ?? this.#transport.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#policy = resolveRetryPolicy({
      ...(this.#transport.retryBudgetMs !== undefined ? { maxTotalMs: this.#transport.retryBudgetMs } : {}),
      ...options.retry,
    });
    this.#onRetryWait = options.onRetryWait;
    if (this.#transport.insecure && url.protocol === "https:") warnInsecure(this.baseUrl);
    const tls = tlsOptions(this.#transport);
    // EnvHttpProxyAgent is a plain Agent unless a proxy is set (options, or HTTP_PROXY /
    // HTTPS_PROXY), and honours NO_PROXY. The TLS options go to the forge, directly or through
    // the tunnel, and to an https:// proxy (often behind the same private CA).
    this.#agent = new EnvHttpProxyAgent({
      ...pick(this.#transport, ["httpProxy", "httpsProxy", "noProxy"]),
      connect: tls,
      requestTls: tls,
      proxyTls: tls,
      // Reuse connections across the many small calls of a deployment. The server's own
      // keep-alive hint wins when shorter; idle sockets are unref'd and do not hold the process.
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      // The per-host concurrency cap: Pulumi runs many operations at once, and more sockets would
      // only draw rate limits; requests beyond it wait in undici's queue.
      connections: this.#transport.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
    // Every request waits for the rate-limit window before it leaves (retries and pages too).
    this.#dispatcher = this.#agent.compose(pacing(new RateLimitPacer()));
  }

  /** Placement rule: `:name` segments of the template come from params (URL-encoded, removed
   *  from params); the rest goes to the query for GET/DELETE and to a JSON body otherwise.
   *  Params are wire names (snake_case); undefined values are dropped.
   *
   *  @throws ForgeApiError for a non-2xx status not in `acceptStatuses` (after retries),
   *  ForgeNetworkError when no answer came, Error for a missing path parameter (nothing is sent). */
  async request<T = unknown>(
    method: HttpMethod,
    pathTemplate: string,
    params?: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<ForgeResponse<T>> {
    return this.#execute<T>(this.#prepare(method, pathTemplate, params, options.multipart), options);
  }

  /** Every element of a paginated listing: per_page=100, then Link rel="next" verbatim.
   *  A listing without pagination headers is the one page. With `keyset`, the first request asks
   *  for keyset pagination in that ordering (listings that can be long: groups, projects, users),
   *  so that deep pages cost the forge nothing and no offset limit applies. */
  async list<T = unknown>(pathTemplate: string, params: Record<string, unknown> = {}, options: ListOptions = {}): Promise<T[]> {
    const keyset = options.keyset ? { pagination: "keyset", order_by: options.keyset.orderBy, sort: options.keyset.sort } : {};
    const first = this.#prepare("GET", pathTemplate, { ...params, ...keyset, per_page: params["per_page"] ?? PER_PAGE });
    const items: T[] = [];
    const seen = new Set<string>();
    let current: Prepared = first;
    for (let page = 1; ; page++) {
      const response = await this.#execute<unknown>(current, {});
      if (!Array.isArray(response.body)) {
        throw new Error(`GET ${current.displayPath} did not return a list (page ${page})`);
      }
      items.push(...(response.body as T[]));
      const next = nextPageUrl(response.headers["link"], this.#origin + current.target);
      if (next === undefined) return items;
      if (page >= MAX_PAGES || seen.has(next)) {
        throw new Error(`GET ${first.displayPath}: pagination did not end after ${page} pages; stopping to avoid a loop`);
      }
      seen.add(next);
      current = this.#fromUrl(next, first.displayPath, "next-page link");
    }
  }

  /** Closes the connections once pending requests are done. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  #prepare(method: HttpMethod, pathTemplate: string, params?: Record<string, unknown>, multipart?: boolean): Prepared {
    const placed = placeParams(method, pathTemplate, params, multipart);
    return {
      method,
      target: this.#apiPath + placed.path + (placed.query ? `?${placed.query}` : ""),
      displayPath: placed.path,
      ...(placed.body !== undefined ? { body: placed.body } : {}),
      ...(placed.contentType !== undefined ? { contentType: placed.contentType } : {}),
    };
  }

  /** A next-page or redirect URL, used verbatim: only its origin is split off, its path and query are sent as they are. */
  #fromUrl(url: string, listingPath: string, what: string): Prepared {
    const match = /^(https?:\/\/[^/?#]+)([^#]*)/i.exec(url);
    const origin = match?.[1] ? new URL(match[1]).origin : undefined;
    if (!match || origin !== this.#origin) {
      // The token must only go to the configured forge; a different origin usually means the
      // forge's external URL setting disagrees with the base URL in use.
      throw new Error(
        `GET ${listingPath}: the ${what} points to ${origin ?? "an unparsable URL"}, not ${this.#origin}; ` +
          "refusing to send the token there (check the forge's external URL setting)",
      );
    }
    const rest = match[2] ?? "";
    const target = rest.startsWith("/") ? rest : `/${rest}`;
    const pathOnly = target.split("?")[0] ?? target;
    const displayPath = pathOnly.startsWith(this.#apiPath) ? pathOnly.slice(this.#apiPath.length) || "/" : pathOnly;
    return { method: "GET", target, displayPath };
  }

  /**
   * One request through the layers: the attempt (over the paced dispatcher), retries under the
   * policy (retry.ts), then the answer read: a redirect of a GET followed, a page that is not the
   * API's refused, a status mapped to success or a typed error.
   */
  async #execute<T>(prepared: Prepared, options: RequestOptions, redirects = 0): Promise<ForgeResponse<T>> {
    const { method, displayPath } = prepared;
    const { outcome, attempts, budgetSpent } = await runWithRetry({
      method,
      send: () => this.#attempt(prepared),
      policy: this.#policy,
      ...(options.acceptStatuses ? { acceptStatuses: options.acceptStatuses } : {}),
      ...(options.findExisting ? { findExisting: options.findExisting } : {}),
      ...(this.#onRetryWait ? { onWait: (wait: RetryWait) => this.#onRetryWait?.({ ...wait, method, path: displayPath }) } : {}),
    });
    const failure = { attempts, ...(budgetSpent ? { retryBudgetMs: this.#policy.maxTotalMs } : {}), ...(this.#token ? { token: this.#token } : {}) };
    if ("failure" in outcome) throw this.#networkError(prepared, outcome.failure, failure);
    const moved = this.#redirect(prepared, outcome.response, redirects);
    if (moved) return this.#execute<T>(moved, options, redirects + 1);
    return answer<T>(prepared, this.#origin, outcome.response, options.acceptStatuses ?? [], failure);
  }

  /** One attempt: the request and its whole body, or why no answer came. */
  async #attempt({ method, target, body, contentType }: Prepared): Promise<AttemptOutcome> {
    const headers: Record<string, string> = { "user-agent": USER_AGENT, accept: "application/json" };
    if (this.#token) headers["private-token"] = this.#token;
    if (contentType) headers["content-type"] = contentType;
    try {
      const response = await this.#dispatcher.request({ origin: this.#origin, path: target, method, headers, body: body ?? null });
      const responseHeaders = flattenHeaders(response.headers);
      const raw = Buffer.from(await response.body.arrayBuffer());
      // undici hands an HTTP/1.1 socket back to its pool one event-loop turn after the response
      // ends (client-h1.js, onMessageComplete); without this yield, back-to-back calls would find
      // it busy and open a second connection.
      await nextTurn();
      return { response: { status: response.statusCode, headers: responseHeaders, body: parseBody(raw, responseHeaders["content-type"]) } };
    } catch (error) {
      return { failure: { code: errorCode(error), error } };
    }
  }

  /**
   * A moved project answers GET with 301 and its new address: it is read there (same forge only,
   * a few hops at most). Other methods get 405 from the forge and fail as errors. Not undici's
   * redirect interceptor: it follows redirects to other origins (stripping only the headers it
   * is told of), where this client refuses to send the token at all.
   */
  #redirect(prepared: Prepared, response: { status: number; headers: Record<string, string> }, redirects: number): Prepared | undefined {
    const location = response.headers["location"];
    if (response.status !== 301 || prepared.method !== "GET" || !location || redirects >= MAX_REDIRECTS) return undefined;
    const moved = new URL(location, this.#origin + prepared.target).href;
    return this.#fromUrl(moved, prepared.displayPath, "redirect");
  }

  #networkError(prepared: Prepared, { code, error }: { code: string; error: unknown }, failure: FailureContext): ForgeNetworkError {
    const url = this.#origin + prepared.target;
    return withConnectionHint(
      new ForgeNetworkError({ method: prepared.method, path: prepared.displayPath, code, timedOut: TIMEOUT_CODES.has(code), timeoutMs: this.#timeoutMs, cause: error, ...failure }),
      this.baseUrl,
      url,
    );
  }
}

/** What an error reports of the attempts behind it (and the token, to keep it out of messages). */
interface FailureContext {
  attempts: number;
  retryBudgetMs?: number;
  token?: string;
}

/**
 * An answer as the caller gets it: a sign-in page, a proxy's or load balancer's error page is
 * said to be one (with the URL) rather than parsed into a puzzle; a status outside 2xx and the
 * accepted ones is a {@link ForgeApiError}; a JSON body that does not parse is an error.
 */
function answer<T>(
  { method, target, displayPath }: Prepared,
  origin: string,
  { status, headers, body }: { status: number; headers: Record<string, string>; body: unknown },
  acceptStatuses: number[],
  failure: FailureContext,
): ForgeResponse<T> {
  if (/^text\/html\b/i.test(headers["content-type"] ?? "")) {
    throw new ForgeNotApiError({ method, url: redactQuery(origin + target), status, body, ...(failure.token ? { token: failure.token } : {}) });
  }
  const ok = (status >= 200 && status < 300) || acceptStatuses.includes(status);
  if (!ok) throw new ForgeApiError({ method, path: displayPath, status, body: body instanceof InvalidJson ? body.text : body, ...failure });
  if (body instanceof InvalidJson) throw new Error(`${method} ${displayPath} answered ${status} with a body that is not valid JSON`);
  return { status, headers, body: body as T };
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** Codes of a certificate Node does not trust, for which a CA bundle is the fix. */
const UNTRUSTED_CERTIFICATE_CODES = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_GET_ISSUER_CERT",
  "CERT_UNTRUSTED",
]);

const PEM_HINT = `set ${TRANSPORT_SETTINGS.ca.env} or \`pulumi config set ${TRANSPORT_SETTINGS.ca.config} <file>\` to your CA's PEM bundle`;

/** Adds what to do to a network error whose cause users can fix in the connection settings. */
function withConnectionHint(error: ForgeNetworkError, baseUrl: string, url: string): ForgeNetworkError {
  let hint: string | undefined;
  if (UNTRUSTED_CERTIFICATE_CODES.has(error.code)) {
    hint = `the forge at ${baseUrl} presents a certificate this machine does not trust: ${PEM_HINT}`;
  } else if (error.code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    hint = `the certificate of ${baseUrl} is for another host name: check the base URL`;
  } else if (error.code === "CERT_HAS_EXPIRED") {
    hint = `the certificate of ${baseUrl} has expired`;
  } else if (/proxy/i.test(error.message)) {
    hint = `the proxy did not connect to ${redactQuery(url)}: check HTTPS_PROXY / HTTP_PROXY and NO_PROXY (or ${TRANSPORT_SETTINGS.httpsProxy.config}, ${TRANSPORT_SETTINGS.noProxy.config})`;
  } else if (error.code === "ECONNREFUSED" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
    hint = `nothing answers at ${baseUrl}: check the base URL`;
  }
  if (hint) error.message += `; ${hint}`;
  return error;
}

/** TLS options for undici's connector: extra trusted CAs on top of Node's roots, a client certificate, the insecure switch. */
function tlsOptions(transport: Transport): Record<string, unknown> {
  return {
    ...(transport.ca ? { ca: [...rootCertificates, transport.ca] } : {}),
    ...(transport.cert ? { cert: transport.cert } : {}),
    ...(transport.key ? { key: transport.key } : {}),
    ...(transport.insecure ? { rejectUnauthorized: false } : {}),
  };
}

const warnedInsecure = new Set<string>();

/** Once per forge and process, on stderr (a diagnostic under Pulumi): the switch must never go unnoticed. */
function warnInsecure(baseUrl: string): void {
  if (warnedInsecure.has(baseUrl)) return;
  warnedInsecure.add(baseUrl);
  console.warn(
    `WARNING: TLS certificate verification is OFF for ${baseUrl} (${TRANSPORT_SETTINGS.insecure.env} / ${TRANSPORT_SETTINGS.insecure.config}). ` +
      `Anyone between this machine and the forge can read the token and change answers. Trust the forge's CA instead: ${PEM_HINT}.`,
  );
}

/** A URL for messages: no query string (it may carry tokens in next-page links). */
function redactQuery(url: string): string {
  return url.split("?")[0] ?? url;
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Partial<Pick<T, K>>;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** JSON, text, or for a file (an image, any other binary type) its bytes. */
function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (contentType && isBinaryType(contentType)) return raw;
  const text = raw.toString("utf8");
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return new InvalidJson(text);
    }
  }
  return text;
}

function isBinaryType(contentType: string): boolean {
  return /^(image|audio|video)\//i.test(contentType) || /^application\/(octet-stream|zip|gzip|pdf)\b/i.test(contentType);
}

function errorCode(error: unknown): string {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return "UNKNOWN";
}

const clients = new Map<string, ForgeClient>();
const listeners = new WeakMap<RetryWaitListener, number>();
let listenersSeen = 0;

/** A number per retry-wait listener (0: none), for the cache key. */
function listenerId(listener: RetryWaitListener | undefined): number {
  if (!listener) return 0;
  let id = listeners.get(listener);
  if (id === undefined) {
    id = ++listenersSeen;
    listeners.set(listener, id);
  }
  return id;
}
const MAX_CACHED_CLIENTS = 16;

/** Short SHA-256 fingerprint of a token, safe to print or use as a key. */
export function tokenFingerprint(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 16);
}

/**
 * The shared client for a connection, so that a provider process reuses one client (and its
 * connections) per (baseUrl, token) pair. Keys hold a hash of the token, never the token.
 */
export function clientFor(connection: Connection, onRetryWait?: RetryWaitListener): ForgeClient {
  const baseUrl = normalizeBaseUrl(connection.baseUrl);
  // Everything that changes the client's behaviour is part of the key: settings (a CA bundle or
  // proxy changed in config makes a new client; hashed, the key holds no secret) and the listener
  // told of retry waits (two callers with different listeners get their own clients).
  const key = `${baseUrl} ${tokenFingerprint(connection.token)} ${tokenFingerprint(JSON.stringify(connection.transport ?? {}))} ${listenerId(onRetryWait)}`;
  let client = clients.get(key);
  if (!client) {
    if (clients.size >= MAX_CACHED_CLIENTS) {
      // Evicted clients are not closed: a caller may still hold one; their idle sockets expire on their own.
      const oldest = clients.keys().next().value;
      if (oldest !== undefined) clients.delete(oldest);
    }
    client = new ForgeClient({
      baseUrl,
      token: connection.token,
      ...(connection.transport ? { transport: connection.transport } : {}),
      ...(onRetryWait ? { onRetryWait } : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** Closes and forgets every client made by {@link clientFor} (tests, or a clean shutdown). */
export async function closeClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((client) => client.close()));
}
