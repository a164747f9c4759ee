import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { ForgeApiError, isNotFound, isPlainObject, parseRoute, type ForgeClient } from "../client";
import { CLAIM_KEY, checkInputs, forEngine, withoutReserved } from "./check";
import { elementChanges, wireChanges } from "./collections";
import { comparable, reconcile, sameValue } from "./compare";
import type { AnyDeclaration, CallOptions, ListRead, OperationContext, Route, State, WireRecord } from "./declaration";
import { APPLIED_KEY, availabilityHints, digestKey, engineKeys, inputKeys, outputKeys, replacementKeys, resetValue, RESTORE_KEY } from "./declaration";
import { desiredDigest, fileUpload, withDesiredDigests, withFileDigests } from "./files";
import { formatId, parseId } from "./ids";
import { fromWire, toSnake, toWire } from "./naming";
import { getPath, withoutPath, withPath } from "./paths";
import { containsUnknown } from "./unknowns";
import { createOwned, type RecoveryPlan, type RecoverySubject } from "./recovery";
import { AwaitError, awaitFinalState } from "./wait";

/** An object on the forge that a pending create may have made: its import id, and when it was made. */
export interface PendingCandidate {
  id: string;
  createdAt?: string;
}

/** Where progress of long operations goes: Pulumi's log in the provider process. */
export type ProgressSink = (message: string) => void;

/**
 * The generic interpretation of a declaration as a dynamic provider. Every resource goes
 * through here; a declaration's hooks replace single requests, never the flow.
 */
export class ResourceOperations {
  constructor(
    readonly declaration: AnyDeclaration,
    private readonly clientOf: () => ForgeClient,
    private readonly progress: ProgressSink = defaultProgress,
  ) {}

  async check(olds: State, news: State): Promise<dynamic.CheckResult> {
    const failures = checkInputs(this.declaration, news);
    const files = withFileDigests(this.declaration, news);
    failures.push(...files.failures);
    const inputs = { ...files.inputs, ...createClaim(olds) };
    return failures.length > 0 ? { inputs, failures: forEngine(failures) } : { inputs };
  }

  async diff(_id: string, olds: State, news: State): Promise<dynamic.DiffResult> {
    const changed = this.changedInputs(olds, news);
    const removed = this.removedInputs(olds, news);
    const replacing = replacementKeys(this.declaration);
    const replacedByRemoval = removed.filter((key) => replacing.includes(key) || this.declaration.replaceOnRemoval?.includes(key));
    const unexpressible = removed.filter((key) => !replacedByRemoval.includes(key) && !(key in (this.declaration.resets ?? {})));
    if (unexpressible.length > 0) {
      // Never silently nothing: say so at preview, before anything is sent.
      throw new Error(`${this.declaration.name}: removing ${unexpressible.join(", ")} from the program cannot be applied: the forge has no way to clear it. Set the value you want instead.`);
    }
    const replaces = [...changed.filter((key) => replacing.includes(key) || this.nestedReplacement(key, olds, news)), ...replacedByRemoval];
    return {
      changes: changed.length > 0 || removed.length > 0,
      replaces,
      deleteBeforeReplace: this.declaration.deleteBeforeReplace ?? false,
    };
  }

  async create(inputs: State): Promise<dynamic.CreateResult> {
    const desired = withDesiredDigests(this.declaration, this.withApplied(withoutReserved(inputs)));
    const importId = inputs["importId"];
    if (typeof importId === "string" && importId !== "") return this.adopt(importId, desired);

    const ctx = this.context();
    if (this.declaration.setting) return this.createSetting(ctx, desired, inputs["__provider"]);
    const hooks = this.declaration.hooks;
    const record = await this.explained(desired, () =>
      createOwned(this.recoveryPlan(ctx, desired), this.recoverySubject(desired), (findExisting) =>
        hooks?.create
          ? hooks.create(findExisting ? { ...ctx, findExisting } : ctx, desired)
          : ctx.call<WireRecord | undefined>(this.declaration.create, desired, this.createParams(desired), {
              acceptStatuses: this.declaration.acceptOnCreate ?? [],
              ...(findExisting ? { findExisting } : {}),
            }),
      ),
    );
    // The object exists from here on: a failure below must still record it, or it is orphaned.
    const partial = this.partialState(desired, record);
    // The last record seen of the object, for the state a failure below records.
    let seen: WireRecord | undefined = hasFields(record) ? record : undefined;
    try {
      const late = await this.writeCreateOmitted(ctx, partial);
      const [answer, step] = late ? [late.record, "update" as const] : [record, "create" as const];
      const answered = hasFields(answer) && !this.declaration.readBack?.includes(step);
      let current = answered ? answer : await this.mustRead(ctx, partial);
      seen = current;
      current = await this.awaitDone(ctx, current, partial);
      const outs = this.outputs(current, partial, desired);
      return { id: formatId(this.declaration, outs), outs };
    } catch (error) {
      const last = error instanceof AwaitError ? error.record : seen;
      throw this.partialFailure(error, last ? this.outputsOrState(last, partial, desired) : partial, inputs["__provider"]);
    }
  }

