import type * as dynamic from "@pulumi/pulumi/dynamic";
import { ForgeApiError, isNotFound, isPlainObject, parseRoute, type ForgeClient } from "../client";
import { checkInputs, withoutReserved } from "./check";
import { reconcile, sameValue } from "./compare";
import type { AnyDeclaration, CallOptions, ListRead, OperationContext, Route, State, WireRecord } from "./declaration";
import { inputKeys, outputKeys, replacementKeys } from "./declaration";
import { formatId, parseId } from "./ids";
import { fromWire, toSnake, toWire } from "./naming";
import { containsUnknown } from "./unknowns";

/**
 * The generic interpretation of a declaration as a dynamic provider. Every resource goes
 * through here; a declaration's hooks replace single requests, never the flow.
 */
export class ResourceOperations {
  constructor(
    readonly declaration: AnyDeclaration,
    private readonly clientOf: () => ForgeClient,
  ) {}

  async check(_olds: State, news: State): Promise<dynamic.CheckResult> {
    const failures = checkInputs(this.declaration, news);
    return failures.length > 0 ? { inputs: news, failures } : { inputs: news };
  }

  async diff(_id: string, olds: State, news: State): Promise<dynamic.DiffResult> {
    const changed = this.changedInputs(olds, news);
    const replacing = replacementKeys(this.declaration);
    const replaces = changed.filter((key) => replacing.includes(key));
    return {
      changes: changed.length > 0,
      replaces,
      deleteBeforeReplace: this.declaration.deleteBeforeReplace ?? false,
    };
  }

  async create(inputs: State): Promise<dynamic.CreateResult> {
    const desired = withoutReserved(inputs);
    const importId = inputs["importId"];
    if (typeof importId === "string" && importId !== "") return this.adopt(importId, desired);

    const ctx = this.context();
    const hooks = this.declaration.hooks;
    const record = hooks?.create
      ? await hooks.create(ctx, desired)
      : await ctx.call<WireRecord | undefined>(this.declaration.create, desired, this.createParams(desired), {
          acceptStatuses: this.declaration.acceptOnCreate ?? [],
          findExisting: this.existingFinder(ctx, desired),
        });
    // The object exists from here on: a failure below must still record it, or it is orphaned.
    const partial = this.partialState(desired, record);
    try {
      const answered = isPlainObject(record) && Object.keys(record).length > 0 && !this.declaration.readBack;
      const current = answered ? record : await this.mustRead(ctx, partial);
      const outs = this.outputs(current, partial, desired);
      return { id: formatId(this.declaration, outs), outs };
    } catch (error) {
      throw this.partialFailure(error, partial);
    }
  }

  async read(id: string, props: State): Promise<dynamic.ReadResult> {
    const previous = withoutReserved(props);
    const state = { ...previous, ...parseId(this.declaration, id) };
    const record = await this.readRecord(this.context(), state);
    if (!record) return { id: "", props: {} };
    const outs = this.outputs(record, state, previous);
    return { id: formatId(this.declaration, outs), props: outs, inputs: this.inputsOf(outs) };
  }

  async update(id: string, olds: State, news: State): Promise<dynamic.UpdateResult> {
    const desired = withoutReserved(news);
    const changed = this.changedInputs(olds, news);
    const state = { ...withoutReserved(olds), ...parseId(this.declaration, id), ...desired };
    const ctx = this.context();
    let record: WireRecord | undefined;
    if (changed.length > 0) {
      const hook = this.declaration.hooks?.update;
      if (hook) {
        record = await hook(ctx, state, changed, olds);
      } else {
        if (!this.declaration.update) throw new Error(`${this.declaration.name} cannot be updated in place`);
        record = await ctx.call<WireRecord | undefined>(this.declaration.update, state, this.updateParams(desired, changed));
      }
    }
    const current = isPlainObject(record) && Object.keys(record).length > 0 ? record : await this.mustRead(ctx, state);
    return { outs: this.outputs(current, state, { ...withoutReserved(olds), ...desired }) };
  }

  async delete(id: string, props: State): Promise<void> {
    const state = { ...withoutReserved(props), ...parseId(this.declaration, id) };
    const ctx = this.context();
    try {
      const hook = this.declaration.hooks?.delete;
      if (hook) await hook(ctx, state);
      else if (this.declaration.delete) await ctx.call(this.declaration.delete, state);
    } catch (error) {
      if (isNotFound(error)) return;
      // Some deletes of a missing object answer 400 (allowlist entries): gone is gone.
      if (error instanceof ForgeApiError && error.status < 500 && !(await this.readRecord(ctx, state))) return;
      throw error;
    }
  }

  /** Input fields whose desired value differs from the state. Unset optional inputs are not managed. */
  changedInputs(olds: State, news: State): string[] {
    const changed: string[] = [];
    for (const key of inputKeys(this.declaration)) {
      const desired = news[key];
      if (desired === undefined) continue;
      if (containsUnknown(desired) || !sameValue(this.declaration, key, desired, olds[key])) changed.push(key);
    }
    return changed;
  }

