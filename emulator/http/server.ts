import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { TLSSocket } from "node:tls";
import { ADMIN_PREFIX, authorizeAdminRequest, handleAdminRequest } from "../admin/admin-routes";
import type { FaultInjector, FiredFault } from "../admin/faults";
import type { EmulatorContext } from "../context";
import { ApiError, ProjectMoved, routeNotFound, unauthorized } from "../core/errors";
import { auditParameters } from "../core/validation";
import type { Actor } from "../core/records";
import { routeTable, type StoreRoute } from "../registry";
import { headerToken, resolveActor } from "./auth";
import { parseUrlEncoded } from "./bracket-params";
import { paginate, paginateKeyset } from "./pagination";
import { MAX_ANONYMOUS_BODY_BYTES, MAX_BODY_BYTES } from "./param-limits";
import { parseBody, readBody } from "./request-body";
import { pathSegments, Router } from "./router";
import type { ApiResponse } from "./types";

/** The REST API's prefix; a route table entry with a `base` (GraphQL's `/api`) has its own. */
const API_PREFIX = "/api/v4";
/**
 * Parameters the HTTP layer reads itself on every route (pagination, credentials, `sudo`), and
 * `id`, which clients send beside the path's `:id` (the spec lists it among the parameters):
 * never reported as ignored.
 */
const HTTP_LAYER_PARAMETERS: ReadonlySet<string> = new Set([
  "page",
  "per_page",
  "pagination",
  "cursor",
  "id_after",
  "id_before",
  "private_token",
  "sudo",
  "id",
]);
const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Creates the server of the emulator (not yet listening): HTTPS with `tls`, HTTP otherwise. */
export function createEmulatorServer(context: EmulatorContext, tls?: { cert: string; key: string }): Server {
  const router = new Router<StoreRoute>();
  // Routes match the whole path: `/api/v4/groups/:group`, `/api/graphql`.
  router.addAll(routeTable().map((route) => ({ method: route.method, path: `${route.base ?? API_PREFIX}${route.path}`, handler: route })));
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handleRequest(context, router, request, response).catch((error: unknown) => {
      console.error("emulator: unhandled error", error);
      if (!response.headersSent) send(response, internalError());
      else response.destroy();
    });
  };
  return tls ? createTlsServer({ cert: tls.cert, key: tls.key }, listener) : createServer(listener);
}

