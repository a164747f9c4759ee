/** The value the Pulumi engine sends for an input that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value is unknown or holds an unknown anywhere inside it. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
