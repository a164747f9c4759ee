import { setTimeout as sleep } from "node:timers/promises";
import { ForgeApiError, isAnswerLost, isNotFound, parseRoute } from "../client";
import { sameValue } from "./compare";
import type { AnyDeclaration, Identity, ListRead, Route, State, WireRecord } from "./declaration";
import { hasIdentity, inputKeys, routeOf } from "./declaration";
import { InheritedObjectError, type AncestorHolding } from "./inherited";
import { getPath } from "./paths";
import { settledListing } from "./shared-listings";

/**
 * The ownership rule for creates, in one place: a create takes over an object only when it can
 * prove that this resource made it, and never revokes or deletes on inference. The client only
 * reports that a write's answer was lost (`isAnswerLost`); what follows is decided here.
 *
 * Evidence, per kind (docs/ownership.md has the table):
 * - **Before the create**, an object of the resource's unique identity (a label's name in its
 *   group) is looked up: one already there was not made by this create. The create fails naming
 *   its import id, and sends nothing.
 * - **After a lost answer** (a 502/503/504 or a dropped connection on the POST), nothing the forge
 *   shows proves who made an object that appeared meanwhile: another pipeline, stack or person may
 *   have made it with the same name at the same time ("it appeared after our request" is not
 *   proof). So an object found then is never adopted, changed, revoked or deleted: the create
 *   fails with an {@link UnprovenCreateError} naming the candidates' import ids and what to do.
 *   Only an object the forge records as made by another user is disproved, and ignored.
 * - **Nothing found** after a lost answer: the create is sent again (a few times, after growing
 *   pauses that let a slow forge finish the first). Where the forge refuses duplicates (a unique
 *   identity), a second object cannot come of it; for kinds nothing identifies, a forge that
 *   finishes the lost request after the look can leave a second object, and the error or the
 *   docs say how to find it.
 * - Kinds with no way to look (no identity, no listing): a lost answer is final.
 */
export type RecoveryPlan =
  | { kind: "none" }
  | {
      kind: "identity";
      /** Creates of one identity take turns in the provider process. */
      turn: () => Promise<string>;
      /** The object with this identity, or undefined. Fails with an InheritedObjectError when
       *  only an ancestor of the group holds it (`identity.inherited`): it is not the group's, and
       *  the forge refuses the create. */
      find: () => Promise<WireRecord | undefined>;
      /**
       * The look before the create, where creates share a listing of the parent: "free"
       * from the listing (`fromSharedListing`), or what {@link find} says. A listing that shows
       * the identity taken is never believed without `find`.
       */
      findBefore?: () => Promise<{ record: WireRecord | undefined; fromSharedListing: boolean }>;
    }
  | {
      kind: "newer";
      /** Creates of the kind under one parent take turns in the provider process (so that the
       *  listing before each is its own); the key names the parent by its id, however spelled. */
      turn: () => Promise<string>;
      /** Every record of the kind under the parent, as one read of the listing shows them (a hint: what it misses may be there). */
      list: () => Promise<WireRecord[]>;
      /** Every record of the kind under the parent, read until two listings agree: what it misses is not there ({@link settledListing}). */
      settled: () => Promise<WireRecord[]>;
      /** The record's key (its id). */
      key: (record: WireRecord) => string;
      /** Whether a record could be this create's (its name or content matches). */
      matches: (record: WireRecord) => boolean;
      /** Whether the forge records that another user made the record (disproof). */
      madeByOther: (record: WireRecord) => Promise<boolean>;
      /** The lost answer held the only copy of a secret (a token's value). */
      secretInAnswer: boolean;
    };

/** What the plan of a create may use: the engine's reads of the declaration. */
export interface RecoveryReads {
  /** The resource's generic read (its hook, route or listing); undefined when gone. */
  readRecord(state: State): Promise<WireRecord | undefined>;
  /** A route read with the state's path fields; a 404 is an error here. */
  get(route: Route, state: State): Promise<WireRecord>;
  /** Every record of a listing, path fields from the state, filtered by `query` when given. */
  list(route: ListRead["list"], state: State, query?: Record<string, unknown>): Promise<WireRecord[]>;
  /** A record's fields under TypeScript names (the declaration's projection). */
  project(record: WireRecord): State;
  /** The record's key among its kind (its id). */
  keyOf(record: WireRecord): string;
  /** The id of a group or project however the program spells it (`acme/platform` or `3`). */
  parentId(field: "group" | "project", value: unknown): Promise<unknown>;
  /** The id of the user the provider acts as. */
  currentUserId(): Promise<unknown>;
  /**
   * The parent's listing, whole, that a run's burst of creates shares for the look before a
   * create of `identity`; undefined when the create is to search on its own (the listing is not
   * read to its end yet, or this identity was looked up in it already).
   */
  sharedList?(route: ListRead["list"], state: State, identity: string): Promise<WireRecord[] | undefined>;
  /** For a kind whose reads under a group show its ancestors' objects: the ancestor that holds
   *  the object `lookup` finds in it (engine/inherited.ts). */
  heldByAncestor?(state: State, lookup: (inAncestor: State) => Promise<WireRecord | undefined>): Promise<AncestorHolding | undefined>;
}

