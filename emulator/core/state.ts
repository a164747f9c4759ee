import type { GroupRecord, ProjectRecord, UserRecord } from "./records";
import { defaultSettings, type InstanceSettings } from "./settings";

/** Marks state files so that a file of another shape is refused rather than misread. */
const STATE_FORMAT = "forge-emulator-state/1";

/**
 * The part of the state every resource relies on: ids, instance settings and the access
 * entities (users, groups, projects). `sequences` holds the last id handed out per kind.
 */
// A type rather than an interface, so that a state with resource collections stays assignable.
type CoreState = {
  format: typeof STATE_FORMAT;
  sequences: Record<string, number>;
  settings: InstanceSettings;
  users: UserRecord[];
  groups: GroupRecord[];
  projects: ProjectRecord[];
};

/** A resource's state: named collections of plain records (the keys are the state file's keys). */
export type Collections = Record<string, unknown[]>;

/**
 * The whole state of the emulated instance: the core part plus the collections of every
 * resource. Plain JSON, so that it can be persisted and restored as is.
 */
export type StateData<C = Record<string, unknown>> = CoreState & C;

/** A state with nothing in it but the given (empty) resource collections. */
export function emptyState<C extends Collections>(collections: C): StateData<C> {
  return {
    format: STATE_FORMAT,
    sequences: {},
    settings: defaultSettings(),
    users: [],
    groups: [],
    projects: [],
    ...structuredClone(collections),
  };
}

/**
 * Parses a persisted state, filling collections (and settings) added since it was written.
 * Throws, with the reason, on a text that is not a state of this shape (not JSON, another
 * format, ids that are not integers, a collection that is not a list of records), rather than
 * serve a state the models would misread.
 */
export function parseState<C extends Collections>(text: string, collections: C): StateData<C> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("not valid JSON");
  }
  if (!isRecord(data)) throw new Error("not an emulator state file (not a JSON object)");
  if (data["format"] !== STATE_FORMAT) throw new Error(`not an emulator state file (format ${String(data["format"])})`);
  const sequences = data["sequences"] ?? {};
  if (!isRecord(sequences) || !Object.values(sequences).every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) {
    throw new Error("sequences must map each kind to its last id (an integer)");
  }
  if (data["settings"] !== undefined && !isRecord(data["settings"])) throw new Error("settings must be an object");
  for (const key of ["users", "groups", "projects", ...Object.keys(collections)]) {
    const list = data[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every(isRecord)) throw new Error(`${key} must be a list of records`);
  }
  for (const key of ["users", "groups", "projects"]) {
    if (!((data[key] ?? []) as Record<string, unknown>[]).every((record) => Number.isSafeInteger(record["id"]))) {
      throw new Error(`every record of ${key} needs an integer id`);
    }
  }
  const state = data as Partial<StateData<C>>;
  return { ...emptyState(collections), ...state, settings: { ...defaultSettings(), ...state.settings } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The live state and its ids. Models read `database.state` at each use (never a copy of one of
 * its arrays), so replacing the state (reset, load) needs no rewiring.
 */
export class Database {
  state: StateData;
  /** Base URL records embed (`web_url` and similar); set by the server once it listens. */
  baseUrl = "http://127.0.0.1";

  constructor(state: StateData) {
    this.state = state;
  }

  /** Hands out the next id of `kind` (ids are per kind and start at 1). */
  nextId(kind: string): number {
    const next = (this.state.sequences[kind] ?? 0) + 1;
    this.state.sequences[kind] = next;
    return next;
  }

  /** Takes a copy of `state` as the live state (reset to the seed, restore a snapshot). */
  replaceState(state: StateData): void {
    this.state = structuredClone(state);
  }
}
