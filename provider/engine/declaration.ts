import { z } from "zod";
import { type Availability, describeOfferings, describeTier } from "../../api/editions";
import type { Endpoint, ListOptions } from "../client";
import { digestKey, EVIDENCE_KEY, RESTORE_KEY } from "./bookkeeping";

/** A route: an entry of the route table (api/routes.ts), such as `routes.groupLabels.update`. */
export type Route = Endpoint;

/** A record as the API sends it (snake_case keys). */
export type WireRecord = Record<string, unknown>;

/** The state of one resource as the engine sees it: inputs and outputs by TypeScript name. */
export type State = Record<string, unknown>;

/** Reading one object through a listing, for APIs that have no single-object read. */
export interface ListRead {
  list: Endpoint<"GET">;
  /** True for the element of the listing that is this resource. */
  where: (record: WireRecord, state: State) => boolean;
}

/**
 * How a create whose answer was lost looks for what it may have made, for objects that nothing in
 * the program identifies (no name, or a name that need not be unique): the listing is read just
 * before the create, and after a lost answer the new records that `where` matches are candidates.
 * A candidate is never adopted (nothing proves who made it, engine/recovery.ts): the create fails
 * naming them; with none, it is sent again. One more GET per create.
 */
export interface LostCreateSearch {
  list: Endpoint<"GET">;
  /** True for a record that could be this create's (its name or content matches). */
  where: (record: WireRecord, state: State) => boolean;
  /** Where the record names the user who made it (`created_by_user_id`, `user.id`): a record
   *  another user made is not a candidate (the only evidence the forge gives). */
  madeBy?: string;
}

/**
 * What makes an object of the resource one of a kind on the forge: the inputs that name it (a
 * label's group and name). Read by the engine (a create refuses an object of its identity that is
 * already there, and one found after a lost answer is its own: engine/recovery.ts), by the policy
 * pack (two resources of a program naming one object) and by the docs.
 */
export interface Identity {
  /** The inputs that together name one object, compared by the declaration's `normalize`. */
  fields: string[];
  /** Of those, the ones the forge compares regardless of case (a Geo site's name). */
  ignoreCase?: string[];
  /** How messages name the object: `the label "bug" of group "acme"`. */
  describe(state: State): string;
  /** Where an object of this identity is looked up when the resource's read cannot (its id holds
   *  a server id): a route read by the inputs, or a listing whose records are matched on the
   *  identity's fields that are not in its path (`search` names the identity field whose value
   *  the listing's `search` filter takes: one page instead of all, the exact match still
   *  decides). Default: the resource's read. */
  find?: Endpoint<"GET"> | { list: Endpoint<"GET">; search?: string };
  /** Why a create writes over an object of this identity that is already there (an avatar is a
   *  field of its group). Without it, a create refuses one and names its import id; a
   *  `setting` always takes over (and restores on delete). */
  takesOver?: string;
  /**
   * The forge's reads under a group show its ancestors' objects of the kind too, and it keeps the
   * identity unique across a group and its ancestors (a label of `acme` is read, though not
   * changed or deleted, through `acme/platform`). `parent` is the field that names the group;
   * `ownOnly` the parameters that keep a read or listing to the group's own objects. The
   * resource's reads send them, so that no state takes an ancestor's object for its group's;
   * a create, import, update or delete that meets an ancestor's object fails naming its import
   * id in its own group (engine/inherited.ts). The identity's `find` is a listing that shows the
   * ancestors' objects, so that a name an ancestor holds is found before the create.
   */
  inherited?: { parent: string; ownOnly: Record<string, unknown> };
  /**
   * Record fields the forge gives an object that one re-made under the same identity cannot
   * share (entry ids, creation time), as wire paths (`deploy_access_levels[].id` takes the id of
   * each element): for kinds whose address is a name or a parent. The state keeps their values
   * (engine/evidence.ts); a read that finds none of them in common reads the object as gone and
   * the one there as someone else's, which an update or a delete leaves alone.
   */
  evidence?: string[];
}

/** A resource whose objects nothing in the program names uniquely: why, and how a create whose
 *  answer was lost finds its own (absent: the create is never sent twice). */
export interface NoIdentity {
  none: string;
  search?: LostCreateSearch;
}

/**
 * A limit of the forge on how many objects of the kind one parent holds (two active tokens per
 * agent). The policy pack refuses a program over it, before any request; the number comes from
 * `api/`.
 */
