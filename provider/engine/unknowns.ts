/** The value the Pulumi engine sends for an input that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * Every sentinel of a value unknown at preview. The engine marks an unknown by the type it
 * expects (string, number, bool, array, ...); a dynamic provider's inputs only ever carry
 * `UNKNOWN`, but policies also see outputs, where the others appear.
 */
const SENTINELS: ReadonlySet<string> = new Set([
  UNKNOWN,
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** True for a value not known yet (at preview). */
export function isUnknown(value: unknown): boolean {
  return typeof value === "string" && SENTINELS.has(value);
}

/** True when the value is unknown or holds an unknown anywhere inside it. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
