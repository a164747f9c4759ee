import { isDeepStrictEqual } from "node:util";
import { collectionMeaning } from "./collections";
import type { AnyDeclaration } from "./declaration";

/** The value a field is compared by: a nested collection's meaning, or the declaration's
 *  normaliser, if any, applied first. */
export function comparable(declaration: AnyDeclaration, field: string, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const collection = declaration.collections?.[field];
  if (collection) return collectionMeaning(collection, value);
  const normalize = declaration.normalize?.[field];
  return normalize ? normalize(value) : value;
}

/** True when a desired value and a server value mean the same thing for this field. */
export function sameValue(declaration: AnyDeclaration, field: string, desired: unknown, actual: unknown): boolean {
  if (isBlank(desired) && isBlank(actual)) return true;
  return isDeepStrictEqual(comparable(declaration, field, desired), comparable(declaration, field, actual));
}

/**
 * What the state keeps for an input field after the server answered: the user's own spelling
 * when the server's value means the same (`red` for `#FF0000`), so that neither the next
 * preview nor a refresh reports a change that is only a matter of form.
 */
export function reconcile(declaration: AnyDeclaration, field: string, previous: unknown, actual: unknown): unknown {
  if (previous !== undefined && sameValue(declaration, field, previous, actual)) return previous;
  return actual;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null;
}