export interface ParentLimit {
  /** The policy's name, as users configure it (`cluster-agent-token-limit`). */
  policy: string;
  /** The inputs that name the parent, compared by the declaration's `normalize`. */
  per: string[];
  max: number;
  /** Only objects for which this holds count (primary Geo sites). */
  counts?: (state: State) => boolean;
  /** The objects and their parent in the policy's words: `active token(s)`, `a cluster agent`,
   *  `agent 7 of project "acme"`. */
  what: { one: string; many: string };
  scope: string;
  parent(state: State): string;
  /** What the user does about it. */
  advice: string;
}

/**
 * A request as a declaration writes it: the bare route (`routes.groups.get`), or the route with
 * how the engine sends it. Path parameters come from state fields of the same name; the body
 * follows the method (query for GET/DELETE, JSON otherwise).
 */
export type Request<R extends Route = Route> = R | RouteOptions<R>;

/** A read: a GET route, or a listing. */
export type ReadRequest = Request<Endpoint<"GET">> | ListRead;

export interface RouteOptions<R extends Route = Route> {
  route: R;
  /** Statuses besides 2xx that mean success (`304`: already subscribed). */
  accept?: number[];
  /**
   * The inputs the request carries. A create sends every input the program sets (`"set"`), an
   * update the changed ones (`"changed"`); `"set"` on an update is for an API that wants the
   * whole object on each write, `"none"` for a request that takes no parameters.
   */
  sends?: "set" | "changed" | "none";
  /** Inputs sent on every request of the route, changed or not (`active` on each PATCH). */
  always?: string[];
  /** Constant fields of the body: a delete that is a write sends `{ active: false }`. */
  body?: Record<string, unknown>;
  /** Inputs the route does not take. On create: written with the update route as soon as the
   *  object exists, when the program sets them. */
  omit?: string[];
  /** Wire names that differ on this route: `{ name: "new_name" }`. */
  names?: Record<string, string>;
  /** On a read: the object exists only while this holds for its record (a disabled integration
   *  reads as gone). */
  exists?: (record: WireRecord) => boolean;
  /** On a read by record id: the listing of the object's parent, whose pages the reads of many
   *  objects in one run share (engine/shared-listings.ts); the record is found by its id. */
  sharedListing?: Endpoint<"GET">;
  /** The answer is not the whole object (or not its shape): the object is read after the write. */
  readBack?: boolean;
  /** Output fields only this route's answer carries (a token's value): kept from state after. */
  answerOnly?: string[];
  /** A create that schedules work: the engine reads until it is done (see {@link AwaitState}). */
  await?: AwaitState;
}

/** The route of a request. */
export function routeOf<R extends Route>(request: Request<R>): R {
  return "route" in request ? request.route : request;
}

/** The options of a request (none for a bare route). */
export function optionsOf(request: Request | undefined): Omit<RouteOptions, "route"> {
  return request === undefined || !("route" in request) ? {} : request;
}

export interface CallOptions {
  acceptStatuses?: number[];
}

/** Where a hook says what it is doing: Pulumi's log in the provider process. */
export type Logger = (message: string) => void;

/** What a declaration's hooks can use: they send their requests through `call` and `list`,
 *  each naming an entry of the route table, as the engine does. */
export interface OperationContext {
  declaration: AnyDeclaration;
  /** Progress and notices for the run's output. */
  log: Logger;
  /** The generic request of a route, with path fields from `state` and `params` as wire params;
   *  answers the body. */
  call<T = unknown>(route: Route, state: State, params?: Record<string, unknown>, options?: CallOptions): Promise<T>;
  /** Every element of a listing (all its pages), with path fields from `state` and `params` as
   *  wire params. */
  list<T = WireRecord>(route: Endpoint<"GET">, state: State, params?: Record<string, unknown>, options?: ListOptions): Promise<T[]>;
  /** The generic read of this resource (its `read` route or listing); undefined when gone. */
  readRecord(state: State): Promise<WireRecord | undefined>;
  /** For a create hook that resolves the object's identity itself (a member's user id): runs
   *  `attempt` under the ownership rule (recovery.ts) for the object `state` names by its id
   *  parts: fails without sending when it exists already, and after a lost answer sends again
   *  only when nothing is there. */
  createOwned<T>(state: State, attempt: () => Promise<T>): Promise<T>;
}

/**
 * Named overrides for the places where an API is not generic. Each replaces one step of the
 * generic path and nothing else; a declaration without hooks is fully generic.
 */
