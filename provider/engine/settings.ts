/**
 * The settings strategy (`setting: true`): settings of an object that exists apart from the
 * resource (a project's job token scope, a group's settings). Create reads what is there and
 * keeps it (`restore`), then writes the program's values; delete writes back what create found.
 */
import { isPlainObject, parseRoute } from "../client";
import type { AnyDeclaration, Request, State } from "./declaration";
import { inputKeys, routeOf } from "./declaration";
import { writeBody } from "./requests";
import { RESTORE_KEY } from "./bookkeeping";

/** The route that writes a setting (its update). */
export function settingRoute(declaration: AnyDeclaration): Request {
  if (!declaration.update) throw new Error(`${declaration.name}: a setting needs an update route`);
  return declaration.update;
}

/** Inputs a setting manages: those the program set, apart from the ones that address the object. */
export function settingFields(declaration: AnyDeclaration, state: State): string[] {
  const path = new Set(parseRoute(routeOf(settingRoute(declaration))).parameters);
  return inputKeys(declaration).filter((key) => !path.has(key) && state[key] !== undefined);
}

/** What a new setting restores on delete: the values found for the fields the program manages. */
export function foundValues(declaration: AnyDeclaration, desired: State, found: State): Record<string, unknown> {
  return Object.fromEntries(
    settingFields(declaration, desired)
      .filter((key) => found[key] !== undefined)
      .map((key) => [key, found[key]]),
  );
}

/** A setting's restore values with those of inputs the program started to set since create:
 *  their values before this update (delete then restores them too). */
export function extendedRestore(declaration: AnyDeclaration, olds: State, desired: State): Record<string, unknown> {
  const restore: Record<string, unknown> = isPlainObject(olds[RESTORE_KEY]) ? { ...olds[RESTORE_KEY] } : {};
  for (const key of settingFields(declaration, desired)) if (!(key in restore) && olds[key] !== undefined) restore[key] = olds[key];
  return restore;
}

/** The body that writes the program's values over the object's (create). */
export function settingBody(declaration: AnyDeclaration, state: State): Record<string, unknown> {
  return writeBody(declaration, settingRoute(declaration), state, settingFields(declaration, state));
}

/** The body that writes back what create found (delete), or undefined when there is nothing. */
export function restoreBody(declaration: AnyDeclaration, state: State): Record<string, unknown> | undefined {
  const restore = state[RESTORE_KEY];
  if (!isPlainObject(restore) || Object.keys(restore).length === 0) return undefined;
  return writeBody(declaration, settingRoute(declaration), { ...state, ...restore }, Object.keys(restore));
}
