/**
 * Reading what the analyzer hands a policy: plain data, with values unknown at preview kept
 * as sentinels that every rule treats as "not a violation".
 */
import { UNKNOWN } from "../../provider/engine/unknowns";

/**
 * The sentinels of values unknown at preview. The engine marks an unknown by the type it
 * expects (string, number, bool, array, ...); a dynamic provider's inputs only ever carry the
 * string one (`UNKNOWN`), but stack validation sees outputs, where the others can appear.
 */
const UNKNOWN_SENTINELS: ReadonlySet<string> = new Set([
  UNKNOWN,
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

export type Bag = Record<string, unknown>;

/** True for a value not known yet (at preview), or a missing one. */
export function isUnknown(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_SENTINELS.has(value);
}

/** True when the value is unknown or holds an unknown anywhere inside it. */
export function hasUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(hasUnknown);
  return false;
}

/** Present and fully known: the only values a rule may judge. */
export function isKnown(value: unknown): boolean {
  return value !== undefined && value !== null && !hasUnknown(value);
}

/**
 * The analyzer wraps `props` in a proxy that throws when a policy reads an unknown value, and
 * turns that throw into an advisory "can't run policy during preview" note. The rules here
 * handle unknowns themselves, so they read the plain object under the proxy.
 */
export function plain(props: unknown): Bag {
  if (typeof props !== "object" || props === null) return {};
  const target = (props as Record<string, unknown>)["__getSpecialProxyTarget"];
  const bag = (typeof target === "object" && target !== null ? target : props) as Bag;
  return normalizeUnknowns(bag) as Bag;
}

/** Every unknown sentinel as the string one, which the provider's checks recognise. */
function normalizeUnknowns(value: unknown): unknown {
  if (isUnknown(value)) return UNKNOWN;
  if (Array.isArray(value)) return value.map(normalizeUnknowns);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalizeUnknowns(inner)]));
  }
  return value;
}

/** `acme/web`, `acme%2Fweb` and `12` vs `"12"`: one key per spelling of the same project or group. */
export function refKey(value: unknown): string {
  if (typeof value === "number") return `id:${value}`;
  if (typeof value === "string") {
    if (/^\d+$/.test(value)) return `id:${Number(value)}`;
    let decoded = value;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      // Not URL-encoded after all: keep it as written.
    }
    return `path:${decoded.replace(/^\/+|\/+$/g, "").toLowerCase()}`;
  }
  return `other:${JSON.stringify(value)}`;
}

/** A value as it should read in a message: strings quoted, the rest as JSON. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(values: readonly unknown[]): string {
  const items = values.map(String);
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