export interface ResourceHooks {
  /** Replaces the create request; returns the created record. */
  create?(ctx: OperationContext, state: State): Promise<WireRecord>;
  /** Replaces the read request; undefined means the object is gone. */
  read?(ctx: OperationContext, state: State): Promise<WireRecord | undefined>;
  /** Replaces the update request for the changed fields; returns the record (or undefined to read it back). */
  update?(ctx: OperationContext, state: State, changed: string[], olds: State): Promise<WireRecord | undefined>;
  /** Replaces the delete request. A 404 is treated as already gone by the caller. */
  delete?(ctx: OperationContext, state: State): Promise<void>;
  /** Adds or rewrites output fields after the generic projection of a record. */
  mapRecord?(record: WireRecord, state: State): State;
}

/**
 * A list input whose elements the API changes one by one (nested attributes, file actions)
 * rather than as a whole: the update sends only the changed elements, in the form `style` says.
 */
export interface NestedCollection {
  /** The identity of an element as the user means it: a grantee (`user:5`), a file's path. */
  key(element: State): string;
  /** What an element means, for comparisons: server ids and descriptions left out, defaults filled in. */
  meaning(element: State): unknown;
  /**
   * `nested-attributes`: changed elements with their server `id`, new ones without, removed ones
   * as `{id, _destroy: true}` (the live record gives the ids).
   * `fileActions`: `{action: create|update|delete|move, ...}` per element, computed from the
   * last applied list; an element whose content is unchanged under a new key is a `move`. Its
   * `keyField` is the element field that holds the key (`filePath`); a move names the old key in
   * `previousKeyField` (default `previous_<key>`).
   */
  style: "nested-attributes" | { fileActions: { keyField: string; previousKeyField?: string } };
}

/**
 * An asynchronous create: the API schedules the work and the engine polls the read until a
 * field of the record reaches a final value, logging each new value as progress.
 */
export interface AwaitState {
  /** The output field (TypeScript name) that tells the progress, e.g. `state`. */
  field: string;
  /** Values that mean the work is done. */
  done: readonly unknown[];
  /** Values that mean it failed: create fails with the record's `reasonField`. */
  failed?: readonly unknown[];
  reasonField?: string;
  /** How long to wait before failing (default 15 minutes) and between reads (default 2 s). */
  timeoutMs?: number;
  intervalMs?: number;
  /** A boolean input that, set to false, returns as soon as the work is scheduled. */
  skipInput?: string;
}

/**
 * A resource that holds up to two credentials of another kind, `current` and `previous`, and
 * rotates them on a schedule or when its inputs change (engine/rotation.ts). Its parent is the
 * credential's id parts but the credential's own id; its listing, the credential's identity search.
 */
export interface Rotation {
  /** The credential's kind: its create, read, delete and ownership rules make and revoke each one. */
  of: AnyDeclaration;
  /** One credential in messages: `token`, `key`. */
  noun: string;
}

/** How a field is written on the wire and read back (its value, not its name). */
export interface WireFormat {
  toWire(value: unknown): unknown;
  fromWire(value: unknown): unknown;
}

/** A hint added to an API error's message when it matches: the fix a user needs. */
export interface ErrorHint {
  status: number;
  /** Only when this holds for the desired state (default: always). */
  when?: (state: State) => boolean;
  hint: string;
}

/**
 * One resource of the API, declared as data. The engine runs its life cycle; each face serves it
 * (a dynamic class, a type of the provider plugin); the contract tests and the policy pack read
 * it too.
 */
