import type { z } from "zod";
import { type Availability, describeOfferings, describeTier } from "../../spec/editions";
import type { ForgeClient, Route } from "../client";

export type { Route } from "../client";

/** A record as the API sends it (snake_case keys). */
export type WireRecord = Record<string, unknown>;

/** The state of one resource as the engine sees it: inputs and outputs by TypeScript name. */
export type State = Record<string, unknown>;


/** Reading one object through a listing, for APIs that have no single-object read. */
export interface ListRead {
  list: Route;
  /** True for the element of the listing that is this resource. */
  where: (record: WireRecord, state: State) => boolean;
  /** As a `findExisting` of a unique identity: the identity's value (`name`, lower-cased where the
   *  forge ignores case), so that only creates of one identity take turns. Without it every create
   *  under the listing's parent takes its turn. */
  identity?: (state: State) => unknown;
}

/**
 * How a create whose answer was lost finds what it made, for objects that nothing in the program
 * identifies (no name, or a name that need not be unique): creates of the kind under one parent
 * take turns, the listing is read inside the turn just before the create, and exactly one new
 * record that `where` matches is this create's (several: the create fails naming them). One more
 * GET per create.
 */
export interface LostCreateSearch extends ListRead {
  madeByThisCreate: true;
  /** The lost answer held the only copy of a secret (a token's value): the record proven to be
   *  this create's is deleted and the create sent again, rather than recorded without its secret. */
  discardFound?: boolean;
}

export interface CallOptions {
  acceptStatuses?: number[];
  findExisting?: () => Promise<unknown | undefined>;
}