async function handleRequest(
  context: EmulatorContext,
  router: Router<StoreRoute>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const method = (request.method ?? "GET").toUpperCase();
  // The forge's clock, which a test may have moved on (core/time.ts): clients measure the forge's
  // time from this header (forge-recover), so it tells the same time as the records' timestamps.
  response.setHeader("Date", context.store.clock.date().toUTCString());
  // The scheme matters for the links the emulator writes (next pages, moved projects).
  const scheme = (request.socket as TLSSocket).encrypted ? "https" : "http";
  let url: URL;
  try {
    url = new URL(request.url ?? "/", `${scheme}://${request.headers.host ?? "127.0.0.1"}`);
  } catch {
    request.resume();
    send(response, {
      status: 400,
      body: { message: "400 Bad request - the Host header or the request target is invalid" },
      headers: { Connection: "close" },
    });
    return;
  }
  const segments = pathSegments(url.pathname);
  const admin = `/${segments[0] ?? ""}` === ADMIN_PREFIX;
  // Who may not send a body is told so before it is read: an anonymous 20 MB form must not hold
  // the event loop for every other caller while it is parsed.
  const gate = admin
    ? { refusal: refuseAdmin(context, request, scheme), bodyLimit: MAX_BODY_BYTES }
    : gateBeforeBody(context, router, method, segments, request.headers, url);
  if (gate.refusal) {
    refuseUnread(request, response, gate.refusal);
    if (!admin) context.log.record({ method, path: url.pathname, query: {}, status: gate.refusal.status, user: null });
    return;
  }
  let raw: Buffer;
  try {
    raw = await readBody(request, gate.bodyLimit);
  } catch (error) {
    // Too large (413): answer, and close rather than read the rest. Anything else is an upload
    // the client broke off: nobody is left to answer.
    if (!(error instanceof ApiError)) {
      response.destroy();
      return;
    }
    send(response, { ...errorResponse(error), headers: { Connection: "close" } });
    return;
  }

  if (admin) {
    send(
      response,
      answer(() => {
        const body = parseBody(raw, request.headers["content-type"]);
        return handleAdminRequest(context, method, segments.slice(1).join("/"), parseUrlEncoded(url.search.slice(1)), body);
      }),
    );
    return;
  }
  if (segments[0] !== "api") {
    send(response, errorResponse(routeNotFound()));
    return;
  }

  // What faults match: the path below /api/v4 (below /api for GraphQL).
  const apiSegments = segments[1] === "v4" ? segments.slice(2) : segments.slice(1);
  let query: Record<string, unknown>;
  try {
    query = parseUrlEncoded(url.search.slice(1));
  } catch (error) {
    // A refused parameter name or size: nothing of the request is read further.
    const refused = answer(() => {
      throw error;
    });
    send(response, refused);
    context.log.record({ method, path: url.pathname, query: {}, status: refused.status, user: null });
    return;
  }
  // The service throttles before it does any work: a 429 costs it nothing.
  const throttle = context.rateLimit.take(callerKey(request, query));
  if (throttle?.limited) {
    send(response, {
      status: 429,
      body: "Retry later\n",
      headers: { ...throttle.headers, "Retry-After": String(throttle.retryAfterSeconds) },
    });
    context.log.record({ method, path: url.pathname, query, status: 429, user: null });
    return;
  }
  const fault = context.faults.take(method, `/${apiSegments.join("/")}`, query);
  if (fault && !fault.after) {
    const faultStatus = await applyFault(fault, context.faults, request, response, throttle?.headers);
    if (faultStatus !== undefined) {
      context.log.record({ method, path: url.pathname, query, status: faultStatus, user: null });
      return;
    }
  }

  // Filled in by the handler below once the token is resolved and the route found; read for the log afterwards.
  const caller: { actor: Actor; route: string | null; ignored: string[] } = { actor: null, route: null, ignored: [] };
  let result = answer(
    () => {
      const body = parseBody(raw, request.headers["content-type"]);
      // HEAD is GET without the body (Node leaves the body out of a HEAD answer).
      const match = router.match(method === "HEAD" ? "GET" : method, segments);
      if (!match) throw routeNotFound();
      const route = match.handler;
      caller.route = route.name;
      const { editions } = context.store;
      const input = { ...query, ...body };
      // The service authenticates first: a bad token is 401 even on a route the edition lacks.
      const actor = resolveActor(context.store.users, request.headers, input);
      caller.actor = actor;
      // The API's rule on reads without a token: only the reads it lists work without one.
      if (!actor && !route.anonymous) throw unauthorized();
      if (route.availability) editions.requireOffering(route.availability);
      if (route.availability) editions.requireTier(route.availability, actor);
      const known = (name: string) => HTTP_LAYER_PARAMETERS.has(name) || Object.hasOwn(match.params, name);
      const audited = auditParameters(input, known, () => route.handler({ params: match.params, input, actor }, context.store));
      caller.ignored = audited.ignored;
      if ("error" in audited.outcome) throw audited.outcome.error;
      const answer = audited.outcome.value;
      if (!answer.paged) return { status: answer.status, body: answer.body, ...(answer.headers ? { headers: answer.headers } : {}) };
      const items = answer.body as unknown[];
      return answer.keyset && query.pagination === "keyset"
        ? paginateKeyset(url, query, items, answer.keyset)
        : paginate(url, query, items);
    },
    (moved) => movedAnswer(moved, method, url),
  );
  // A state file that cannot be written undoes the change (persist puts the state back) and
  // answers the error instead.
  if (MUTATING_METHODS.has(method)) {
    const handled = result;
    result = answer(() => {
      context.persist();
      return handled;
    });
  }
  const lostAnswer = fault?.after ? await applyFault(fault, context.faults, request, response) : undefined;
  if (lostAnswer === undefined) send(response, throttle ? { ...result, headers: { ...result.headers, ...throttle.headers } } : result);
  const status = lostAnswer ?? result.status;
  context.log.record({
    method,
    path: url.pathname,
    query,
    status,
    user: caller.actor?.username ?? null,
    route: caller.route,
    ...(caller.ignored.length > 0 ? { ignored: caller.ignored } : {}),
  });
}