  /** The outputs of a record, or the state alone when they cannot be formed (a record without its id). */
  private outputsOrState(record: WireRecord, state: State, desired: State): State {
    try {
      const outs = this.outputs(record, state, desired);
      formatId(this.declaration, outs);
      return outs;
    } catch {
      return state;
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
    const desired = withDesiredDigests(this.declaration, this.withApplied(withoutReserved(news)));
    const state = { ...withoutReserved(olds), ...parseId(this.declaration, id), ...desired };
    if (this.declaration.setting) state[RESTORE_KEY] = this.extendedRestore(olds, desired);
    // A blank file input leaves no file on the forge: no digest either.
    for (const field of this.declaration.files ?? []) if (desired[field] !== undefined && desired[digestKey(field)] === undefined) delete state[digestKey(field)];
    // A dropped input is written as its reset (a replacement never reaches update).
    const removed = this.removedInputs(olds, news);
    for (const key of removed) {
      const value = resetValue(this.declaration, key, state);
      if (value === undefined) delete state[key];
      else state[key] = value;
    }
    const changed = [...this.changedInputs(olds, news), ...removed.filter((key) => state[key] !== undefined)];
    const ctx = this.context();
    let record: WireRecord | undefined;
    if (changed.length > 0) {
      const hook = this.declaration.hooks?.update;
      record = await this.explained(state, async () => {
        if (hook) return hook(ctx, state, changed, olds);
        if (!this.declaration.update) throw new Error(`${this.declaration.name} cannot be updated in place`);
        return ctx.call<WireRecord | undefined>(this.declaration.update, state, await this.updateParams(ctx, state, olds, changed));
      });
    }
    const answered = hasFields(record) && !this.declaration.readBack?.includes("update");
    const current = answered ? (record as WireRecord) : await this.mustRead(ctx, state);
    return { outs: this.outputs(current, state, { ...withoutReserved(olds), ...desired }) };
  }

  async delete(id: string, props: State): Promise<void> {
    const state = { ...withoutReserved(props), ...parseId(this.declaration, id) };
    const ctx = this.context();
    try {
      const hook = this.declaration.hooks?.delete;
      if (hook) await hook(ctx, state);
      else if (this.declaration.setting) await this.restoreSetting(ctx, state);
      else if (this.declaration.delete) await ctx.call(this.declaration.delete, state);
    } catch (error) {
      if (isNotFound(error)) return;
      // Some deletes of a missing object answer 400 (allowlist entries): gone is gone.
      if (error instanceof ForgeApiError && error.status < 500 && !(await this.readRecord(ctx, state))) return;
      throw this.withHint(error, state);
    }
  }

  /** Input fields whose desired value differs from the state. Unset optional inputs are not managed. */
  changedInputs(olds: State, news: State): string[] {
    const changed: string[] = [];
    for (const key of inputKeys(this.declaration)) {
      const desired = this.withoutUnknownWriteOnly(key, news[key], olds[key], olds);
      if (desired === undefined) continue;
      if (this.declaration.files?.includes(key) && !containsUnknown(desired)) {
        // A file is its content: compared by digest wherever it lies (the forge's file read back,
        // or the last upload), the same path with new content is a change, and a file moved
        // elsewhere unchanged is none. Blank (no file) is compared as a value.
        const [want, have] = [desiredDigest(key, news), olds[digestKey(key)]];
        if (want !== undefined && have !== undefined ? want !== have : !sameValue(this.declaration, key, desired, olds[key])) changed.push(key);
        continue;
      }
      if (containsUnknown(desired) || !sameValue(this.declaration, key, desired, olds[key])) changed.push(key);
    }
    return changed;
  }

  /** True when a changed object input differs at a dotted `replaceOn` path inside it
   *  (`platformVendorAttributes.authorizationType`), compared by the input's meaning. */
  private nestedReplacement(key: string, olds: State, news: State): boolean {
    const paths = replacementKeys(this.declaration).filter((path) => path.startsWith(`${key}.`));
    const [before, after] = [comparable(this.declaration, key, olds[key]), comparable(this.declaration, key, news[key])];
    return paths.some((path) => !isDeepStrictEqual(getPath(before, path.slice(key.length + 1)), getPath(after, path.slice(key.length + 1))));
  }

  /** The desired value of an object input without the write-only fields inside it that the
   *  state does not know (an imported object: the forge never returns them), since there is
   *  nothing to compare them with. */
  private withoutUnknownWriteOnly(key: string, desired: unknown, old: unknown, olds: State): unknown {
    // A write-only input of a state read without the program (an import by id alone): the
    // forge does not say what it holds, and nothing the program says can be compared with it.
    if (this.declaration.writeOnly?.includes(key) && old === undefined && !Array.isArray(olds[APPLIED_KEY])) return undefined;
    const unknown = (this.declaration.writeOnly ?? []).filter((path) => path.startsWith(`${key}.`) && getPath(old, path.slice(key.length + 1)) === undefined);
    return unknown.reduce((value, path) => withoutPath(value, path.slice(key.length + 1)), desired);
  }

  /** Inputs the program set at the last create or update and has dropped since. */
  removedInputs(olds: State, news: State): string[] {
    const applied = olds[APPLIED_KEY];
    if (!Array.isArray(applied)) return [];
    return inputKeys(this.declaration).filter((key) => applied.includes(key) && news[key] === undefined);
  }

  /** The desired state with the list of inputs it sets, kept in state for {@link removedInputs}. */
  private withApplied(desired: State): State {
    return { ...desired, [APPLIED_KEY]: inputKeys(this.declaration).filter((key) => desired[key] !== undefined) };
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

  /** A setting: remember what is there, then write the program's values over it. */
  private async createSetting(ctx: OperationContext, desired: State, provider: unknown): Promise<dynamic.CreateResult> {
    const before = await this.readRecord(ctx, desired);
    if (!before) throw new Error(`${this.declaration.name}: the object whose settings these are does not exist (${formatId(this.declaration, desired)})`);
    const found = this.project(before, desired);
    const managed = this.settingFields(desired);
    const restore = Object.fromEntries(managed.filter((key) => found[key] !== undefined).map((key) => [key, found[key]]));
    const state = { ...desired, [RESTORE_KEY]: restore };
    const route = this.requireUpdateRoute();
    const record = await this.explained(desired, () => ctx.call<WireRecord | undefined>(route, state, this.writeParams(route, state, managed)));
    try {
      const current = hasFields(record) && !this.declaration.readBack?.includes("update") ? record : await this.mustRead(ctx, state);
      const outs = this.outputs(current, state, desired);
      return { id: formatId(this.declaration, outs), outs };
    } catch (error) {
      throw this.partialFailure(error, state, provider);
    }
  }

  /** A setting's restore values with those of inputs the program started to set since create:
   *  their values before this update (delete then restores them too). */
  private extendedRestore(olds: State, desired: State): Record<string, unknown> {
    const restore: Record<string, unknown> = isPlainObject(olds[RESTORE_KEY]) ? { ...olds[RESTORE_KEY] } : {};
    for (const key of this.settingFields(desired)) if (!(key in restore) && olds[key] !== undefined) restore[key] = olds[key];
    return restore;
  }

  /** Deleting a setting writes back the values found when it was created. */
  private async restoreSetting(ctx: OperationContext, state: State): Promise<void> {
    const restore = state[RESTORE_KEY];
    if (!isPlainObject(restore) || Object.keys(restore).length === 0) return;
    const route = this.requireUpdateRoute();
    await ctx.call(route, state, this.writeParams(route, { ...state, ...restore }, Object.keys(restore)));
  }

  /** Inputs a setting manages: those the program set, apart from the ones that address the object. */
  private settingFields(state: State): string[] {
    const path = new Set(parseRoute(this.requireUpdateRoute()).parameters);
    return inputKeys(this.declaration).filter((key) => !path.has(key) && state[key] !== undefined);
  }

  private requireUpdateRoute(): Route {
    if (!this.declaration.update) throw new Error(`${this.declaration.name}: a setting needs an update route`);
    return this.declaration.update;
  }

  /** The inputs the create left out ({@link AnyDeclaration.createOmits}), written once the object
   *  exists; undefined when the program sets none of them. */
  private async writeCreateOmitted(ctx: OperationContext, state: State): Promise<{ record: WireRecord | undefined } | undefined> {
    const keys = (this.declaration.createOmits ?? []).filter((key) => state[key] !== undefined);
    if (keys.length === 0) return undefined;
    const route = this.requireUpdateRoute();
    return { record: await this.explained(state, () => ctx.call<WireRecord | undefined>(route, state, this.writeParams(route, state, keys))) };
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
    // An adopted setting restores, on delete, what it found: the values it adopted.
    if (this.declaration.setting) outs[RESTORE_KEY] = Object.fromEntries(this.settingFields(desired).map((key) => [key, outs[key]]));
    return { id: formatId(this.declaration, outs), outs };
  }

  /**
   * The objects a create that a killed run left pending may have made, for `forge-recover`: the
   * object of its identity, or every record that matches it for kinds nothing identifies (with
   * the forge's creation time where the record has one). `rule` says which proof applies.
   */
  async pendingCreateCandidates(inputs: State): Promise<{ rule: RecoveryPlan["kind"]; candidates: PendingCandidate[] }> {
    const desired = withoutReserved(inputs);
    const ctx = this.context();
    const plan = this.recoveryPlan(ctx, desired);
    const subject = this.recoverySubject(desired);
    const describe = (record: WireRecord): PendingCandidate => ({
      id: subject.importIdOf(record),
      ...(typeof record["created_at"] === "string" ? { createdAt: record["created_at"] } : {}),
    });
    if (plan.kind === "identity") {
      const found = await plan.find();
      return { rule: plan.kind, candidates: found ? [describe(found)] : [] };
    }
    if (plan.kind === "newer") return { rule: plan.kind, candidates: (await plan.list()).filter(plan.matches).map(describe) };
    return { rule: plan.kind, candidates: [] };
  }

  /** How a create whose answer was lost proves what it made (see recovery.ts). Only creates
   *  that are not safe to send twice (POST, PATCH) have one. */
  private recoveryPlan(ctx: OperationContext, desired: State): RecoveryPlan {
    const declaration = this.declaration;
    const search = declaration.findExisting;
    if (search && typeof search !== "string" && "madeByThisCreate" in search) {
      const key = this.recordKey();
      const remove = declaration.delete;
      return {
        kind: "newer",
        turn: `${declaration.name} ${search.list} ${JSON.stringify(pathParams(search.list, desired))}`,
        list: () => this.listed(ctx, search, desired),
        key: (record) => String(record[key]),
        matches: (record) => search.where(record, desired),
        ...(search.discardFound && remove ? { discard: async (record: WireRecord) => void (await ctx.call(remove, this.partialState(desired, record))) } : {}),
      };
    }
    if (search && typeof search !== "string") {
      const identity = search.identity ? JSON.stringify(search.identity(desired)) : "";
      return {
        kind: "identity",
        turn: `${declaration.name} ${search.list} ${JSON.stringify(pathParams(search.list, desired))} ${identity}`,
        find: () => this.readFromList(ctx, search, desired),
      };
    }
    if (search) {
      return {
        kind: "identity",
        turn: `${declaration.name} ${search} ${JSON.stringify(pathParams(search, desired))}`,
        find: async () => {
          try {
            return await ctx.call<WireRecord>(search, desired);
          } catch (error) {
            if (isNotFound(error)) return undefined;
            throw error;
          }
        },
      };
    }
    const inputs = inputKeys(declaration);
    const unsafe = ["POST", "PATCH"].includes(parseRoute(declaration.create).method);
    if (unsafe && !declaration.hooks?.create && declaration.idParts.every((part) => inputs.includes(part))) {
      return { kind: "identity", turn: `${declaration.name} ${formatIdOrNothing(declaration, desired)}`, find: () => this.readRecord(ctx, desired) };
    }
    return { kind: "none" };
  }

  /** How records are named in recovery's messages: by their import ids. */
  private recoverySubject(desired: State): RecoverySubject {
    return {
      declaration: this.declaration,
      desired,
      importIdOf: (record) => {
        const state = { ...desired, ...this.project(record, desired), ...this.partialState(desired, record) };
        return formatIdOrNothing(this.declaration, state) || `id ${String(record[this.recordKey()])}`;
      },
    };
  }

  private async readFromList(ctx: OperationContext, read: ListRead, state: State): Promise<WireRecord | undefined> {
    const key = this.recordKey();
    return (await this.listed(ctx, read, state))
      .filter((record) => read.where(record, state))
      .sort((a, b) => Number(b[key]) - Number(a[key]))[0];
  }

  private listed(ctx: OperationContext, read: ListRead, state: State): Promise<WireRecord[]> {
    return ctx.client.list<WireRecord>(parseRoute(read.list).path, pathParams(read.list, state));
  }

  private async mustRead(ctx: OperationContext, state: State): Promise<WireRecord> {
    const record = await this.readRecord(ctx, state);
    if (!record) throw new Error(`${this.declaration.name}: the object was not found right after it was written`);
    return record;
  }

  /** An asynchronous create: read until the work it scheduled is done, unless told not to wait. */
  private async awaitDone(ctx: OperationContext, record: WireRecord, state: State): Promise<WireRecord> {
    const spec = this.declaration.awaitState;
    if (!spec || (spec.skipInput && state[spec.skipInput] === false)) return record;
    const withId = { ...state, ...this.partialState(state, record) };
    return awaitFinalState(spec, record, {
      read: () => this.readRecord(ctx, withId),
      progress: this.progress,
      subject: `${this.declaration.name} ${formatIdOrNothing(this.declaration, withId)}`.trim(),
    });
  }

  /** A record's fields under their TypeScript names (the declaration's read names and record id applied). */
  private project(record: WireRecord, state: State): State {
    const declaration = this.declaration;
    const projected = fromWire(record) as State;
    for (const [field, wire] of Object.entries(declaration.readNames ?? {})) {
      if (record[wire] !== undefined) projected[field] = fromWire(record[wire]);
    }
    for (const [field, format] of Object.entries(declaration.wireFormats ?? {})) {
      if (projected[field] !== undefined && projected[field] !== null) projected[field] = format.fromWire(projected[field]);
    }
    const key = this.recordKey();
    if (declaration.recordId && record[key] !== undefined) projected[declaration.recordId] = record[key];
    Object.assign(projected, declaration.hooks?.mapRecord?.(record, state));
    return projected;
  }

  /**
   * The outputs kept in state: every declared output from the record, the inputs (in the
   * user's spelling where the server's means the same), path inputs and write-only inputs
   * from the state, create-only outputs carried over, and the engine's own fields (what a
   * setting restores, file digests).
   */
  private outputs(record: WireRecord, state: State, previous: State): State {
    const declaration = this.declaration;
    const projected = this.project(record, state);
    const writeOnly = declaration.writeOnly ?? [];
    const outs: State = {};
    for (const key of outputKeys(declaration)) {
      const value = projected[key] ?? (declaration.createOnly?.includes(key) ? state[key] : undefined);
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
    // The digest of the file the forge has, where a read hook fetched it, wins over the last upload's.
    for (const field of declaration.files ?? []) if (typeof projected[digestKey(field)] === "string") outs[digestKey(field)] = projected[digestKey(field)];
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
    const omitted = this.declaration.createOmits ?? [];
    const keys = inputKeys(this.declaration).filter((key) => !omitted.includes(key));
    const body = Object.fromEntries(bodyFields(this.declaration.create, desired, keys));
    return { ...pathParams(this.declaration.create, desired), ...this.wireBody(body) };
  }

  /** The body of a write of `keys` with the update route's wire names. */
  private writeParams(route: Route, state: State, keys: string[]): Record<string, unknown> {
    const renames = this.declaration.updateWireNames ?? {};
    const body: Record<string, unknown> = {};
    for (const [key, value] of bodyFields(route, state, keys)) body[renames[key] ?? toSnake(key)] = this.wireValue(key, value);
    return body;
  }

  /** The update body: changed fields, nested collections as their element changes. */
  private async updateParams(ctx: OperationContext, state: State, olds: State, changed: string[]): Promise<Record<string, unknown>> {
    const route = this.declaration.update as Route;
    const collections = this.declaration.collections ?? {};
    const plain = changed.filter((key) => !collections[key]);
    const body = this.writeParams(route, state, plain);
    const nested = changed.filter((key) => collections[key]);
    // Nested attributes address elements by server id: the live record has them.
    const live = nested.some((key) => collections[key]?.style === "nested-attributes") ? await this.mustRead(ctx, state) : undefined;
    for (const key of nested) {
      const collection = collections[key]!;
      const current = collection.style === "nested-attributes" ? liveElements(live, toSnake(key)) : ((olds[key] as State[] | undefined) ?? []);
      const changes = elementChanges(collection, current, (state[key] as State[] | undefined) ?? []);
      body[(this.declaration.updateWireNames ?? {})[key] ?? toSnake(key)] = wireChanges(collection, changes);
    }
    return body;
  }

  private wireBody(body: State): Record<string, unknown> {
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [toSnake(key), this.wireValue(key, value)]));
  }

  /** A field's value on the wire: file inputs as their content, declared formats applied, the
   *  rest in wire names. */
  private wireValue(key: string, value: unknown): unknown {
    if (this.declaration.files?.includes(key)) return fileUpload(value);
    const format = this.declaration.wireFormats?.[key];
    return format ? format.toWire(value) : toWire(value);
  }

  private recordKey(): string {
    return this.declaration.recordKey ?? "id";
  }

  private partialState(desired: State, record: WireRecord | undefined): State {
    const state = { ...desired };
    const key = this.recordKey();
    if (this.declaration.recordId && isPlainObject(record) && record[key] !== undefined) {
      state[this.declaration.recordId] = record[key];
    }
    return state;
  }

  /**
   * The error of a create that failed after the object exists: Pulumi records the object (id and
   * properties) as created but not initialised, shows the reasons, and acts on it later (refresh,
   * destroy, a replacing up). The properties carry the serialized provider, as a created
   * resource's do, or every later step would fail to load it.
   */
  private partialFailure(error: unknown, state: State, provider?: unknown): unknown {
    try {
      const id = formatId(this.declaration, state);
      const message = error instanceof Error ? error.message : String(error);
      const properties = provider === undefined ? state : { ...state, __provider: provider };
      return Object.assign(new Error(message), { id, properties, reasons: [message] });
    } catch {
      return error;
    }
  }

  /** Runs a write; an API error the declaration has a hint for gets the hint. */
  private async explained<T>(state: State, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      throw this.withHint(error, state);
    }
  }

