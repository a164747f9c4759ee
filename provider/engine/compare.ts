import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
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
  // The API's rule "null versus false": the service means false by a null boolean.
  if (isBooleanField(declaration, field)) [desired, actual] = [nullAsFalse(desired), nullAsFalse(actual)];
  return isDeepStrictEqual(comparable(declaration, field, desired), comparable(declaration, field, actual));
}

const nullAsFalse = (value: unknown): unknown => (value === null ? false : value);

/** True when the declaration's input (or else output) schema of `field` is a boolean. */
function isBooleanField(declaration: AnyDeclaration, field: string): boolean {
  const schema = (declaration.inputs.shape[field] ?? declaration.outputs.shape[field]) as z.ZodType | undefined;
  return schema !== undefined && unwrapped(schema) instanceof z.ZodBoolean;
}

/** The schema under optional / nullable / default wrappers. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
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
