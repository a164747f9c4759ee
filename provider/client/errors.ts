import { STATUS_CODES } from "node:http";
import { redact } from "../redaction";

/** The status line's text of a code (`Not Found`). */
const statusText = (status: number): string | undefined => STATUS_CODES[status];

/** How to set the token; shared by configuration errors and 401 answers so users see one wording. */
export const TOKEN_HINT = "set the FORGE_TOKEN environment variable, or run `pulumi config set --secret forge:token <token>`";

/** How to set the base URL (the forge's address, without /api/v4). */
export const BASE_URL_HINT =
  "set the FORGE_BASE_URL environment variable, or run `pulumi config set forge:baseUrl https://forge.example.com`";

/** The connection to the forge is missing or malformed; the message names both ways to set it. */
export class ForgeConfigError extends Error {
  override name = "ForgeConfigError";
}

/** What {@link ForgeApiError} is built from. */
export interface ForgeApiErrorInit {
  /** HTTP method of the failed request. */
  method: string;
  /** Filled path relative to /api/v4, without the query string. */
  path: string;
  /** HTTP status of the answer. */
  status: number;
  /** Parsed body of the answer (JSON value, text or undefined). */
  body: unknown;
  /** How many attempts were made; mentioned in the message when more than one. */
  attempts?: number;
  /** Set when the retries stopped because the retry budget (ms) was spent: the message names it. */
  retryBudgetMs?: number;
  /** Removed from every message, should the server echo it. */
  token?: string;
  /** The request may have been acted on and its answer was lost (a POST or PATCH answered
   *  502/503/504, or whose connection dropped): the client did not send it again. */
  answerLost?: boolean;
}

/**
 * The forge answered with a status that is neither 2xx nor accepted by the caller.
 * The message reads `GET /groups/acme%2Fplatform/labels/7 failed: 404 404 Label Not Found`.
 */
export class ForgeApiError extends Error {
  override name = "ForgeApiError";
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Filled path relative to /api/v4, without the query string (never the token). */
  readonly path: string;
  /** HTTP status of the answer. */
  readonly status: number;
  /** The server's message, extracted from whichever error body shape it used. */
  readonly serverMessage: string;
  /** Parsed body of the answer. */
  readonly body: unknown;
  /** How many attempts were made before giving up. */
  readonly attempts: number;
  /** See {@link ForgeApiErrorInit.answerLost}. */
  readonly answerLost: boolean;

  constructor(init: ForgeApiErrorInit) {
    const serverMessage = redact(extractServerMessage(init.body, init.status), [init.token]);
    const attempts = init.attempts ?? 1;
    // The service often starts its message with the status ("404 Label Not Found"): say it once.
    const reason = serverMessage.startsWith(`${init.status} `) ? serverMessage : `${init.status} ${serverMessage}`;
    let message = `${init.method} ${init.path} failed: ${reason}`;
    message += gaveUp(attempts, init.retryBudgetMs);
    if (init.answerLost) message += LOST;
    if (init.status === 401) message += `. Check the token: ${TOKEN_HINT}`;
    super(redact(message, [init.token]));
    this.method = init.method;
    this.path = redact(init.path, [init.token]);
    this.status = init.status;
    this.serverMessage = serverMessage;
    this.body = init.body;
    this.attempts = attempts;
    this.answerLost = init.answerLost === true;
  }
}

/** What {@link ForgeNetworkError} is built from. */
export interface ForgeNetworkErrorInit {
  /** HTTP method of the failed request. */
  method: string;
  /** Filled path relative to /api/v4, without the query string. */
  path: string;
  /** Error code (`ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`, ...) or `UNKNOWN`. */
  code: string;
  /** Whether the request ran out of time. */
  timedOut: boolean;
  /** The configured per-request timeout, for the message. */
  timeoutMs: number;
  /** The underlying error. */
  cause: unknown;
  /** How many attempts were made. */
  attempts?: number;
  /** Set when the retries stopped because the retry budget (ms) was spent: the message names it. */
  retryBudgetMs?: number;
  /** Removed from every message. */
  token?: string;
  /** The request may have been acted on and its answer was lost (a POST or PATCH answered
   *  502/503/504, or whose connection dropped): the client did not send it again. */
  answerLost?: boolean;
}

/**
 * No HTTP answer was obtained: the connection failed, was dropped, or the request timed out.
 * The message says which request it was and, for a timeout, how long it waited.
 */
export class ForgeNetworkError extends Error {
  override name = "ForgeNetworkError";
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Filled path relative to /api/v4, without the query string. */
  readonly path: string;
  /** Error code of the underlying failure. */
  readonly code: string;
  /** Whether the request ran out of time. */
  readonly timedOut: boolean;
  /** How many attempts were made before giving up. */
  readonly attempts: number;
  /** See {@link ForgeNetworkErrorInit.answerLost}. */
  readonly answerLost: boolean;

  constructor(init: ForgeNetworkErrorInit) {
    const attempts = init.attempts ?? 1;
    const causeMessage = init.cause instanceof Error ? init.cause.message : String(init.cause);
    let message: string;
    if (init.code === "UND_ERR_HEADERS_TIMEOUT") {
      message = `${init.method} ${init.path} timed out: no response within ${init.timeoutMs} ms`;
    } else if (init.code === "UND_ERR_BODY_TIMEOUT") {
      message = `${init.method} ${init.path} timed out: the response body stalled for ${init.timeoutMs} ms`;
    } else {
      message = `${init.method} ${init.path} failed: ${init.code} (${causeMessage})`;
    }
    message += gaveUp(attempts, init.retryBudgetMs);
    if (init.answerLost) message += LOST;
    super(redact(message, [init.token]), { cause: init.cause });
    this.method = init.method;
    this.path = redact(init.path, [init.token]);
    this.code = init.code;
    this.timedOut = init.timedOut;
    this.attempts = attempts;
    this.answerLost = init.answerLost === true;
  }
}