  private withHint(error: unknown, state: State): unknown {
    if (!(error instanceof ForgeApiError)) return error;
    const hints = [...(this.declaration.errorHints ?? []), ...availabilityHints(this.declaration)];
    const hint = hints.find((entry) => entry.status === error.status && (entry.when?.(state) ?? true));
    if (hint && !error.message.includes(hint.hint)) error.message = `${error.message} (${hint.hint})`;
    return error;
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
      createOwned: (state, attempt) =>
        createOwned(
          { kind: "identity", turn: `${this.declaration.name} ${formatIdOrNothing(this.declaration, state)}`, find: () => this.readRecord(ctx, state) },
          this.recoverySubject(state),
          attempt,
        ),
    };
    return ctx;
  }
}

/** The create claim of {@link CLAIM_KEY}: kept from the state, stamped now for a new resource
 *  (no earlier inputs), absent for a resource created before claims existed. */
function createClaim(olds: State): State {
  if (typeof olds[CLAIM_KEY] === "string") return { [CLAIM_KEY]: olds[CLAIM_KEY] };
  return Object.keys(withoutReserved(olds)).length === 0 ? { [CLAIM_KEY]: new Date().toISOString() } : {};
}

function hasFields(record: unknown): record is WireRecord {
  return isPlainObject(record) && Object.keys(record).length > 0;
}

/** The elements of a nested list in the live record, with TypeScript names and nulls dropped. */
function liveElements(record: WireRecord | undefined, wireField: string): State[] {
  const list = record?.[wireField];
  if (!Array.isArray(list)) return [];
  return list.map((element) => Object.fromEntries(Object.entries(fromWire(element) as State).filter(([, value]) => value !== null)));
}

function formatIdOrNothing(declaration: AnyDeclaration, state: State): string {
  try {
    return formatId(declaration, state);
  } catch {
    return "";
  }
}

/** Progress in the provider process: Pulumi's log when the engine is attached, stderr otherwise. */
function defaultProgress(message: string): void {
  try {
    // Loaded here: the engine module must stay loadable without an attached Pulumi engine.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    void (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).log.info(message);
  } catch {
    process.stderr.write(`${message}\n`);
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
