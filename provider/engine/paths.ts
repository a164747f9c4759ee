/** Dotted paths into state values (`platformVendorAttributes.token`). */
import { isPlainObject } from "../client";

/** The value at a dotted path, or undefined when any step is missing. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[step];
  }
  return current;
}

/** A copy of `value` with `path` set (objects on the way are copied, missing ones created). */
export function withPath(value: unknown, path: string, item: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split(".") as [string, ...string[]];
  const base = isPlainObject(value) ? { ...value } : {};
  base[head] = rest.length === 0 ? item : withPath(base[head], rest.join("."), item);
  return base;
}

/** A copy of `value` without the field at `path` (unchanged when the path is not there). */
export function withoutPath(value: unknown, path: string): unknown {
  const [head, ...rest] = path.split(".") as [string, ...string[]];
  if (!isPlainObject(value) || !(head in value)) return value;
  const copy = { ...value };
  if (rest.length === 0) delete copy[head];
  else copy[head] = withoutPath(copy[head], rest.join("."));
  return copy;
}
