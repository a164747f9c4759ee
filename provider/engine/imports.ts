/**
 * The import rule, the same on both faces: an import takes over an object only when every input
 * the program sets matches what the forge holds, secret or not; one that differs fails the import,
 * naming each field (secret values masked on both sides), and nothing is sent.
 *
 * - The dynamic face imports in `create` (the `import` option travels as an input): the object is
 *   read, compared, and taken or refused there (operations.ts, `importObject`).
 * - The plugin face is imported by the engine: engine 3.259 reads the object by its id alone, keeps
 *   it, then goes on with the program's inputs as for any resource (check, diff, and an update if
 *   they differ). So a read by the id alone marks the inputs it returns ({@link IMPORTED_KEY}),
 *   and `check` compares the program with them: a difference is a check failure (the engine stops
 *   before any write); a match drops the mark, and the state holds the program's inputs. The mark
 *   stays while no program has matched the object (a failed import, a refresh of one); deleting an
 *   object still marked only drops it from the stack.
 *
 * Write-only inputs (credentials the forge never returns) cannot be compared. The import does not
 * claim them: for a kind updated in place the state holds no value for them, so the next run shows
 * each as a change and its update writes the program's value (never the import's own run, and
 * never unseen); for a kind that can only be replaced, the program's value is taken as it is
 * (writing it would replace the object). docs/ownership.md ("Importing") says the same.
 */
import type { AnyDeclaration, State } from "./declaration";
import { fileInputs } from "./declaration";
import { digestKey, IMPORTED_KEY } from "./bookkeeping";
import { withoutPath } from "./paths";
import { SECRET_MASK } from "../redaction";

/** The mark: the import id, and what the comparison reads besides the inputs (the digests of the forge's files). */
interface ImportMark {
  id: string;
  digests?: State;
}

/** The mark for an object read by its import id alone, from its outputs. */
export function importMark(declaration: AnyDeclaration, id: string, outs: State): ImportMark {
  const digests = Object.fromEntries(
    fileInputs(declaration).flatMap((field) => (outs[digestKey(field)] === undefined ? [] : [[digestKey(field), outs[digestKey(field)]]])),
  );
  return Object.keys(digests).length > 0 ? { id, digests } : { id };
}

/** The mark a property bag carries, if any. */
export function importMarkOf(bag: State): ImportMark | undefined {
  const mark = bag[IMPORTED_KEY];
  return typeof mark === "object" && mark !== null && typeof (mark as ImportMark).id === "string" ? (mark as ImportMark) : undefined;
}

/** What the forge holds, as a marked read's inputs give it: the inputs and the digests of its files. */
export function importedState(olds: State, mark: ImportMark): State {
  const { [IMPORTED_KEY]: _mark, ...inputs } = olds;
  return { ...inputs, ...mark.digests };
}

/** Whether the kind can write an input without replacing the object. */
function updatedInPlace(declaration: AnyDeclaration): boolean {
  return declaration.update !== undefined || declaration.setting !== undefined;
}

/**
 * The inputs an import keeps: the program's, without the write-only values it cannot prove for a
 * kind updated in place (the next run writes them, visibly); unchanged for a kind only replaced.
 */
export function importedInputs(declaration: AnyDeclaration, inputs: State): State {
  if (!updatedInPlace(declaration)) return inputs;
  let kept: State = inputs;
  for (const path of declaration.writeOnly ?? []) kept = withoutPath(kept, path) as State;
  return kept;
}

/** Whether a write-only value the state does not hold is a change: for a kind updated in place,
 *  it is one the stack has never written (an import could not prove it). */
export function unprovenWriteOnlyChanges(declaration: AnyDeclaration): boolean {
  return updatedInPlace(declaration);
}

/** The desired inputs an import compares: without the write-only values (the forge never shows them). */
export function comparedOnImport(declaration: AnyDeclaration, desired: State): State {
  let compared: State = desired;
  for (const path of declaration.writeOnly ?? []) compared = withoutPath(compared, path) as State;
  return compared;
}

/**
 * Why the `import` option's create is refused (the dynamic face): each differing field with both
 * values, a secret one masked on both sides (`secrets`: the fields the state keeps secret), and
 * what to do.
 */
export function importRefusal(
  declaration: AnyDeclaration,
  importId: string,
  fields: readonly string[],
  desired: State,
  forge: State,
  secrets: ReadonlySet<string>,
): string {
  return `${declaration.name}: cannot import "${importId}": ${fieldDifferences(fields, desired, forge, secrets).join("; ")}. An import never writes, and nothing was sent: make the program match what the forge holds, then change it in a later run.`;
}

/**
 * Why a program does not match an object the engine read by its import id (the plugin face):
 * one failure per differing field, then what to do. The engine keeps what it read, so the stack
 * holds the object, marked, until a run's program matches it (the run that imports, or the next).
 */
export function importMismatchFailures(
  importId: string,
  fields: readonly string[],
  desired: State,
  forge: State,
  secrets: ReadonlySet<string>,
): string[] {
  return [
    ...fieldDifferences(fields, desired, forge, secrets),
    `cannot import "${importId}": the program differs from what the forge holds, and an import never writes: nothing was sent. Make the program match, run \`pulumi up\` once, then change it in a later run; or remove the resource from the program to let go of it (the forge keeps it).`,
  ];
}

/** One line per differing field: `color: the program has "red", the forge has "blue"` (secrets masked). */
export function fieldDifferences(fields: readonly string[], desired: State, forge: State, secrets: ReadonlySet<string>): string[] {
  const describe = (field: string, value: unknown) =>
    value === undefined ? "nothing" : secrets.has(field) && value !== null ? SECRET_MASK : JSON.stringify(value);
  return fields.map(
    (field) => `${field}: the program has ${describe(field, desired[field])}, the forge has ${describe(field, forge[field])}`,
  );
}