  /** The record of the object, or undefined when it no longer exists. */
  async readRecord(ctx: OperationContext, state: State): Promise<WireRecord | undefined> {
    const hook = this.declaration.hooks?.read;
    try {
      if (hook) return await hook(ctx, state);
      const read = this.declaration.read;
      if (typeof read === "string") return await ctx.call<WireRecord>(read, state);
      return await this.readFromList(ctx, read, state);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Takes over an existing object (the `import` resource option), as Pulumi's import does:
   *  the program's inputs must already match it. */
  private async adopt(importId: string, desired: State): Promise<dynamic.CreateResult> {
    const state = { ...desired, ...parseId(this.declaration, importId) };
    const record = await this.readRecord(this.context(), state);
    if (!record) throw new Error(`${this.declaration.name}: cannot import "${importId}": it does not exist`);
    const outs = this.outputs(record, state, desired);
    const mismatched = this.changedInputs(outs, desired);
    if (mismatched.length > 0) {
      const details = mismatched.map((key) => `${key}: program has ${JSON.stringify(desired[key])}, server has ${JSON.stringify(outs[key])}`);
      throw new Error(`${this.declaration.name}: inputs to import do not match the existing resource "${importId}": ${details.join("; ")}`);
    }
    return { id: formatId(this.declaration, outs), outs };
  }

  /** How a create whose answer was lost finds what it made, if the declaration allows it. */
  private existingFinder(ctx: OperationContext, desired: State): (() => Promise<unknown | undefined>) | undefined {
    const route = this.declaration.findExisting;
    if (route && typeof route !== "string") return () => this.readFromList(ctx, route, desired);
    if (route) {
      return async () => {
        try {
          return await ctx.call(route, desired);
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
      };
    }
    const inputs = inputKeys(this.declaration);
    if (this.declaration.idParts.every((part) => inputs.includes(part))) return () => this.readRecord(ctx, desired);
    return undefined;
  }

  private async readFromList(ctx: OperationContext, read: ListRead, state: State): Promise<WireRecord | undefined> {
    const records = await ctx.client.list<WireRecord>(parseRoute(read.list).path, pathParams(read.list, state));
    // The newest match: for a search by content, the object a lost create just made.
    return records.filter((record) => read.where(record, state)).sort((a, b) => Number(b["id"]) - Number(a["id"]))[0];
  }

  private async mustRead(ctx: OperationContext, state: State): Promise<WireRecord> {
    const record = await this.readRecord(ctx, state);
    if (!record) throw new Error(`${this.declaration.name}: the object was not found right after it was written`);
    return record;
  }

  /**
   * The outputs kept in state: every declared output from the record, the inputs (in the
   * user's spelling where the server's means the same), path inputs and write-only inputs
   * from the state, and create-only outputs carried over.
   */
  private outputs(record: WireRecord, state: State, previous: State): State {
    const declaration = this.declaration;
    const projected = fromWire(record) as State;
    if (declaration.recordId && record["id"] !== undefined) projected[declaration.recordId] = record["id"];
    Object.assign(projected, declaration.hooks?.project?.(record, state));
    const outs: State = {};
    for (const key of outputKeys(declaration)) {
      const value = projected[key] ?? (declaration.createOnly?.includes(key) ? state[key] : undefined);
      if (value !== undefined) outs[key] = value;
    }
    for (const key of inputKeys(declaration)) {
      const value = key in projected && !declaration.writeOnly?.includes(key)
        ? reconcile(declaration, key, previous[key], projected[key])
        : state[key];
      if (value !== undefined) outs[key] = value;
    }
    for (const key of declaration.idParts) if (outs[key] === undefined && state[key] !== undefined) outs[key] = state[key];
    return outs;
  }

  /** Inputs as read from the server, for import and refresh: the input fields that have a value. */
  private inputsOf(outs: State): State {
    const inputs: State = {};
    for (const key of inputKeys(this.declaration)) {
      if (outs[key] !== undefined && outs[key] !== null) inputs[key] = outs[key];
    }
    return inputs;
  }

  private createParams(desired: State): Record<string, unknown> {
    const body = Object.fromEntries(bodyFields(this.declaration.create, desired, inputKeys(this.declaration)));
    return { ...pathParams(this.declaration.create, desired), ...(toWire(body) as Record<string, unknown>) };
  }

  private updateParams(desired: State, changed: string[]): Record<string, unknown> {
    const route = this.declaration.update as Route;
    const renames = this.declaration.updateWireNames ?? {};
    const body: Record<string, unknown> = {};
    for (const [key, value] of bodyFields(route, desired, changed)) body[renames[key] ?? toSnake(key)] = toWire(value);
    return body;
  }

  private partialState(desired: State, record: WireRecord | undefined): State {
    const state = { ...desired };
    if (this.declaration.recordId && isPlainObject(record) && record["id"] !== undefined) {
      state[this.declaration.recordId] = record["id"];
    }
    return state;
  }

  private partialFailure(error: unknown, state: State): unknown {
    try {
      const id = formatId(this.declaration, state);
      const message = error instanceof Error ? error.message : String(error);
      return Object.assign(new Error(message), { id, properties: state });
    } catch {
      return error;
    }
  }

  private context(): OperationContext {
    const client = this.clientOf();
    const ctx: OperationContext = {
      client,
      declaration: this.declaration,
      call: async <T>(route: Route, state: State, params: Record<string, unknown> = {}, options: CallOptions = {}) => {
        const { method, path } = parseRoute(route);
        const response = await client.request<T>(method, path, { ...pathParams(route, state), ...params }, options);
        return response.body;
      },
      readRecord: (state: State) => this.readRecord(ctx, state),
    };
    return ctx;
  }
}

/** The state fields a route's path needs, under their template names. */
function pathParams(route: Route, state: State): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const field of parseRoute(route).parameters) params[field] = state[field];
  return params;
}

/** The fields of `keys` that go in the body: set, and not already in the path. */
function bodyFields(route: Route, state: State, keys: string[]): [string, unknown][] {
  const inPath = new Set(parseRoute(route).parameters);
  return keys.filter((key) => !inPath.has(key) && state[key] !== undefined).map((key) => [key, state[key]]);
}