/** The fields that name a parent (a group or project, by id or full path). */
const PARENT_FIELDS = new Set(["group", "project"]);

/**
 * How a create of `declaration` proves what it made, derived from its identity:
 * - a unique identity is looked up before the create (by `identity.find`, else the read when the
 *   id is made of inputs), unless the create takes over what is there (a setting, `takesOver`) or
 *   a create hook runs the rule itself (`ctx.createOwned`);
 * - no identity, with a search: a lost answer looks for new matching records;
 * - no identity, no search: a lost answer is final.
 */
export function recoveryPlan(declaration: AnyDeclaration, desired: State, reads: RecoveryReads): RecoveryPlan {
  const identity = declaration.identity;
  if (!hasIdentity(identity)) {
    const search = identity.search;
    if (!search) return { kind: "none" };
    const madeBy = search.madeBy;
    return {
      kind: "newer",
      turn: () => turnKey(declaration.name, String(search.list), parseRoute(search.list).parameters, desired, reads),
      list: () => reads.list(search.list, desired),
      settled: () => settledListing(declaration.name, () => reads.list(search.list, desired), reads.keyOf),
      key: reads.keyOf,
      matches: (record) => search.where(record, desired),
      madeByOther: async (record) => {
        const creator = madeBy ? getPath(record, madeBy) : undefined;
        if (creator === undefined || creator === null) return false;
        const me = await reads.currentUserId();
        return me !== undefined && String(creator) !== String(me);
      },
      secretInAnswer: (declaration.secretOutputs ?? []).some((field) => !inputKeys(declaration).includes(field)),
    };
  }
  if (declaration.setting || identity.takesOver || declaration.hooks?.create) return { kind: "none" };
  const find = identityFinder(declaration, identity, desired, reads);
  if (!find) return { kind: "none" };
  // The forge refuses a second object of an identity, however its parent is spelled: the turn
  // only spares a second create its conflict, and needs no request to resolve the parent.
  const key = JSON.stringify([declaration.name, identityKey(declaration, identity, desired)]);
  const findBefore = sharedIdentityLook(declaration, identity, desired, reads, key, find);
  return { kind: "identity", turn: async () => key, find, ...(findBefore ? { findBefore } : {}) };
}

/**
 * The look before a create through a listing the run's creates share (200 label creates
 * in about 210 requests, not 400, at any size of the parent), for identities looked up
 * in a listing. The forge refuses a
 * second object of an identity, so a listing a few seconds old that says "free" risks only that
 * refusal, which the create then checks with a fresh look; one that says "taken" is checked at
 * once. Either way a create adopts nothing it did not make.
 */
function sharedIdentityLook(
  declaration: AnyDeclaration,
  identity: Identity,
  desired: State,
  reads: RecoveryReads,
  key: string,
  find: () => Promise<WireRecord | undefined>,
): Extract<RecoveryPlan, { kind: "identity" }>["findBefore"] {
  const listFind = identity.find && "list" in identity.find ? identity.find : undefined;
  const sharedList = reads.sharedList;
  if (!listFind || !sharedList) return undefined;
  const matches = identityMatcher(declaration, identity, listFind.list, desired, reads);
  return async () => {
    const listing = await sharedList(listFind.list, desired, key);
    if (listing && !listing.some(matches)) return { record: undefined, fromSharedListing: true };
    return { record: await find(), fromSharedListing: false };
  };
}

/** Whether a record of a listing holds the identity of `desired` (the fields not in the listing's path). */
function identityMatcher(
  declaration: AnyDeclaration,
  identity: Identity,
  list: ListRead["list"],
  desired: State,
  reads: RecoveryReads,
): (record: WireRecord) => boolean {
  const inPath = new Set(parseRoute(list).parameters);
  const compared = identity.fields.filter((field) => !inPath.has(field));
  return (record) => {
    const found = reads.project(record);
    return compared.every((field) => sameIdentityValue(declaration, identity, field, desired[field], found[field]));
  };
}

