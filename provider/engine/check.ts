import type { AnyDeclaration, State } from "./declaration";
import type { InputFailure } from "./outcomes";
import { inputKeys } from "./declaration";
import { RESERVED_KEYS, withoutReserved } from "./bookkeeping";
import { containsUnknown, isUnknown } from "./unknowns";

/**
 * Validates inputs with the declaration's zod schema before any request. Values still unknown
 * at preview pass; every other failure names the field (`deployAccessLevels[0].accessLevel`).
 */
export function checkInputs(declaration: AnyDeclaration, news: State): InputFailure[] {
  const failures: InputFailure[] = [];
  const known = new Set([...inputKeys(declaration), ...RESERVED_KEYS]);
  for (const key of Object.keys(news)) {
    if (!known.has(key) && news[key] !== undefined) {
      failures.push({
        property: key,
        reason: `${declaration.name} has no input "${key}"; expected one of: ${inputKeys(declaration).join(", ")}`,
      });
    }
  }
  const candidate = withoutReserved(news);
  const result = declaration.inputs.safeParse(candidate);
  if (!result.success) {
    for (const issue of result.error.issues) {
      // A cross-field rule reports one field but reads its siblings: judge it on the whole object.
      const path = issue.code === "custom" ? issue.path.slice(0, -1) : issue.path;
      if (touchesUnknown(candidate, path)) continue;
      failures.push({
        property: formatPath(issue.path) || declaration.name,
        reason: inProductWords(issue, valueAt(candidate, issue.path)),
      });
    }
  }
  return failures;
}

/** An issue is about an unknown value when anything on its path, or below it, is unknown. */
function touchesUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = root;
  for (const segment of path) {
    if (isUnknown(value)) return true;
    value = typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[segment] : undefined;
  }
  return containsUnknown(value);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) => (typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`))
    .join("");
}

/** The value at a path of the inputs (for the size a message names). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const segment of path)
    value = typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[segment] : undefined;
  return value;
}

/**
 * zod's own wording for sizes (`Too big: expected string to have <=255 characters`) in the
 * product's: the limit and the size the program gave, never the value itself. The schemas' own
 * messages are kept as they are.
 */
function inProductWords(
  issue: { code: string; message: string; maximum?: unknown; minimum?: unknown; origin?: string },
  value: unknown,
): string {
  const size = typeof value === "string" ? [...value].length : Array.isArray(value) ? value.length : undefined;
  const unit = typeof value === "string" ? "characters" : "entries";
  if (issue.code === "too_big" && /^Too big/.test(issue.message) && size !== undefined) {
    return `is ${size} ${unit} long; the forge takes at most ${String(issue.maximum)}. Shorten it.`;
  }
  if (issue.code === "too_small" && /^Too small/.test(issue.message) && size !== undefined) {
    if (size === 0)
      return Number(issue.minimum) === 1 ? "is empty; give a value." : `is empty; give at least ${String(issue.minimum)} ${unit}.`;
    return `is ${size} ${unit} long; the forge needs at least ${String(issue.minimum)}.`;
  }
  return issue.message;
}

/**
 * Failures as the provider returns them to the engine: on the resource, the field's path leading
 * the reason. The engine prints a failure on a property with that property's input value, which
 * is how a secret (`clientKey`, `webhook`) reached the output and why a nested path printed
 * `{<nil>}`; on the resource it prints the reason alone.
 */
export function forEngine(failures: InputFailure[]): InputFailure[] {
  return failures.map((failure) => ({
    property: "",
    reason: failure.property ? `${failure.property}: ${failure.reason}` : failure.reason,
  }));
}