/** What {@link ForgeNotApiError} is built from. */
export interface ForgeNotApiErrorInit {
  method: string;
  /** The full URL requested, without its query string. */
  url: string;
  status: number;
  /** The page's text. */
  body: unknown;
  /** Removed from every message. */
  token?: string;
}

/**
 * The answer was an HTML page, not the API: a sign-in page (the base URL points at the web
 * interface, or single sign-on sits in front of the API), or a proxy's or load balancer's
 * error page. The message names the URL and the page's title.
 */
export class ForgeNotApiError extends Error {
  override name = "ForgeNotApiError";
  /** The full URL requested, without its query string. */
  readonly url: string;
  /** HTTP status of the page. */
  readonly status: number;

  constructor(init: ForgeNotApiErrorInit) {
    const title = typeof init.body === "string" ? extractServerMessage(init.body, init.status) : (statusText(init.status) ?? "");
    super(
      redact(
        `${init.method} ${init.url} answered ${init.status} with an HTML page ("${title}"), not the forge's API: ` +
          "check the base URL (the forge's address, with or without /api/v4) and any proxy, load balancer or sign-on page in front of it",
        [init.token],
      ),
    );
    this.url = redact(init.url, [init.token]);
    this.status = init.status;
  }
}

/** True when `error` is a {@link ForgeApiError} with status 404 (the object does not exist or is hidden). */
export function isNotFound(error: unknown): boolean {
  if (error instanceof ForgeApiError) return error.status === 404;
  // Tolerate a second copy of this module (e.g. dist and sources both loaded).
  return isRecord(error) && error["name"] === "ForgeApiError" && error["status"] === 404;
}

const MAX_TEXT = 300;

/**
 * The server's message from any error body shape the forge uses: `{"message": string}`,
 * `{"message": {"field": ["msg"]}}` (rendered `field msg; field2 msg2`), `{"message": [..]}`,
 * `{"error": string}`, `{"error": "invalid_token", "error_description": ...}` or plain text.
 * Falls back to the HTTP reason phrase for an empty body.
 */
export function extractServerMessage(body: unknown, status: number): string {
  let value = body;
  if (typeof value === "string") {
    const text = value.trim();
    if (text.startsWith("{") || text.startsWith("[")) {
      try {
        value = JSON.parse(text);
      } catch {
        // Not JSON after all: keep the text.
      }
    }
  }
  let rendered = "";
  if (typeof value === "string") {
    rendered = plainText(value);
  } else if (Array.isArray(value)) {
    rendered = renderMessage(value);
  } else if (isRecord(value)) {
    if (value["message"] !== undefined && value["message"] !== null) {
      rendered = renderMessage(value["message"]);
    }
    if (!rendered && typeof value["error"] === "string") {
      const description = value["error_description"];
      rendered = typeof description === "string" && description ? `${value["error"]}: ${description}` : value["error"];
    }
  }
  return rendered || statusText(status) || `HTTP ${status}`;
}

function renderMessage(message: unknown): string {
  if (typeof message === "string") return message;
  if (typeof message === "number" || typeof message === "boolean") return String(message);
  if (Array.isArray(message)) return message.map(renderMessage).filter(Boolean).join("; ");
  if (isRecord(message)) {
    const parts: string[] = [];
    for (const [field, messages] of Object.entries(message)) {
      for (const one of Array.isArray(messages) ? messages : [messages]) {
        const text = renderMessage(one);
        // Rails puts errors about the whole record under "base"; a "base" prefix would read oddly.
        parts.push(field === "base" ? text : `${field} ${text}`);
      }
    }
    return parts.join("; ");
  }
  return "";
}

/** Plain-text bodies: proxies answer with HTML pages, so strip tags and keep it short. */
function plainText(text: string): string {
  let result = text;
  if (/^\s*</.test(result)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(result);
    result = title?.[1] ?? result.replace(/<[^>]*>/g, " ");
  }
  result = result.replace(/\s+/g, " ").trim();
  return result.length > MAX_TEXT ? `${result.slice(0, MAX_TEXT)}…` : result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a message adds after retries: how many, and the budget when it ran out (and how to raise it). */
function gaveUp(attempts: number, retryBudgetMs: number | undefined): string {
  if (attempts <= 1) return "";
  if (retryBudgetMs === undefined) return ` (gave up after ${attempts} attempts)`;
  const seconds = Math.round(retryBudgetMs / 100) / 10;
  return ` (gave up after ${attempts} attempts: the retry budget of ${seconds} s is spent; raise it with stack config forge:retryBudgetMs or FORGE_RETRY_BUDGET_MS)`;
}

const LOST = " (its answer was lost: the forge may have done the work, so the request was not sent again)";

/** True when a write may have been acted on and its answer was lost: whether the forge did the
 *  work is unknown, and the client did not send it again (engine/recovery.ts decides for creates). */
export function isAnswerLost(error: unknown): error is ForgeApiError | ForgeNetworkError {
  return (error instanceof ForgeApiError || error instanceof ForgeNetworkError) && error.answerLost;
}