/** A turn's key: the kind and what names the object or parent, with groups and projects by id. */
async function turnKey(kind: string, what: unknown, fields: readonly string[], state: State, reads: RecoveryReads): Promise<string> {
  const parents = await Promise.all(
    fields
      .filter((field) => PARENT_FIELDS.has(field))
      .map(async (field) => [field, await reads.parentId(field as "group" | "project", state[field])]),
  );
  return JSON.stringify([kind, what, Object.fromEntries(parents)]);
}

/** How the object of an identity is looked up, or undefined when nothing can (checked by a unit test). */
export function identityFinder(
  declaration: AnyDeclaration,
  identity: Identity,
  desired: State,
  reads: RecoveryReads,
): (() => Promise<WireRecord | undefined>) | undefined {
  const find = identity.find;
  if (find && !("list" in find)) {
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
    const matches = identityMatcher(declaration, identity, find.list, desired, reads);
    const query = find.search ? { search: desired[find.search] } : {};
    const inherited = identity.inherited;
    return async () => {
      const found = (await reads.list(find.list, desired, query)).filter(matches);
      if (!inherited || found.length === 0) return found[0];
      // The listing shows the ancestors' objects too: the group's own is the identity's object;
      // one only an ancestor holds is not, and no create can make one (inherited.ts).
      const ownQuery = { ...query, ...inherited.ownOnly };
      const own = (await reads.list(find.list, desired, ownQuery)).find(matches);
      if (own) return own;
      const holder = await reads.heldByAncestor?.(desired, async (inAncestor) =>
        (await reads.list(find.list, inAncestor, ownQuery)).find(matches),
      );
      throw new InheritedObjectError(declaration, "create", desired, holder);
    };
  }
  // The resource's own read, when the inputs alone address it: an id made of inputs, or a read
  // route whose path holds only inputs (an integration's slug is the route's, not the id's).
  const inputs = inputKeys(declaration);
  const read = declaration.read;
  const routeByInputs =
    !declaration.hooks?.read && !("list" in read) && parseRoute(routeOf(read)).parameters.every((name) => inputs.includes(name));
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

/** Describes records for messages: the import id of each. */
export interface RecoverySubject {
  declaration: AnyDeclaration;
  desired: State;
  importIdOf(record: WireRecord): string;
}

/** How often, and after which pauses, a create whose answer was lost and that made nothing visible is sent again. */
export interface ResendPolicy {
  /** Pauses before each look (and resend), in milliseconds: a slow forge may still finish the lost request. */
  pausesMs: readonly number[];
  /** Injected for tests. */
  pause?: (ms: number) => Promise<unknown>;
}

/** One second, then two, then four: about the time a gateway's lost request takes to land. */
export const DEFAULT_RESEND_POLICY: ResendPolicy = { pausesMs: [1_000, 2_000, 4_000] };

/**
 * Runs one create under its plan. `attempt` sends it once; when its answer is lost, the plan's
 * look decides: nothing there, send again; something there, fail naming it (never adopt it).
 */
export async function createOwned<T>(
  plan: RecoveryPlan,
  subject: RecoverySubject,
  attempt: () => Promise<T>,
  resend: ResendPolicy = DEFAULT_RESEND_POLICY,
): Promise<T> {
  if (plan.kind === "none") return attempt();
  const pause = resend.pause ?? sleep;
  const look = plan.kind === "identity" ? identityLook(plan, subject) : newerLook(plan);
  return inTurn(await plan.turn(), async () => {
    const candidatesNow = await look.before();
    if (candidatesNow === REFUSED) return attempt();
    for (let sent = 0; ; sent++) {
      try {
        return await attempt();
      } catch (error) {
        // Refused after a shared listing said the identity was free: the listing may be older
        // than an object someone made meanwhile. A fresh look names it; otherwise the refusal stands.
        if (candidatesNow === FROM_SHARED_LISTING && sent === 0 && error instanceof ForgeApiError && error.status < 500) {
          const existing = await look.after();
          if (existing.length > 0) throw new ExistingObjectError(subject, existing);
          throw error;
        }
        // A lost answer, or a resend the forge refuses (its conflict may be the first request's work).
        const lost = isAnswerLost(error);
        if (!lost && !(sent > 0 && error instanceof ForgeApiError && error.status < 500)) throw error;
        if (lost && sent < resend.pausesMs.length) await pause(resend.pausesMs[sent]!);
        const found = await look.after();
        if (found.length > 0) throw new UnprovenCreateError(subject, found, error, plan.kind === "newer" && plan.secretInAnswer);
        if (!lost || sent >= resend.pausesMs.length) throw error;
      }
    }
  });
}

/** The two looks of a plan: before the first attempt, and after a lost answer (the candidates). */
interface Look {
  /** Fails when the identity is taken; REFUSED when the forge refuses the read; FROM_SHARED_LISTING
   *  when a listing the run's creates share said it was free. */
  before(): Promise<typeof REFUSED | typeof FROM_SHARED_LISTING | undefined>;
  after(): Promise<WireRecord[]>;
}

function identityLook(plan: Extract<RecoveryPlan, { kind: "identity" }>, subject: RecoverySubject): Look {
  return {
    before: async () => {
      const looked = await unlessRefused(plan.findBefore ?? (async () => ({ record: await plan.find(), fromSharedListing: false })));
      if (looked === REFUSED) return REFUSED;
      if (looked.record) throw new ExistingObjectError(subject, [looked.record]);
      return looked.fromSharedListing ? FROM_SHARED_LISTING : undefined;
    },
    after: async () => {
      const found = await plan.find();
      return found ? [found] : [];
    },
  };
}

function newerLook(plan: Extract<RecoveryPlan, { kind: "newer" }>): Look {
  let known = new Set<string>();
  return {
    before: async () => {
      const listed = await unlessRefused(plan.list);
      if (listed === REFUSED) return REFUSED;
      known = new Set(listed.map(plan.key));
      return undefined;
    },
    after: async () => {
      // Settled: a listing that shifted while it was read could miss the create's own object, and
      // the create would then be sent again (a duplicate). A shift in the listing before only adds
      // a candidate, which fails the create naming it: the safe side.
      const fresh = (await plan.settled()).filter((record) => !known.has(plan.key(record)) && plan.matches(record));
      const disproved = await Promise.all(fresh.map(plan.madeByOther));
      return fresh.filter((_, index) => !disproved[index]);
    },
  };
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
        `add the resource option { import: "${ids[0]}" } with inputs that match it (Pulumi YAML: options: import: ${ids[0]}); otherwise give this resource another identity. ` +
        `If an earlier run was killed while creating this resource, run \`npx forge-recover\` first (docs/guides/pipelines-and-locks.md, "A killed run").`,
    );
    this.name = "ExistingObjectError";
    this.candidates = ids;
  }
}

