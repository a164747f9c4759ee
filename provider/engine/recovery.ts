import { ForgeApiError, isNotFound, parseRoute } from "../client";
import { sameValue } from "./compare";
import type { AnyDeclaration, Identity, Route, State, WireRecord } from "./declaration";
import { hasIdentity, inputKeys, routeOf } from "./declaration";

/**
 * Lost-create recovery under the ownership rule: a create whose answer was lost (a dropped
 * connection, a 502 after the work) takes over an object only when it can prove that it made it.
 *
 * - **Identity** (a label's name in its group, an agent's name in its project, a member's user):
 *   the object is looked up by its identity before the first attempt. One that is there already
 *   is the forge's conflict: the create fails, naming its import id, and touches nothing. One
 *   found after a lost answer was not there before, and creates of one identity take turns in the
 *   provider process, so this create made it.
 * - **Newer** (tokens, keys, snippets, broadcast messages, clusters: nothing tells them apart):
 *   creates of one kind and parent take turns in the provider process (Pulumi creates resources
 *   in parallel, all in one process), the listing's keys are taken inside the turn, and after a
 *   lost answer exactly one new record that matches is this create's. None: the create is sent
 *   again. Several: fail, listing them, nothing deleted.
 */
export type RecoveryPlan =
  | { kind: "none" }
  | {
      kind: "identity";
      /** Creates with the same key take turns. */
      turn: string;
      /** The object with this identity, or undefined. */
      find: () => Promise<WireRecord | undefined>;
    }
  | {
      kind: "newer";
      turn: string;
      /** Every record of the kind under the parent. */
      list: () => Promise<WireRecord[]>;
      /** The record's key (its id). */
      key: (record: WireRecord) => string;
      /** Whether a new record could be this create's (its name or content matches). */
      matches: (record: WireRecord) => boolean;
      /** Deletes the record this create proved its own and sends the create again (the lost
       *  answer held the only copy of a secret); absent: the record is taken as it is. */
      discard?: (record: WireRecord) => Promise<void>;
    };

/** What the plan of a create may use: the engine's reads of the declaration. */
export interface RecoveryReads {
  /** The resource's generic read (its hook, route or listing); undefined when gone. */
  readRecord(state: State): Promise<WireRecord | undefined>;
  /** A route read with the state's path fields; a 404 is an error here. */
  get(route: Route, state: State): Promise<WireRecord>;
  /** Every record of a listing, path fields from the state, filtered by `query` when given. */
  list(route: Route, state: State, query?: Record<string, unknown>): Promise<WireRecord[]>;
  /** A record's fields under TypeScript names (the declaration's projection). */
  project(record: WireRecord): State;
  /** The record's key among its kind (its id). */
  keyOf(record: WireRecord): string;
  /** Deletes a record this create made (to send it again). */
  remove?(record: WireRecord): Promise<void>;
}

/**
 * How a create of `declaration` proves what it made, derived from its identity:
 * - a unique identity is looked up before the create (by `identity.find`, else the read when the
 *   id is made of inputs), unless the create takes over what is there (a setting, `takesOver`) or
 *   a create hook runs the rule itself (`ctx.createOwned`);
 * - no identity, with a search: creates take turns and the one new matching record is this create's;
 * - no identity, no search: the create is never sent twice.
 */
export function recoveryPlan(declaration: AnyDeclaration, desired: State, reads: RecoveryReads): RecoveryPlan {
  const identity = declaration.identity;
  if (!hasIdentity(identity)) {
    const search = identity.search;
    if (!search) return { kind: "none" };
    return {
      kind: "newer",
      turn: `${declaration.name} ${search.list} ${JSON.stringify(pathValues(search.list, desired))}`,
      list: () => reads.list(search.list, desired),
      key: reads.keyOf,
      matches: (record) => search.where(record, desired),
      ...(search.discardFound && reads.remove ? { discard: reads.remove } : {}),
    };
  }
  if (declaration.setting || identity.takesOver || declaration.hooks?.create) return { kind: "none" };
  const find = identityFinder(declaration, identity, desired, reads);
  if (!find) return { kind: "none" };
  return { kind: "identity", turn: `${declaration.name} ${JSON.stringify(identityKey(declaration, identity, desired))}`, find };
}