/** What a declaration's hooks can use. */
export interface OperationContext {
  client: ForgeClient;
  declaration: AnyDeclaration;
  /** The generic request of a route, with path fields from `state` and `params` as wire params. */
  call<T = unknown>(route: Route, state: State, params?: Record<string, unknown>, options?: CallOptions): Promise<T>;
  /** The generic read of this resource (its `read` route or listing); undefined when gone. */
  readRecord(state: State): Promise<WireRecord | undefined>;
  /** In a create: how it finds what it made when its answer is lost (the declaration's
   *  `findExisting`, under the ownership rule of recovery.ts); a create hook passes it on in its
   *  call's options. */
  findExisting?: () => Promise<unknown | undefined>;
  /** For a create hook that resolves the object's identity itself (a member's user id): runs
   *  `attempt` under the identity rule for the object `state` names by its id parts: fails
   *  without sending when it exists already, and hands `attempt` the finder for a lost answer. */
  createOwned<T>(state: State, attempt: (findExisting?: () => Promise<WireRecord | undefined>) => Promise<T>): Promise<T>;
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
   * `file-actions`: `{action: create|update|delete|move, ...}` per element, computed from the
   * last applied list; an element whose content is unchanged under a new key is a `move`.
   */
  style: "nested-attributes" | "file-actions";
  /** file-actions: the element field that holds the key (`filePath`); a move names the old one
   *  in `previous<Key>` (`previousPath` for `filePath`: set `previousKeyField`). */
  keyField?: string;
  previousKeyField?: string;
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
 * One resource of the API, declared as data. The engine turns it into a Pulumi dynamic
 * provider and a resource class; the contract tests and the policy pack read it too.
 */
export interface ResourceDeclaration<
  Inputs extends z.ZodObject = z.ZodObject,
  Outputs extends z.ZodObject = z.ZodObject,
> {
  /** PascalCase type name; the type token is `pulumi-nodejs:dynamic/forge:<name>`. */
  name: string;
  /** One sentence for the docs. */
  summary: string;
  /** Inputs by TypeScript name; TSDoc on each field reaches users' editors. */
  inputs: Inputs;
  /** Fields the API returns (TypeScript names). Only these and the inputs are kept in state. */
  outputs: Outputs;
  /** The output field that receives the record's own `id` (Pulumi reserves `id`). */
  recordId?: string;
  /** State fields that form the Pulumi id and import id, joined with `:`. */
  idParts: string[];
  create: Route;
  read: Route | ListRead;
  /** Without an update route every input change is a replacement. */
  update?: Route;
  delete?: Route;
  /** Inputs whose change cannot be sent as an update. A dotted path names a field inside an
   *  object input (`platformVendorAttributes.authorizationType`): a change there, by the
   *  input's `normalize` meaning, replaces; the rest of the object is still updated in place. */
  replaceOn: string[] | "all";
  /** Delete the old object before creating its replacement (uniqueness or a limit of one). */
  deleteBeforeReplace?: boolean;
  /** Output fields that are secrets (stored encrypted in state). */
  secretOutputs?: string[];
  /** Outputs the forge derives from an input (`{ descriptionHtml: "description" }`): secret
   *  whenever the program gives that input as a secret. */
  derivedOutputs?: Record<string, string>;
  /** Inputs the API accepts but never returns: compared with the last applied value, kept secret.
   *  A dotted path names a field inside an object input (`platformVendorAttributes.token`); the
   *  whole object input is then kept secret. */
  writeOnly?: string[];
  /** Inputs the create request does not take but the update does (a group protected
   *  environment's `requiredApprovalCount`): create leaves them out and, when the program sets
   *  them, writes them with the `update` route right after the object exists. */
  createOmits?: string[];
  /** Output fields the API returns only from create (kept from state afterwards). */
  createOnly?: string[];
  /** Per-field normalisation before comparing a desired value with the server's. */
  normalize?: Record<string, (value: unknown) => unknown>;
  /** Wire names that differ on update, e.g. `{ name: "new_name" }`. */
  updateWireNames?: Record<string, string>;
  /** How a create proves which object it made when its answer was lost (engine/recovery.ts).
   *  A route or listing read by the inputs alone is a unique identity: an object found by it before
   *  the create is a conflict (the create fails naming its import id), one found after a lost
   *  answer is this create's. A {@link LostCreateSearch} is for objects nothing identifies.
   *  Defaults to `read` when every id part is an input and the create is a plain POST or PATCH. */
  findExisting?: Route | ListRead | LostCreateSearch;
  /** Read the object after these writes even when their answer has a body (its shape differs,
   *  or it holds only what the request touched). */
  readBack?: Array<"create" | "update">;
  /** The wire field that identifies a record, when it is not `id` (feature flag user lists: `iid`). */
  recordKey?: string;
  /** Fields whose wire form differs from the input's (a list sent comma-separated). */
  wireFormats?: Record<string, WireFormat>;
  /** Record fields whose wire name differs from the input's when read: `{ enabled: "inbound_enabled" }`
   *  (an object's keys are then read in TypeScript names, like every other field). */
  readNames?: Record<string, string>;
  /**
   * Settings of an object that exists apart from this resource (a project's job token scope):
   * create reads what is there, keeps it in state (`restore`), and writes the inputs with the
   * `update` route; delete writes back what create found.
   */
  setting?: boolean;
  /** List inputs changed element by element (see {@link NestedCollection}). */
  collections?: Record<string, NestedCollection>;
  /** Inputs that name a local file: sent as its content (multipart), compared by its SHA-256. */
  files?: string[];
  /** The largest file a file input takes, in bytes: `check` refuses a larger one before any request. */
  fileMaxBytes?: Record<string, number>;
  /** Create waits until the work it scheduled is done (see {@link AwaitState}). */
  awaitState?: AwaitState;
  /**
   * What an optional input becomes on the forge when the program drops it: the value the update
   * sends (`""`, `false`, `[]`, the spec's default), or a function of the desired state giving
   * it (undefined: nothing to send). Removing an input is a change like any other; an input the
   * program never set stays unmanaged.
   */
  resets?: Record<string, unknown>;
  /** Optional inputs whose removal the API cannot express: dropping one replaces the object. */
  replaceOnRemoval?: string[];
  /** Hints added to API errors that users commonly meet. */
  errorHints?: ErrorHint[];
  /**
   * The editions that have the resource (Document 1's availability table): shown in the
   * reference page, and named in the error of a refusal an edition gap gives (403 for the tier,
   * 404 for the offering).
   */
  availability?: Availability;
  /** Statuses of the create request that mean success besides 2xx (e.g. 304). */
  acceptOnCreate?: number[];
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

/** Inputs whose change forces a replacement. */
export function replacementKeys(declaration: AnyDeclaration): string[] {
  return declaration.replaceOn === "all" || !declaration.update ? inputKeys(declaration) : declaration.replaceOn;
}

/** Outputs the resource class lists in `additionalSecretOutputs` (a nested write-only path
 *  makes its whole top-level field secret). */
export function secretKeys(declaration: AnyDeclaration): string[] {
  const writeOnly = (declaration.writeOnly ?? []).map((path) => path.split(".")[0] as string);
  return [...new Set([...(declaration.secretOutputs ?? []), ...writeOnly])];
}

/** State fields the engine keeps besides inputs and outputs: what a setting restores, file digests. */
export function engineKeys(declaration: AnyDeclaration): string[] {
  return [...(declaration.setting ? [RESTORE_KEY] : []), ...(declaration.files ?? []).map(digestKey)];
}

/** Where the state lists the inputs the program set at the last create or update, so that an
 *  input dropped since is told from one never set. */
export const APPLIED_KEY = "appliedInputs";

/** Where a setting keeps the values it found before it was created. */
export const RESTORE_KEY = "restore";

/** Where the SHA-256 of a file input is kept. */
export function digestKey(field: string): string {
  return `${field}Sha256`;
}

/** The Pulumi type token of a declaration. */
export function typeToken(declaration: Pick<AnyDeclaration, "name">): string {
  return `pulumi-nodejs:dynamic/forge:${declaration.name}`;
}

/** The hints an edition gap gives, derived from the declaration's availability. */
export function availabilityHints(declaration: Pick<AnyDeclaration, "name" | "availability">): ErrorHint[] {
  const availability = declaration.availability ?? {};
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
  return typeof reset === "function" ? (reset as (state: State) => unknown)(state) : reset;
}
