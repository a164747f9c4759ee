import { ApiError, parameterError } from "../core/errors";
import { paramName } from "../core/validation";

/*
 * What any request's parameters (query, form, multipart, JSON) may hold, whatever the route.
 * The emulator is a server people run: a parameter must never reach an object's prototype
 * (`__proto__[private_token]=<token>` once made every later anonymous caller an administrator),
 * nesting and sizes are bounded so that no request can exhaust the stack or the memory.
 */

/** The whole body, in bytes; larger bodies are answered 413 before they are read in full. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * The body of a request without a known token. Such a request reaches only the anonymous reads
 * (GET), whose parameters come in the query; some clients send `{}` with them. Kept small so
 * that nobody without a token can make the emulator parse megabytes while others wait.
 */
export const MAX_ANONYMOUS_BODY_BYTES = 64 * 1024;

/** Levels of nested objects and arrays a body or a bracket parameter may have (the top object is one). */
export const MAX_PARAM_DEPTH = 32;

/**
 * Bytes (UTF-8) of one string parameter. The service caps its text columns well below this
 * (descriptions, messages); 1 MiB keeps every real request and refuses a 19 MB description.
 */
export const MAX_STRING_BYTES = 1024 * 1024;

/** Keys that name an object's prototype in JavaScript: never taken as parameter names. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** 400 for a parameter name that could reach a prototype. */
export function refuseForbiddenKey(key: string): void {
  if (FORBIDDEN_KEYS.has(key)) throw parameterError(`${key} is not allowed as a parameter name`);
}

/** 400 for a parameter nested more than {@link MAX_PARAM_DEPTH} levels deep. */
export function tooDeep(name: string): ApiError {
  return parameterError(`${name} is nested too deeply (at most ${MAX_PARAM_DEPTH} levels)`);
}

/** 413 for a body over `limit` ({@link MAX_BODY_BYTES} unless the request has a smaller one). */
export function bodyTooLarge(limit = MAX_BODY_BYTES): ApiError {
  return new ApiError(413, { message: `413 Request Entity Too Large - bodies are limited to ${limit} bytes` });
}

/**
 * Checks parsed parameters: no prototype key at any level, at most {@link MAX_PARAM_DEPTH}
 * levels, no string over {@link MAX_STRING_BYTES}. Files (Buffers) are left to the body limit
 * and the routes' own rules. The walk stops at the depth limit, so it cannot exhaust the stack.
 */
export function checkParams(value: unknown, path: (string | number)[] = [], depth = 0): void {
  if (typeof value === "string") {
    // The service refuses a NUL in any parameter (a name, a description) with 400.
    if (value.includes("\u0000")) throw parameterError(`${paramName(path) || "body"} contains a NUL character`);
    // A UTF-16 unit is at most 3 bytes of UTF-8: count the bytes only when the length may exceed the limit.
    if (value.length * 3 > MAX_STRING_BYTES && Buffer.byteLength(value) > MAX_STRING_BYTES) {
      throw parameterError(`${paramName(path) || "body"} is too long (at most ${MAX_STRING_BYTES} bytes)`);
    }
    return;
  }
  if (typeof value !== "object" || value === null || Buffer.isBuffer(value)) return;
  if (depth >= MAX_PARAM_DEPTH) throw tooDeep(paramName(path.slice(0, 1)) || "body");
  // One path array for the whole walk (push and pop): most bodies are small and this runs on each.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      checkParams(value[index], path, depth + 1);
      path.pop();
    }
    return;
  }
  for (const key of Object.keys(value)) {
    refuseForbiddenKey(key);
    path.push(key);
    checkParams((value as Record<string, unknown>)[key], path, depth + 1);
    path.pop();
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Text of a body or a multipart field: 400 when its bytes are not valid UTF-8, as the service answers. */
export function utf8Text(bytes: Uint8Array, name = "body"): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw parameterError(`${name} is not valid UTF-8`);
  }
}

/** 400 when a percent-encoded query or form is not valid UTF-8 once decoded (URLSearchParams would
 *  put U+FFFD in silently). */
export function checkUrlEncodedUtf8(text: string): void {
  for (const piece of text.split("&")) {
    try {
      decodeURIComponent(piece.replace(/\+/g, " "));
    } catch {
      const name = piece.split("=")[0] ?? "";
      let shown = name;
      try {
        shown = decodeURIComponent(name);
      } catch {
        shown = "a parameter name";
      }
      throw parameterError(`${shown} is not valid UTF-8`);
    }
  }
}
