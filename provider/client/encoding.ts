import type { FormData } from "undici";
import { undiciPackage } from "./connection";
import { fillTemplate, isPlainObject, type HttpMethod } from "./route";

/** The result of applying the placement rule to one call. */
export interface PlacedRequest {
  /** Filled path relative to /api/v4 (path params URL-encoded), without query. */
  path: string;
  /** Query string without the leading `?`, or "" when there is none. */
  query: string;
  /** Request body, if any. */
  body?: string | FormData;
  /** Content type for a JSON body; undefined for FormData (undici sets the boundary) or no body. */
  contentType?: string;
}

const MAX_DEPTH = 32;

/**
 * Applies the placement rule: `:name` segments of the template come from params (URL-encoded with
 * encodeURIComponent, so `acme/platform` becomes `acme%2Fplatform`, and removed from params); the rest
 * goes to the query for GET/DELETE, to multipart/form-data when `multipart` is set or a value is binary,
 * and to a JSON body otherwise. Undefined values are dropped.
 *
 * @throws Error when a path parameter is missing or empty, before anything is sent.
 */
export function placeParams(
  method: HttpMethod,
  pathTemplate: string,
  params: Record<string, unknown> = {},
  multipart = false,
): PlacedRequest {
  const { path, rest } = fillPath(method, pathTemplate, params);
  if (method === "GET" || method === "DELETE") {
    return { path, query: encodeQuery(rest) };
  }
  if (multipart || containsBinary(rest, 0)) {
    return { path, query: "", body: toFormData(rest) };
  }
  const json = JSON.stringify(rest);
  return json === "{}" ? { path, query: "" } : { path, query: "", body: json, contentType: "application/json" };
}

/**
 * Fills the `:name` segments of `template` from `params`.
 *
 * @returns The filled path and the params left over (without path params and undefined values).
 * @throws Error naming the parameter and the template when one is missing, empty or not a scalar.
 */
export function fillPath(
  method: string,
  template: string,
  params: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const used = new Set<string>();
  const normalized = template.startsWith("/") ? template : `/${template}`;
  const path = fillTemplate(normalized, (name) => {
    const value = params[name];
    if (value === undefined || value === null || value === "") {
      throw new Error(`Missing path parameter "${name}" for ${method} ${template}`);
    }
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "bigint") {
      throw new Error(`Path parameter "${name}" for ${method} ${template} must be a string or a number`);
    }
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!used.has(key) && value !== undefined) rest[key] = value;
  }
  return { path, rest };
}

/**
 * Encodes params as a query string in the forge's notation: arrays `name[]=v`, hashes `name[key]=v`,
 * arrays of hashes `name[0][key]=v`; values with encodeURIComponent (so `+` is `%2B`), booleans as
 * `true`/`false`, dates as ISO 8601, null as an empty value. Undefined values and empty arrays are dropped.
 */
export function encodeQuery(params: Record<string, unknown>): string {
  return flatten(params)
    .map(([segments, value]) => {
      if (typeof value !== "string") {
        throw new Error(`Parameter "${renderKey(segments, false)}" is binary and cannot go in a query string`);
      }
      return `${renderKey(segments, true)}=${encodeURIComponent(value)}`;
    })
    .join("&");
}

/**
 * Builds an undici FormData with the same bracket notation as the query. Binary values (Buffer,
 * Uint8Array, Blob) become file parts; a `File` keeps its name, other binaries are named after their key.
 */
export function toFormData(params: Record<string, unknown>): FormData {
  const form = new (undiciPackage().FormData)();
  for (const [segments, value] of flatten(params)) {
    const key = renderKey(segments, false);
    if (typeof value === "string") {
      form.append(key, value);
    } else {
      const named = value as Blob & { name?: unknown };
      const fileName = typeof named.name === "string" && named.name ? named.name : segments.at(-1) || "file";
      form.append(key, value, fileName);
    }
  }
  return form;
}

/** True when a value (at any depth) is a Buffer, Uint8Array or Blob, which forces multipart. */
export function containsBinary(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (isBinary(value)) return true;
  if (Array.isArray(value)) return value.some((item) => containsBinary(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).some((item) => containsBinary(item, depth + 1));
  return false;
}

type Segments = string[];

/** Flattens nested params to (key segments, value) pairs; "" as a segment means `[]`. */
function flatten(params: Record<string, unknown>): Array<[Segments, string | Blob]> {
  const out: Array<[Segments, string | Blob]> = [];
  const walk = (segments: Segments, value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) throw new Error(`Parameter "${renderKey(segments, false)}" is nested too deeply`);
    if (value === undefined) return;
    if (value === null) {
      out.push([segments, ""]);
    } else if (isBinary(value)) {
      out.push([segments, value instanceof Blob ? value : new Blob([new Uint8Array(value)])]);
    } else if (value instanceof Date) {
      out.push([segments, value.toISOString()]);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        const nested = Array.isArray(item) || isPlainObject(item);
        walk([...segments, nested ? String(index) : ""], item, depth + 1);
      });
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) walk([...segments, key], item, depth + 1);
    } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
      out.push([segments, String(value)]);
    } else {
      throw new Error(`Parameter "${renderKey(segments, false)}" has an unsupported type (${typeof value})`);
    }
  };
  for (const [key, value] of Object.entries(params)) walk([key], value, 0);
  return out;
}

/** `name[key][]`; with `encode`, each segment is percent-encoded but the brackets stay literal, as the spec writes them. */
function renderKey(segments: Segments, encode: boolean): string {
  const enc = encode ? encodeURIComponent : (s: string) => s;
  const [first = "", ...others] = segments;
  return enc(first) + others.map((segment) => `[${enc(segment)}]`).join("");
}

function isBinary(value: unknown): value is Uint8Array | Blob {
  return value instanceof Uint8Array || value instanceof Blob;
}
