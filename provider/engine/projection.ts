/**
 * Projection: from a record as the forge sends it to the state Pulumi keeps. One place decides
 * which value of a field wins (the record's, the program's spelling, the last applied secret).
 */
import { isPlainObject } from "../client";
import { reconcile } from "./compare";
import type { AnyDeclaration, State, WireRecord } from "./declaration";
import { engineKeys, fileInputs, inputKeys, optionsOf, outputKeys, recordIdOf } from "./declaration";
import { evidenceOf } from "./evidence";
import { fromWire } from "./naming";
import { getPath, withPath } from "./paths";
import { APPLIED_KEY, digestKey, EVIDENCE_KEY } from "./bookkeeping";

/** A record's fields under their TypeScript names (read names, wire formats and record id applied). */
export function project(declaration: AnyDeclaration, record: WireRecord, state: State): State {
  const projected = fromWire(record) as State;
  for (const [field, wire] of Object.entries(declaration.readNames ?? {})) {
    const value = wire.includes(".") ? nestedValue(record, wire) : record[wire];
    if (value !== undefined) projected[field] = fromWire(value);
  }
  for (const [field, format] of Object.entries(declaration.wireFormats ?? {})) {
    if (projected[field] !== undefined && projected[field] !== null) projected[field] = format.fromWire(projected[field]);
  }
  const id = recordIdOf(declaration);
  if (id.output && record[id.wire] !== undefined) projected[id.output] = record[id.wire];
  Object.assign(projected, declaration.hooks?.mapRecord?.(record, state));
  return projected;
}

/**
 * The outputs kept in state: every declared output from the record (or, for one only the create's
 * answer carries, from the state), the inputs (in the user's spelling where the server's means
 * the same), path inputs and write-only inputs from the state, and the engine's own fields (what
 * a setting restores, file digests, the applied inputs, the evidence of which object it is).
 */
export function outputs(declaration: AnyDeclaration, record: WireRecord, state: State, previous: State): State {
  const projected = project(declaration, record, state);
  const writeOnly = declaration.writeOnly ?? [];
  const answerOnly = optionsOf(declaration.create).answerOnly ?? [];
  const outs: State = {};
  for (const key of outputKeys(declaration)) {
    const value = projected[key] ?? (answerOnly.includes(key) ? state[key] : undefined);
    if (value !== undefined) outs[key] = value;
  }
  for (const key of inputKeys(declaration)) {
    const fromRecord = key in projected && !writeOnly.includes(key);
    let value = fromRecord ? projected[key] : state[key];
    // A write-only field inside an object input: the record lacks it, the last applied value
    // stands (before reconciling, so that the user's spelling is kept when all else matches).
    for (const path of writeOnly.filter((entry) => entry.startsWith(`${key}.`))) {
      const applied = getPath(state, path);
      if (applied !== undefined && value !== undefined && value !== null) value = withPath(value, path.slice(key.length + 1), applied);
    }
    if (fromRecord) value = reconcile(declaration, key, previous[key], value);
    if (value !== undefined) outs[key] = value;
  }
  for (const key of declaration.idParts) if (outs[key] === undefined && state[key] !== undefined) outs[key] = state[key];
  for (const key of [...engineKeys(declaration), APPLIED_KEY]) if (state[key] !== undefined) outs[key] = state[key];
  // What tells this object from one re-made under its name, as the record now shows it (an answer
  // without it keeps the state's).
  const evidence = evidenceOf(declaration, record);
  if (evidence.length > 0) outs[EVIDENCE_KEY] = evidence;
  // The digest of the file the forge has, where a read hook fetched it, wins over the last upload's.
  for (const field of fileInputs(declaration))
    if (typeof projected[digestKey(field)] === "string") outs[digestKey(field)] = projected[digestKey(field)];
  return outs;
}

/** Inputs as read from the server, for import and refresh: the input fields that have a value. */
export function inputsOf(declaration: AnyDeclaration, outs: State): State {
  const inputs: State = {};
  for (const key of inputKeys(declaration)) {
    if (outs[key] !== undefined && outs[key] !== null) inputs[key] = outs[key];
  }
  return inputs;
}

/** The desired state with the record's id, once the forge has made the object. */
export function withRecordId(declaration: AnyDeclaration, desired: State, record: WireRecord | undefined): State {
  const state = { ...desired };
  const id = recordIdOf(declaration);
  if (id.output && isPlainObject(record) && record[id.wire] !== undefined) state[id.output] = record[id.wire];
  return state;
}

/** The key of a record among its kind (its `id`, or the declared wire field). */
export function recordKeyOf(declaration: AnyDeclaration, record: WireRecord): unknown {
  return record[recordIdOf(declaration).wire];
}

/** The value at a dotted wire path; null when an object on the way is null (no management project). */
function nestedValue(record: WireRecord, path: string): unknown {
  const value = getPath(record, path);
  if (value !== undefined) return value;
  let current: unknown = record;
  for (const step of path.split(".")) {
    if (current === null) return null;
    if (!isPlainObject(current)) return undefined;
    current = current[step];
  }
  return undefined;
}
