/**
 * What a request came to, in the client's terms: the parsed answer, or a typed error. One step
 * after the layers (retry, redirects) are done: an HTML page is a {@link ForgeNotApiError}, a
 * status that is neither 2xx nor accepted a {@link ForgeApiError}, no answer a
 * {@link ForgeNetworkError} with what to do about it (either marked `answerLost` when a POST or
 * PATCH may have been acted on); errors of the layers themselves (a refused redirect) are the
 * request's as they are.
 */
import { PEM_HINT, TRANSPORT_SETTINGS } from "./connection";
import { ForgeApiError, ForgeNetworkError, ForgeNotApiError } from "./errors";
import type { Exchange } from "./exchange";
import type { RetryReport } from "./retry-interceptor";
import { maskUrls, withoutQuery } from "../redaction";

/** A successful answer. */
export interface ForgeResponse<T = unknown> {
  /** HTTP status. */
  status: number;
  /** Response headers, names lower-cased, repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON, a Buffer for files (images, octet streams), text for other content types, undefined for an empty body (204, 304). */
  body: T;
}

/** The request, as messages name it. */
export interface RequestFacts {
  method: string;
  /** Path relative to /api/v4 without query. */
  displayPath: string;
  /** The full URL requested (its query is dropped from messages). */
  url: string;
  /** The configured base URL, for hints. */
  baseUrl: string;
  acceptStatuses?: readonly number[];
  /** Removed from every message. */
  token?: string;
  /** The per-request timeout, for a timeout's message. */
  timeoutMs: number;
  /** The retry budget, named when it ran out. */
  retryBudgetMs: number;
}

/** The answer of a finished exchange, or the error it amounts to. */
export function interpret<T>(exchange: Exchange, facts: RequestFacts): ForgeResponse<T> {
  const { method, displayPath, url, token } = facts;
  const report = exchange.context?.["retry"] as RetryReport | undefined;
  const attempts = report?.attempts ?? 1;
  const gaveUp = {
    attempts,
    ...(report?.budgetSpent ? { retryBudgetMs: facts.retryBudgetMs } : {}),
    ...(token ? { token } : {}),
    ...(report?.answerLost ? { answerLost: true } : {}),
  };
  if ("error" in exchange) {
    const code = report?.failureCode;
    if (code === undefined) throw exchange.error;
    const error = new ForgeNetworkError({
      method,
      path: displayPath,
      code,
      timedOut: TIMEOUT_CODES.has(code),
      timeoutMs: facts.timeoutMs,
      cause: exchange.error,
      ...gaveUp,
    });
    throw withConnectionHint(error, facts.baseUrl, url);
  }
  const { status, headers } = exchange.answer;
  const body = parseBody(exchange.answer.body, headers["content-type"]);
  // A sign-in page, a proxy's or load balancer's error page: say so, with the URL, rather than
  // a puzzling parse or "not found" further on.
  if (/^text\/html\b/i.test(headers["content-type"] ?? "")) {
    throw new ForgeNotApiError({ method, url: withoutQuery(url), status, body, ...(token ? { token } : {}) });
  }
  const ok = (status >= 200 && status < 300) || (facts.acceptStatuses ?? []).includes(status);
  if (!ok) {
    throw new ForgeApiError({ method, path: displayPath, status, body: body instanceof InvalidJson ? body.text : body, ...gaveUp });
  }
  if (body instanceof InvalidJson) {
    throw new Error(`${method} ${displayPath} answered ${status} with a body that is not valid JSON`);
  }
  return { status, headers, body: body as T };
}

/** A body that claimed to be JSON but did not parse; kept as text for error messages. */
class InvalidJson {
  constructor(readonly text: string) {}
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
    hint = `the proxy did not connect to ${withoutQuery(url)}: check HTTPS_PROXY / HTTP_PROXY and NO_PROXY (or ${TRANSPORT_SETTINGS.httpsProxy.config}, ${TRANSPORT_SETTINGS.noProxy.config})`;
  } else if (error.code === "ECONNREFUSED" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
    hint = `nothing answers at ${baseUrl}: check the base URL`;
  }
  if (hint) error.message += `; ${maskUrls(hint)}`;
  return error;
}
