import type { IncomingHttpHeaders } from "node:http";
import type { Store } from "../store/store";
import type { Actor } from "../store/users";

/** Methods the API serves. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A parsed API request, as route handlers see it. */
export interface ApiRequest {
  method: string;
  /** Absolute URL as the client sent it (used to build pagination links). */
  url: URL;
  /** Decoded path parameters of the matched route (`acme%2Fplatform` → `acme/platform`). */
  pathParams: Record<string, string>;
  /** Query parameters (bracket notation resolved). */
  query: Record<string, unknown>;
  /** Body parameters (JSON, form or multipart). */
  body: Record<string, unknown>;
  /** Query, then body, then path parameters merged, later ones winning. */
  params: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  actor: Actor;
}

/** What a handler answers; `body` undefined means no body (204, 304). */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Parses nothing itself: turns a parsed request into a store call and an answer. */
export type RouteHandler = (request: ApiRequest, store: Store) => ApiResponse;

/** One route: method, a path template relative to /api/v4 with `:params`, and its handler. */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  handler: RouteHandler;
}

/** 200 with a JSON body. */
export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
/** 201 with a JSON body. */
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
/** 204 without a body. */
export const noContent = (): ApiResponse => ({ status: 204 });

/** A path parameter that the route template guarantees. */
export function pathParam(request: ApiRequest, name: string): string {
  const value = request.pathParams[name];
  if (value === undefined) throw new Error(`route has no :${name} parameter`);
  return value;
}
