/** Hints on API errors: the fix a user needs, added to the forge's message when it matches. */
import { ForgeApiError } from "../client";
import type { AnyDeclaration, State } from "./declaration";
import { availabilityHints } from "./declaration";

/** The error with the declaration's hint for its status (and the desired state) appended. */
export function withHint(declaration: AnyDeclaration, error: unknown, state: State): unknown {
  if (!(error instanceof ForgeApiError)) return error;
  const hints = [...(declaration.errorHints ?? []), ...availabilityHints(declaration)];
  const hint = hints.find((entry) => entry.status === error.status && (entry.when?.(state) ?? true));
  if (hint && !error.message.includes(hint.hint)) error.message = `${error.message} (${hint.hint})`;
  return error;
}

/** Runs a write; an API error the declaration has a hint for gets the hint. */
export async function withHintsOnError<T>(declaration: AnyDeclaration, state: State, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw withHint(declaration, error, state);
  }
}
