import { checkParams, checkUrlEncodedUtf8, MAX_PARAM_DEPTH, refuseForbiddenKey, tooDeep } from "./param-limits";

/*
 * Rack-style bracket notation for query strings and form bodies:
 * `name=v`, `name[]=v` (array), `name[key]=v` (hash), `name[0][key]=v` and `name[][key]=v`
 * (array of hashes). Hashes whose keys are all indexes become arrays in index order.
 */

/** A parameter value: a string, a file, an array or a nested object. */
type ParamValue = unknown;
type ParamObject = Record<string, ParamValue>;

/** Splits `a[b][]` into `["a", "b", ""]`; a key without brackets is one part. */
export function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0 || !key.endsWith("]")) return [key];
  const parts = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1] ?? "");
  return parts;
}

/**
 * Builds a nested parameter object from decoded `[key, value]` pairs. A key part that names a
 * prototype (`__proto__[x]`, `a[constructor][prototype]`) or a key nested more than
 * MAX_PARAM_DEPTH levels is refused (400) before anything is assigned; strings are checked
 * against the size limit (param-limits.ts).
 */
export function buildParams(pairs: Iterable<[string, ParamValue]>): ParamObject {
  const root: ParamObject = {};
  for (const [key, value] of pairs) {
    const parts = splitKey(key);
    if (parts.length > MAX_PARAM_DEPTH) throw tooDeep(parts[0] ?? key);
    for (const part of parts) refuseForbiddenKey(part);
    assign(root, parts, value);
  }
  const params = indexedHashesToArrays(root) as ParamObject;
  checkParams(params);
  return params;
}

/** Parses a query string or form-urlencoded body (`+` is a space, as in HTML forms). */
export function parseUrlEncoded(text: string): ParamObject {
  checkUrlEncodedUtf8(text);
  return buildParams(new URLSearchParams(text).entries());
}

function assign(target: ParamObject, parts: string[], value: ParamValue): void {
  const [name, next, ...rest] = parts as [string, string | undefined, ...string[]];
  if (next === undefined) {
    target[name] = value;
    return;
  }
  if (next === "") {
    const list = Array.isArray(target[name]) ? (target[name] as ParamValue[]) : [];
    target[name] = list;
    if (rest.length === 0) {
      list.push(value);
      return;
    }
    // `a[][k]=v`: a repeated key starts the next hash of the array.
    const last = list[list.length - 1];
    const firstKey = rest[0] ?? "";
    const reuse = isObject(last) && !(firstKey in last);
    const hash: ParamObject = reuse ? (last as ParamObject) : {};
    if (!reuse) list.push(hash);
    assign(hash, rest, value);
    return;
  }
  const child = isObject(target[name]) ? (target[name] as ParamObject) : {};
  target[name] = child;
  assign(child, [next, ...rest], value);
}

function indexedHashesToArrays(value: ParamValue): ParamValue {
  if (Array.isArray(value)) return value.map(indexedHashesToArrays);
  if (!isObject(value) || Buffer.isBuffer(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, indexedHashesToArrays(v)] as const);
  const indexed = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (indexed) return [...entries].sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  return Object.fromEntries(entries);
}

function isObject(value: ParamValue): value is ParamObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