/** How the object of an identity is looked up, or undefined when nothing can (checked by a unit test). */
export function identityFinder(declaration: AnyDeclaration, identity: Identity, desired: State, reads: RecoveryReads): (() => Promise<WireRecord | undefined>) | undefined {
  const find = identity.find;
  if (typeof find === "string") {
    return async () => {
      try {
        return await reads.get(find, desired);
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    };
  }
  if (find) {
    const inPath = new Set(parseRoute(find.list).parameters);
    const compared = identity.fields.filter((field) => !inPath.has(field));
    const query = find.search ? { search: desired[find.search] } : undefined;
    return async () =>
      (await reads.list(find.list, desired, query)).find((record) => {
        const found = reads.project(record);
        return compared.every((field) => sameIdentityValue(declaration, identity, field, desired[field], found[field]));
      });
  }
  // The resource's own read, when the inputs alone address it: an id made of inputs, or a read
  // route whose path holds only inputs (an integration's slug is the route's, not the id's).
  const inputs = inputKeys(declaration);
  const read = declaration.read;
  const routeByInputs = !declaration.hooks?.read && !(typeof read === "object" && "list" in read) && parseRoute(routeOf(read)).parameters.every((name) => inputs.includes(name));
  if (!routeByInputs && !declaration.idParts.every((part) => inputs.includes(part))) return undefined;
  return () => reads.readRecord(desired);
}

/** Two values of an identity field name one object: by the field's meaning, and regardless of case where the forge ignores it. */
export function sameIdentityValue(declaration: AnyDeclaration, identity: Identity, field: string, a: unknown, b: unknown): boolean {
  if (identity.ignoreCase?.includes(field) && typeof a === "string" && typeof b === "string") [a, b] = [a.toLowerCase(), b.toLowerCase()];
  return sameValue(declaration, field, a, b);
}

/** The identity's values as one comparable key (normalised, lower-cased where the forge ignores case). */
export function identityKey(declaration: AnyDeclaration, identity: Identity, state: State): unknown[] {
  return identity.fields.map((field) => {
    const normalize = declaration.normalize?.[field];
    let value = normalize && state[field] !== undefined ? normalize(state[field]) : state[field];
    if (typeof value === "string") value = value.trim();
    return identity.ignoreCase?.includes(field) && typeof value === "string" ? value.toLowerCase() : value;
  });
}

function pathValues(route: Route, state: State): unknown[] {
  return parseRoute(route).parameters.map((field) => state[field]);
}

/** What a finder hands the retry layer: the record this create made, or undefined to send again. */
export type LostCreateFinder = () => Promise<WireRecord | undefined>;

/** Describes records for messages: the import id of each. */
export interface RecoverySubject {
  declaration: AnyDeclaration;
  desired: State;
  importIdOf(record: WireRecord): string;
}

/**
 * Runs one create under its plan: `attempt` sends it, passing the finder on to the request
 * (the retry layer calls it after an ambiguous failure, before sending again).
 */
export async function createOwned<T>(plan: RecoveryPlan, subject: RecoverySubject, attempt: (finder?: LostCreateFinder) => Promise<T>): Promise<T> {
  if (plan.kind === "none") return attempt();
  if (plan.kind === "identity") {
    return inTurn(plan.turn, async () => {
      const before = await unlessRefused(plan.find);
      if (before === REFUSED) return attempt();
      if (before) throw new ExistingObjectError(subject, [before]);
      return attempt(plan.find);
    });
  }
  return inTurn(plan.turn, async () => {
    const listed = await unlessRefused(plan.list);
    if (listed === REFUSED) return attempt();
    const before = new Set(listed.map(plan.key));
    return attempt(async () => {
      const mine = (await plan.list()).filter((record) => !before.has(plan.key(record)) && plan.matches(record));
      if (mine.length > 1) throw new UnprovenCreateError(subject, mine);
      const [found] = mine;
      if (!found || !plan.discard) return found;
      await plan.discard(found);
      before.add(plan.key(found));
      return undefined;
    });
  });
}

/** A create found its object already there, made by something else: it touched nothing. */
export class ExistingObjectError extends Error {
  readonly candidates: string[];
  constructor(subject: RecoverySubject, records: WireRecord[]) {
    const ids = records.map((record) => subject.importIdOf(record));
    const name = subject.declaration.name;
    super(
      `${name}: ${ids.length === 1 ? `"${ids[0]}" already exists` : `${ids.map((id) => `"${id}"`).join(", ")} already exist`} on the forge, and this ` +
        `resource did not make it (it was there before the create). Nothing was changed. To manage it with this resource, ` +
        `add the resource option { import: "${ids[0]}" } with inputs that match it; otherwise give this resource another identity. ` +
        `If an earlier run was killed while creating this resource, run \`npx forge-recover\` first (README, "Pipelines").`,
    );
    this.name = "ExistingObjectError";
    this.candidates = ids;
  }
}

/** A create whose answer was lost found several new objects that could be its own: it cannot
 *  tell which, so it takes none and deletes none. */
export class UnprovenCreateError extends Error {
  readonly candidates: string[];
  constructor(subject: RecoverySubject, records: WireRecord[]) {
    const ids = records.map((record) => subject.importIdOf(record));
    super(
      `${subject.declaration.name}: the answer to the create was lost, and ${ids.length} objects that could be this ` +
        `resource's appeared meanwhile (import ids: ${ids.map((id) => `"${id}"`).join(", ")}); something else created ` +
        `objects of this kind at the same time, so none of them is proven to be this resource's. Nothing was adopted or ` +
        `deleted. Decide which one is this resource's and add the resource option { import: "<id>" } (remove the ` +
        `others by hand if nobody needs them), then run the update again.`,
    );
    this.name = "UnprovenCreateError";
    this.candidates = ids;
  }
}

const REFUSED = Symbol("refused");

/**
 * The read taken before the create. The forge may refuse it (an edition without the feature, a
 * token that may create but not list, a parent that does not exist): the create is then sent
 * without recovery, so that its own answer says what is wrong, and an ambiguous failure of it is
 * final rather than resolved by guessing.
 */
async function unlessRefused<T>(read: () => Promise<T>): Promise<T | typeof REFUSED> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ForgeApiError) return REFUSED;
    throw error;
  }
}

const turns = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier work of the same key has settled (a per-key queue). */
async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = turns.get(key) ?? Promise.resolve();
  const current = previous.then(work, work);
  const settled = current.then(
    () => undefined,
    () => undefined,
  );
  turns.set(key, settled);
  try {
    return await current;
  } finally {
    if (turns.get(key) === settled) turns.delete(key);
  }
}