/**
 * A create whose answer was lost found objects that could be its own, and nothing proves which
 * (or whether any) is: another pipeline, stack or person may have made them at the same time. It
 * adopted, revoked and deleted nothing.
 */
export class UnprovenCreateError extends Error {
  readonly candidates: string[];
  constructor(subject: RecoverySubject, records: WireRecord[], cause: unknown, secretInAnswer: boolean) {
    const ids = records.map((record) => subject.importIdOf(record));
    const name = subject.declaration.name;
    const quoted = ids.map((id) => `"${id}"`).join(", ");
    const reason = cause instanceof Error ? cause.message : String(cause);
    const what =
      ids.length === 1
        ? `an object that could be this resource's is there now (import id ${quoted})`
        : `${ids.length} objects that could be this resource's are there now (import ids ${quoted})`;
    const decide = secretInAnswer
      ? `Its secret value was only in the lost answer, so it cannot be adopted with its value. If one of them is this resource's, revoke it ` +
        `(delete it on the forge), then run the update again; if none is, run the update again (if the forge's limit then refuses the create, ` +
        `one of ${quoted} is in the way: revoke the one nobody uses).`
      : `If ${ids.length === 1 ? "it is" : "one of them is"} this resource's, add the resource option { import: "<id>" } with inputs that match it ` +
        `(Pulumi YAML: options: import: <id>) and run the update again; if not, run the update again as it is` +
        (subject.declaration.identity && hasIdentity(subject.declaration.identity) ? ` after giving this resource another identity.` : `.`);
    super(
      `${name}: the answer to the create was lost (${reason}), and ${what}. Nothing proves that this create made ` +
        `${ids.length === 1 ? "it" : "any of them"}: another pipeline, stack or person may have made ${ids.length === 1 ? "it" : "them"} at the same time. ` +
        `Nothing was adopted, revoked or deleted. ${decide}`,
      { cause },
    );
    this.name = "UnprovenCreateError";
    this.candidates = ids;
  }
}

const REFUSED = Symbol("refused");
/** The look before a create trusted a listing the run's creates share (it said "free"). */
const FROM_SHARED_LISTING = Symbol("from a shared listing");

/**
 * The read taken before the create. The forge may refuse it (an edition without the feature, a
 * token that may create but not list, a parent that does not exist): the create is then sent
 * without recovery, so that its own answer says what is wrong, and a lost answer to it is final.
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
export async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
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
