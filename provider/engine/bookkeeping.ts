/**
 * Every key a property bag holds besides a declaration's inputs and outputs, in one place, and
 * the one function that turns a property bag of either face into what the engine reads
 * ({@link engineState}): the dynamic face and the CLIs that read states (forge-drift,
 * forge-recover) go through it.
 *
 * - The engine's bookkeeping: kept in the state under `__` names, which the Pulumi CLI leaves out
 *   of what it shows (previews, diffs, `pulumi stack output`); never properties of the object.
 * - The dynamic face's keys: each of its property bags carries the serialized provider, and the
 *   `import` resource option arrives as an input (faces/dynamic.ts). The engine never reads them.
 */

/** A property bag: inputs, outputs and bookkeeping by name (engine/declaration.ts's `State`). */
type Bag = Record<string, unknown>;

/** Where the state lists the inputs the program set at the last create or update, so that an
 *  input dropped since is told from one never set. */
export const APPLIED_KEY = "__appliedInputs";

/** Where a setting keeps the values it found before it was created. */
export const RESTORE_KEY = "__restore";

/** Where the state keeps the evidence the forge gave of the object (engine/evidence.ts). */
export const EVIDENCE_KEY = "__evidence";

/** Where the SHA-256 of a file input is kept. */
export function digestKey(field: string): string {
  return `${field}Sha256`;
}

/**
 * Where `check` stamps a new resource's inputs with the time just before its create: a create a
 * killed run left pending keeps it in the state, and `forge-recover` imports only objects made
 * after it (see cli/recover.ts).
 */
export const CLAIM_KEY = "__createdAfter";

/** Where the inputs of an object read by its import id alone say that no program has matched it
 *  yet (engine/imports.ts). */
export const IMPORTED_KEY = "__importedAs";

/**
 * Where each resource's outputs record the forge it was made and last read on (the client's base
 * URL): the tools that read exported states (forge-drift, forge-adopt --stacks-file,
 * forge-recover) judge each resource on its own forge, whatever the stack's config or the
 * environment of its last run said (provider/holdings).
 */
export const FORGE_KEY = "__forge";

/** Keys the engine adds to the inputs it keeps; never user inputs. */
export const RESERVED_KEYS = [CLAIM_KEY, IMPORTED_KEY];

/** A property bag without the keys of {@link RESERVED_KEYS}, and without undefined values. */
export function withoutReserved(bag: Bag): Bag {
  const result: Bag = {};
  for (const [key, value] of Object.entries(bag)) {
    if (!RESERVED_KEYS.includes(key) && value !== undefined) result[key] = value;
  }
  return result;
}

/** The names the bookkeeping had in states written before version 0.9: read, never written. */
const LEGACY_BOOKKEEPING: Readonly<Record<string, string>> = { appliedInputs: APPLIED_KEY, restore: RESTORE_KEY };

/** A state as this version keeps it: bookkeeping under an earlier name moved to its own. */
export function currentBookkeeping(state: Bag): Bag {
  if (!Object.keys(LEGACY_BOOKKEEPING).some((legacy) => legacy in state)) return state;
  const upgraded: Bag = {};
  for (const [key, value] of Object.entries(state)) {
    const current = LEGACY_BOOKKEEPING[key];
    if (current === undefined) upgraded[key] = value;
    else if (state[current] === undefined) upgraded[current] = value;
  }
  return upgraded;
}

/** Where every property bag of the dynamic face carries its serialized provider. */
export const PROVIDER_KEY = "__provider";

/** Where the dynamic face's `import` resource option arrives, as an input. */
export const IMPORT_ID_KEY = "importId";

/** The keys of the dynamic face in a property bag: never inputs of a declaration. */
const DYNAMIC_KEYS: readonly string[] = [PROVIDER_KEY, IMPORT_ID_KEY];

/**
 * A property bag of either face (what a face receives, a state's inputs or outputs) as the
 * engine reads it: without the dynamic face's keys, and with its bookkeeping under this version's
 * names.
 */
export function engineState(bag: Bag | undefined): Bag {
  const result: Bag = {};
  for (const [key, value] of Object.entries(bag ?? {})) if (!DYNAMIC_KEYS.includes(key)) result[key] = value;
  return currentBookkeeping(result);
}
