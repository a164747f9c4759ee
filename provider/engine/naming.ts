import { isPlainObject } from "../client";

/** Wire names are snake_case, TypeScript names camelCase. Keys that start with `_` (`_destroy`,
 *  `_links`) are wire-only markers and pass through unchanged in both directions. */
export function toSnake(key: string): string {
  if (key.startsWith("_")) return key;
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function toCamel(key: string): string {
  if (key.startsWith("_")) return key;
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

type KeyMapper = (key: string) => string;

function mapKeysDeep(value: unknown, mapKey: KeyMapper): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeysDeep(item, mapKey));
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[mapKey(key)] = mapKeysDeep(item, mapKey);
    return result;
  }
  return value;
}

/** Converts every key of a value (deeply) to its wire name. */
export const toWire = (value: unknown): unknown => mapKeysDeep(value, toSnake);
/** Converts every key of a wire value (deeply) to its TypeScript name. */
export const fromWire = (value: unknown): unknown => mapKeysDeep(value, toCamel);