/**
 * The admin routes' gate (admin-routes.ts), with what the server itself is: the origins and host
 * names it answers to come from the socket it was reached on and its configured base URL, never
 * from the request's Host header (a DNS-rebinding page sends its own host name there).
 */
function refuseAdmin(context: EmulatorContext, request: IncomingMessage, scheme: string): ApiResponse | undefined {
  const port = request.socket.localPort;
  const names = ["127.0.0.1", "localhost", "[::1]"];
  // The address the connection came in on (a LAN address when bound to all interfaces); an IPv4
  // address may come mapped into IPv6 (`::ffff:10.0.0.5`), and an IPv6 host is written in brackets.
  const bound = request.socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, "");
  if (bound && bound !== "0.0.0.0" && bound !== "::") names.push(bound.includes(":") ? `[${bound}]` : bound);
  const hosts = names.map((name) => `${name}:${port}`);
  const base = new URL(context.store.baseUrl);
  hosts.push(base.host);
  const origins = [...hosts.map((host) => `${scheme}://${host}`), base.origin];
  return answerOrUndefined(() => authorizeAdminRequest(context, request.headers, { origins, hosts }));
}

/**
 * What an API request with a body may do, decided from its line and headers before the body is
 * read. Sent without a token the forge knows (in a header or the query): to a route that needs
 * one, or with an unknown token, 401; to no route, 404 (the answer whatever the body holds); to
 * an anonymous read, a body of at most MAX_ANONYMOUS_BODY_BYTES. A token inside a form body is
 * not looked at for this (the spec puts tokens in headers or the query); such a request counts
 * as anonymous.
 */
function gateBeforeBody(
  context: EmulatorContext,
  router: Router<StoreRoute>,
  method: string,
  segments: string[],
  headers: IncomingMessage["headers"],
  url: URL,
): { refusal?: ApiResponse; bodyLimit: number } {
  const unlimited = { bodyLimit: MAX_BODY_BYTES };
  const hasBody =
    (headers["content-length"] !== undefined && headers["content-length"] !== "0") || headers["transfer-encoding"] !== undefined;
  if (!hasBody || segments[0] !== "api") return unlimited;
  const token = headerToken(headers) ?? (url.searchParams.get("private_token") || undefined);
  if (token !== undefined && context.store.users.byToken(token)) return unlimited;
  // HEAD is routed as GET (handleRequest).
  const route = router.match(method === "HEAD" ? "GET" : method, segments)?.handler;
  if (!route) return { refusal: errorResponse(routeNotFound()), bodyLimit: 0 };
  if (!route.anonymous || token !== undefined) return { refusal: errorResponse(unauthorized()), bodyLimit: 0 };
  return { bodyLimit: MAX_ANONYMOUS_BODY_BYTES };
}

/** Answers without reading the request's body, and closes the connection rather than read the rest. */
function refuseUnread(request: IncomingMessage, response: ServerResponse, refusal: ApiResponse): void {
  request.pause();
  send(response, { ...refusal, headers: { ...refusal.headers, Connection: "close" } });
}

function answerOrUndefined(check: () => void): ApiResponse | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

