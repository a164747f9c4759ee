import type { z } from "zod";
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
  project?(record: WireRecord, state: State): State;
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
  /** Inputs whose change cannot be sent as an update. */
  replaceOn: string[] | "all";
  /** Delete the old object before creating its replacement (uniqueness or a limit of one). */
  deleteBeforeReplace?: boolean;
  /** Output fields that are secrets (stored encrypted in state). */
  secretOutputs?: string[];
  /** Inputs the API accepts but never returns: compared with the last applied value, kept secret. */
  writeOnly?: string[];
  /** Output fields the API returns only from create (kept from state afterwards). */
  createOnly?: string[];
  /** Per-field normalisation before comparing a desired value with the server's. */
  normalize?: Record<string, (value: unknown) => unknown>;
  /** Wire names that differ on update, e.g. `{ name: "new_name" }`. */
  updateWireNames?: Record<string, string>;
  /** A read by the inputs alone (a natural key), used to find an object whose create answer
   *  was lost, so that a retried create never makes a duplicate. Defaults to `read` when every
   *  id part is an input. */
  findExisting?: Route | ListRead;
  /** Read the object after create even when the create answer has a body (its shape differs). */
  readBack?: boolean;
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

/** Outputs the resource class lists in `additionalSecretOutputs`. */
export function secretKeys(declaration: AnyDeclaration): string[] {
  return [...(declaration.secretOutputs ?? []), ...(declaration.writeOnly ?? [])];
}

/** The Pulumi type token of a declaration. */
export function typeToken(declaration: Pick<AnyDeclaration, "name">): string {
  return `pulumi-nodejs:dynamic/forge:${declaration.name}`;
}