export interface ResourceDeclaration<Inputs extends z.ZodObject = z.ZodObject, Outputs extends z.ZodObject = z.ZodObject> {
  /** PascalCase type name; each face's type token is made from it (provider/type-tokens.ts). */
  name: string;
  /** One sentence for the docs. */
  summary: string;
  /** Inputs by TypeScript name; TSDoc on each field reaches users' editors. */
  inputs: Inputs;
  /** Fields the API returns (TypeScript names). Only these and the inputs are kept in state. */
  outputs: Outputs;
  /** The output field that receives the record's own `id` (Pulumi reserves `id`); with `wire`,
   *  the record field that identifies it when that is not `id` (a feature flag user list's `iid`). */
  recordId?: string | { output: string; wire: string };
  /** State fields that form the Pulumi id and import id, joined with `:`. */
  idParts: string[];
  /** What makes an object of this resource one of a kind (or why nothing does). */
  identity: Identity | NoIdentity;
  /** The forge's limits on how many such objects one parent holds. */
  limits?: ParentLimit[];
  create: Request;
  read: ReadRequest;
  /** Without an update route every input change is a replacement. */
  update?: Request;
  /** Without a delete route, delete forgets the object (a setting restores what it found). */
  delete?: Request;
  /** Inputs whose change cannot be sent as an update. A dotted path names a field inside an
   *  object input (`platformVendorAttributes.authorizationType`): a change there, by the
   *  input's `normalize` meaning, replaces; the rest of the object is still updated in place. */
  replaceOn: string[] | "all";
  /** Delete the old object before creating its replacement (uniqueness or a limit of one). */
  deleteBeforeReplace?: boolean;
  /** Output fields that are secrets (stored encrypted in state). */
  secretOutputs?: string[];
  /** Inputs the API accepts but never returns: compared with the last applied value, kept secret.
   *  A dotted path names a field inside an object input (`platformVendorAttributes.token`); the
   *  whole object input is then kept secret. */
  writeOnly?: string[];
  /** Per-field normalisation before comparing a desired value with the server's. */
  normalize?: Record<string, (value: unknown) => unknown>;
  /** Fields whose wire form differs from the input's (a list sent comma-separated). */
  wireFormats?: Record<string, WireFormat>;
  /** Record fields whose wire name differs from the input's when read: `{ enabled: "inbound_enabled" }`;
   *  a dotted path reads inside the record (`properties.webhook`). An object's keys are then read
   *  in TypeScript names, like every other field. */
  readNames?: Record<string, string>;
  /**
   * Settings of an object that exists apart from this resource (a project's job token scope):
   * create reads what is there, keeps it in state (`restore`), and writes the inputs with the
   * `update` route; delete writes back what create found.
   */
  setting?: boolean;
  /** List inputs changed element by element (see {@link NestedCollection}). */
  collections?: Record<string, NestedCollection>;
  /**
   * What an optional input becomes on the forge when the program drops it: the value the update
   * sends (`""`, `false`, `[]`, the spec's default), a function of the desired state giving
   * it (undefined: nothing to send), or {@link REPLACES} when the API cannot express the removal
   * and the object is replaced. Removing an input is a change like any other; an input the
   * program never set stays unmanaged.
   */
  resets?: Record<string, unknown>;
  /** Hints added to API errors that users commonly meet. */
  errorHints?: ErrorHint[];
  /** Two credentials of another kind, rotated (see {@link Rotation}). */
  rotation?: Rotation;
  hooks?: ResourceHooks;
  /** Notes for the generated docs: availability, caveats. */
  notes?: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDeclaration = ResourceDeclaration<any, any>;

/** Identity function that keeps the literal types of a declaration. */
export function defineResource<I extends z.ZodObject, O extends z.ZodObject>(
  declaration: ResourceDeclaration<I, O>,
): ResourceDeclaration<I, O> {
  return declaration;
}

/** Input field names of a declaration. */
export function inputKeys(declaration: AnyDeclaration): string[] {
  return Object.keys(declaration.inputs.shape);
}

/** Output field names of a declaration (the record's fields, not the inputs). */
export function outputKeys(declaration: AnyDeclaration): string[] {
  return Object.keys(declaration.outputs.shape);
}

/** The reset of an input whose removal the API cannot express: dropping it replaces the object. */
export const REPLACES: unique symbol = Symbol("replaces the object");

/** Optional inputs whose removal replaces the object (their reset is {@link REPLACES}). */
export function replacedOnRemoval(declaration: AnyDeclaration): string[] {
  return Object.entries(declaration.resets ?? {})
    .filter(([, reset]) => reset === REPLACES)
    .map(([key]) => key);
}

/** The output that receives the record's id, and the record field it comes from. */
export function recordIdOf(declaration: AnyDeclaration): { output?: string; wire: string } {
  const recordId = declaration.recordId;
  if (recordId === undefined) return { wire: "id" };
  return typeof recordId === "string" ? { output: recordId, wire: "id" } : recordId;
}

/** True when the declaration names its objects uniquely. */
export function hasIdentity(identity: Identity | NoIdentity): identity is Identity {
  return "fields" in identity;
}

/** What the engine reads about a field of the zod schemas beyond its type. */
export interface FieldMeta {
  /** An input naming a local file: sent as its content (multipart), compared by its SHA-256;
   *  `check` refuses a file larger than `maxBytes`. */
  file?: { maxBytes?: number };
  /** An output the forge derives from this input (`descriptionHtml` from `description`): secret
   *  whenever the program gives the input as a secret. */
  derivedFrom?: string;
}

/** The registry of {@link FieldMeta}: `schema.register(fieldMeta, { file: {} })` keeps the schema
 *  object itself (zod's `.meta()` would clone it and reach the JSON Schema). */
export const fieldMeta = z.registry<FieldMeta>();

function metaOf(schema: unknown): FieldMeta | undefined {
  for (let current = schema as z.ZodType | undefined; current;) {
    const found = fieldMeta.get(current);
    if (found) return found;
    const def = (current as { _zod?: { def?: { innerType?: z.ZodType } } })._zod?.def;
    current = def?.innerType;
  }
  return undefined;
}

/** Inputs that name a local file. */
export function fileInputs(declaration: AnyDeclaration): string[] {
  return once(fileInputsOf, declaration, () => inputKeys(declaration).filter((key) => metaOf(declaration.inputs.shape[key])?.file));
}

/** What a declaration's schemas say, computed at its first use: a declaration never changes, and
 *  the engine asks at every check and diff (reading zod's registry each time). */
function once<T>(cache: WeakMap<AnyDeclaration, T>, declaration: AnyDeclaration, compute: () => T): T {
  let found = cache.get(declaration);
  if (found === undefined) cache.set(declaration, (found = compute()));
  return found;
}
const fileInputsOf = new WeakMap<AnyDeclaration, string[]>();
const derivedOutputsOf = new WeakMap<AnyDeclaration, Record<string, string>>();

/** The largest file an input takes, in bytes. */
export function fileMaxBytes(declaration: AnyDeclaration, field: string): number | undefined {
  return metaOf(declaration.inputs.shape[field])?.file?.maxBytes;
}

/** Outputs derived from an input: `{ descriptionHtml: "description" }`. */
export function derivedOutputs(declaration: AnyDeclaration): Record<string, string> {
  return once(derivedOutputsOf, declaration, () => {
    const derived: Record<string, string> = {};
    for (const key of outputKeys(declaration)) {
      const from = metaOf(declaration.outputs.shape[key])?.derivedFrom;
      if (from) derived[key] = from;
    }
    return derived;
  });
}

/** Inputs whose change forces a replacement. */
export function replacementKeys(declaration: AnyDeclaration): string[] {
  // A rotating resource has no update route: its updates make and revoke credentials.
  return declaration.replaceOn === "all" || (!declaration.update && !declaration.rotation) ? inputKeys(declaration) : declaration.replaceOn;
}

/** The declaration's own secrets: its secret outputs and write-only inputs (a nested write-only
 *  path makes its whole top-level field secret). What the state keeps secret besides them, given
 *  the program's secret inputs, is engine/secrets.ts's `secretProperties`. */
export function declaredSecrets(declaration: AnyDeclaration): string[] {
  const writeOnly = (declaration.writeOnly ?? []).map((path) => path.split(".")[0] as string);
  return [...new Set([...(declaration.secretOutputs ?? []), ...writeOnly])];
}

/** State fields the engine keeps besides inputs and outputs: what a setting restores, file
 *  digests, the evidence of which object the state holds. */
export function engineKeys(declaration: AnyDeclaration): string[] {
  const evidence = hasIdentity(declaration.identity) && declaration.identity.evidence ? [EVIDENCE_KEY] : [];
  return [...(declaration.setting ? [RESTORE_KEY] : []), ...fileInputs(declaration).map(digestKey), ...evidence];
}

/**
 * The editions that have the resource: those of its create's endpoint in the spec's route table
 * (the API's availability table). Shown in the reference page, and named in the error of a
 * refusal an edition gap gives (403 for the tier, 404 for the offering).
 */
export function availabilityOf(declaration: Pick<AnyDeclaration, "create">): Availability {
  return routeOf(declaration.create).availability ?? {};
}

/** The hints an edition gap gives, derived from the declaration's availability. */
export function availabilityHints(declaration: Pick<AnyDeclaration, "name" | "create">): ErrorHint[] {
  const availability = availabilityOf(declaration);
  const tier = describeTier(availability);
  const offerings = describeOfferings(availability);
  return [
    ...(tier ? [{ status: 403, hint: `${declaration.name} needs ${tier}` }] : []),
    ...(offerings ? [{ status: 404, hint: `${declaration.name} exists only on ${offerings}` }] : []),
  ];
}

/** The value dropping `key` sends: its declared reset, or the reset function applied to `state`. */
export function resetValue(declaration: AnyDeclaration, key: string, state: State): unknown {
  const reset = declaration.resets?.[key];
  if (reset === REPLACES) return undefined;
  return typeof reset === "function" ? (reset as (state: State) => unknown)(state) : reset;
}