/**
 * Applies a fault. Latency alone delays the request and lets it through (undefined); a drop or
 * a status ends it and returns the status to log (0 for a drop).
 */
async function applyFault(
  fault: FiredFault,
  faults: FaultInjector,
  request: IncomingMessage,
  response: ServerResponse,
  rateLimitHeaders: Record<string, string> = {},
): Promise<number | undefined> {
  if (fault.latencyMs) await faults.delay(fault);
  if (fault.drop) {
    request.socket.destroy();
    return 0;
  }
  if (fault.status === undefined) return undefined;
  const headers: Record<string, string> = { ...rateLimitHeaders };
  if (fault.retryAfter !== undefined) headers["Retry-After"] = String(fault.retryAfter);
  send(response, { status: fault.status, body: fault.body ?? defaultFaultBody(fault.status), headers });
  return fault.status;
}

/** Whose budget a request counts against: its token (header or query), else the anonymous one. */
function callerKey(request: IncomingMessage, query: Record<string, unknown>): string {
  const header = request.headers["private-token"] ?? request.headers["authorization"] ?? request.headers["job-token"];
  const token =
    (Array.isArray(header) ? header[0] : header) ?? (typeof query["private_token"] === "string" ? query["private_token"] : undefined);
  return token ?? "anonymous";
}

/** The service's own body for the status: plain text for 429, `{"message": "<status> <reason>"}` otherwise. */
function defaultFaultBody(status: number): unknown {
  if (status === 429) return "Retry later\n";
  if (status === 204 || status === 304) return undefined;
  return { message: `${status} ${STATUS_CODES[status] ?? "Error"}` };
}

function answer(produce: () => ApiResponse, onMoved?: (moved: ProjectMoved) => ApiResponse): ApiResponse {
  try {
    return produce();
  } catch (error) {
    if (error instanceof ProjectMoved && onMoved) return onMoved(error);
    if (error instanceof ApiError) return errorResponse(error);
    console.error("emulator: handler failed", error);
    return internalError();
  }
}

/**
 * A project addressed by a path it had before it moved (api-semantics, Formats): GET answers
 * 301 with the same URL at the new path in `Location`; other methods 405, since a client must
 * not write through an address that now means something else. Neither body is documented: the
 * 301 has none, the 405 the service's usual `{"message":"405 Method Not Allowed"}`.
 */
function movedAnswer(moved: ProjectMoved, method: string, url: URL): ApiResponse {
  if (method !== "GET") return { status: 405, body: { message: "405 Method Not Allowed" } };
  const from = moved.from.toLowerCase();
  const segments = url.pathname.split("/").map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return segment;
    }
    return decoded.toLowerCase() === from ? encodeURIComponent(moved.to) : segment;
  });
  return { status: 301, headers: { Location: `${url.origin}${segments.join("/")}${url.search}` } };
}

function errorResponse(error: ApiError): ApiResponse {
  return { status: error.status, body: error.body };
}

function internalError(): ApiResponse {
  return { status: 500, body: { message: "500 Internal Server Error" } };
}

/** Writes a response: JSON for objects, plain text for strings, nothing for 204/304. */
function send(response: ServerResponse, result: ApiResponse): void {
  const headers: Record<string, string> = { ...result.headers };
  if (result.status === 204 || result.status === 304 || result.body === undefined) {
    response.writeHead(result.status, headers);
    response.end();
    return;
  }
  if (Buffer.isBuffer(result.body)) {
    // A file (an avatar): the handler's headers name its type.
    headers["Content-Length"] = String(result.body.length);
    response.writeHead(result.status, headers);
    response.end(result.body);
    return;
  }
  const isText = typeof result.body === "string";
  const payload = isText ? (result.body as string) : JSON.stringify(result.body);
  headers["Content-Type"] = isText ? "text/plain; charset=utf-8" : "application/json";
  headers["Content-Length"] = String(Buffer.byteLength(payload));
  response.writeHead(result.status, headers);
  response.end(payload);
}
