/**
 * Reading what the analyzer hands a policy: plain data, with values unknown at preview kept
 * as sentinels that every rule treats as "not a violation".
 */
import { containsUnknown, isUnknown } from "../../provider/engine/unknowns";
import { show } from "../../provider/fields";

export { isUnknown, show };

export type Bag = Record<string, unknown>;

/** Present and fully known: the only values a rule may judge. */
export function isKnown(value: unknown): boolean {
  return value !== undefined && value !== null && !containsUnknown(value);
}

/**
 * The analyzer wraps `props` in a proxy that throws when a policy reads an unknown value, and
 * turns that throw into an advisory "can't run policy during preview" note. The rules here
 * handle unknowns themselves, so they read the plain object under the proxy.
 */
export function plain(props: unknown): Bag {
  if (typeof props !== "object" || props === null) return {};
  const target = (props as Record<string, unknown>)["__getSpecialProxyTarget"];
  return (typeof target === "object" && target !== null ? target : props) as Bag;
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
