/**
 * Evidence of identity: for kinds addressed by a name or a parent (a protected environment is
 * `<project>:<name>`, a cleanup policy its group), the address finds whatever holds the name
 * now, which after a killed destroy may be an object someone made since. What tells the stack's
 * object from such a one is what the forge gives an object and a re-made one cannot share (its
 * entries' ids, its creation time): the declaration names those record fields
 * (`identity.evidence`), the state keeps their values under `__evidence` (bookkeeping,
 * out of users' diffs like the other `__` keys), and a read that finds none of them in common
 * is another object (docs/ownership.md, "A name is not an identity").
 */
import { isPlainObject } from "../client";
import type { AnyDeclaration, State, WireRecord } from "./declaration";
import { hasIdentity } from "./declaration";
import { formatId } from "./ids";
import { EVIDENCE_KEY } from "./bookkeeping";

/** The record fields a declaration takes as evidence (wire paths; none for most kinds). */
export function evidenceFields(declaration: AnyDeclaration): readonly string[] {
  return hasIdentity(declaration.identity) ? (declaration.identity.evidence ?? []) : [];
}

/**
 * The evidence a record carries, as `<path>=<value>` marks in a stable order: every value at each
 * declared path (`deploy_access_levels[].id` takes the `id` of each element). Empty when the
 * declaration names none, or the record carries none of them (an answer that is not the whole
 * record).
 */
export function evidenceOf(declaration: AnyDeclaration, record: WireRecord): string[] {
  const marks = evidenceFields(declaration).flatMap((path) => valuesAt(record, path.split(".")).map((value) => `${path}=${String(value)}`));
  return [...new Set(marks)].sort();
}

/**
 * True when the record is another object than the one the state holds: the state kept evidence,
 * the record carries some, and they share none. A state without evidence (written before it was
 * kept, or a declaration that names none) proves nothing either way, and reads as the same object.
 */
export function isAnotherObject(declaration: AnyDeclaration, state: State, record: WireRecord): boolean {
  const kept = state[EVIDENCE_KEY];
  if (!Array.isArray(kept) || kept.length === 0) return false;
  const found = evidenceOf(declaration, record);
  return found.length > 0 && !found.some((mark) => kept.includes(mark));
}

/** Whether the state holds evidence to judge a record by. */
export function keepsEvidence(state: State): boolean {
  return Array.isArray(state[EVIDENCE_KEY]) && state[EVIDENCE_KEY].length > 0;
}

/** The sentence that says why the object under the address is not the state's. */
export function anotherObjectReason(declaration: AnyDeclaration, state: State): string {
  return (
    `${declaration.name} ${formatIdOr(declaration, state)}: the object the forge holds under this address now is not the one this resource made: ` +
    `none of what the state kept of it (${evidenceFields(declaration).join(", ")}) is on it, so that one was deleted and someone made this one since`
  );
}

/**
 * An update refused because the object under the address is someone else's (a killed destroy's
 * DELETE went through, and someone made the object again). Nothing was sent.
 */
export class AnotherObjectError extends Error {
  constructor(declaration: AnyDeclaration, state: State) {
    super(
      `${anotherObjectReason(declaration, state)}. Nothing was sent. Run \`pulumi refresh\`: it drops this resource from the state ` +
        `and leaves the object alone; the next \`up\` then refuses the object by name. Import it if it is meant to be managed here.`,
    );
    this.name = "AnotherObjectError";
  }
}

function valuesAt(value: unknown, steps: string[]): unknown[] {
  if (steps.length === 0) return value === undefined || value === null ? [] : [value];
  const [head, ...rest] = steps as [string, ...string[]];
  const each = head.endsWith("[]");
  const field = each ? head.slice(0, -2) : head;
  if (!isPlainObject(value)) return [];
  const next = value[field];
  if (!each) return valuesAt(next, rest);
  return Array.isArray(next) ? next.flatMap((element) => valuesAt(element, rest)) : [];
}

function formatIdOr(declaration: AnyDeclaration, state: State): string {
  try {
    return formatId(declaration, state);
  } catch {
    return "";
  }
}
