import type { IncomingHttpHeaders } from "node:http";
import { ApiError, forbidden, unauthorized } from "../core/errors";
import type { Actor } from "../core/records";
import type { Users } from "../core/users";

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token of a request's headers: `PRIVATE-TOKEN` or `Authorization: Bearer`. */
export function headerToken(headers: IncomingHttpHeaders): string | undefined {
  const privateToken = header(headers, "private-token");
  if (privateToken) return privateToken;
  const bearer = /^Bearer\s+(.+)$/i.exec(header(headers, "authorization") ?? "")?.[1];
  return bearer ? bearer.trim() : undefined;
}

/** The token of a request: `PRIVATE-TOKEN`, `Authorization: Bearer`, or `private_token`. */
function requestToken(headers: IncomingHttpHeaders, params: Record<string, unknown>): string | undefined {
  const fromHeaders = headerToken(headers);
  if (fromHeaders) return fromHeaders;
  const fromParams = params.private_token;
  return typeof fromParams === "string" && fromParams ? fromParams : undefined;
}

/**
 * Resolves the caller. An unknown token is 401 on every endpoint (even those open to anonymous
 * callers). `sudo` (header or parameter) lets an administrator act as another user; anyone
 * else gets `403 Forbidden - Must be admin to use sudo`.
 */
export function resolveActor(users: Users, headers: IncomingHttpHeaders, params: Record<string, unknown>): Actor {
  const token = requestToken(headers, params);
  if (token === undefined) return null;
  const user = users.byToken(token);
  if (!user) throw unauthorized();
  const sudo = header(headers, "sudo") ?? (typeof params.sudo === "string" ? params.sudo : undefined);
  if (sudo === undefined || sudo === "") return user;
  if (!user.admin) throw forbidden("Must be admin to use sudo");
  const target = /^\d+$/.test(sudo) ? users.byId(Number(sudo)) : users.byUsername(sudo);
  if (!target) throw new ApiError(404, { message: `404 User with ID or username '${sudo}' Not Found` });
  return target;
}
