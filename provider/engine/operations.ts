import { isDeepStrictEqual } from "node:util";
import { ForgeApiError, isNotFound, isPlainObject, type ForgeClient, type ListOptions } from "../client";
import { checkInputs, forEngine } from "./check";
import { comparable, sameValue } from "./compare";
import type { AnyDeclaration, CallOptions, ListRead, OperationContext, Route, State, WireRecord } from "./declaration";
import { recordIdOf, fileInputs, hasIdentity, inputKeys, optionsOf, replacedOnRemoval, replacementKeys, resetValue } from "./declaration";
import { AnotherObjectError, anotherObjectReason, evidenceFields, isAnotherObject, keepsEvidence } from "./evidence";
import { desiredDigest, withDesiredDigests, withFileDigests } from "./files";
import { withHintsOnError, withHint } from "./hints";
import { formatId, idFormat, parseId } from "./ids";
import {
  comparedOnImport,
  importedInputs,
  importedState,
  importMark,
  importMarkOf,
  importMismatchFailures,
  importRefusal,
  unprovenWriteOnlyChanges,
} from "./imports";
import { getPath, withoutPath } from "./paths";
import {
  PartialCreateError,
  type CheckOptions,
  type LifeCycleStep,
  type ProgressSink,
  type Checked,
  type CreateOptions,
  type Created,
  type Diffed,
  type Found,
  type InputFailure,
  type Standing,
  type Updated,
} from "./outcomes";
import { inputsOf, outputs, project, recordKeyOf, withRecordId } from "./projection";
import { createOwned, recoveryPlan, type RecoveryPlan, type RecoveryReads, type RecoverySubject } from "./recovery";
import { currentUserId, groupAncestors, parentId } from "./parents";
import { droppedInheritedNotice, heldByAncestor, InheritedObjectError, ownOnly, type AncestorHolding } from "./inherited";
import { createBody, pathParams, send, updateBody, writeBody } from "./requests";
import { secretProperties } from "./secrets";
import { BurstListings, PagedListings, settledListing } from "./shared-listings";
import { extendedRestore, foundValues, restoreBody, settingBody, settingFields, settingRoute } from "./settings";
import { containsUnknown } from "./unknowns";
import { AwaitError, awaitFinalState, progressSince } from "./wait";
import { redactedError, rememberSecrets } from "../redaction";
import { Rotations } from "./rotation";
import {
  FORGE_KEY,
  APPLIED_KEY,
  CLAIM_KEY,
  currentBookkeeping,
  digestKey,
  IMPORTED_KEY,
  RESTORE_KEY,
  withoutReserved,
} from "./bookkeeping";

/** An object on the forge that a pending create may have made: its import id, when it was made
 *  (the forge's clock), and whether the forge records that another user made it. */
export interface PendingCandidate {
  id: string;
  createdAt?: string;
  madeByOther?: boolean;
}

/**
 * The inputs of an object read by its import id alone as a program writes them (forge-adopt's
 * presentation: a feature's actors by name, `force` where the forge has no definition), given
 * the inputs and outputs read. The composition root gives it; both faces' imports compare with it.
 */
export type ImportPresenter = (inputs: State, outs: State) => Promise<State>;

/**
 * The life cycle of a declaration: check, diff, create, read, update, delete, import, in the
 * engine's own types (outcomes.ts); each face adapts them to its wire (provider/faces/). Every resource goes through here; what a request carries is requests.ts, how a
 * record becomes state projection.ts, the settings strategy settings.ts, lost creates
 * recovery.ts. A declaration's hooks replace single requests, never the flow.
 */
export class ResourceOperations implements Record<LifeCycleStep, (...args: never[]) => Promise<unknown>> {
  /** The parents' listings that reads share (a declaration's `sharedListing`). */
  private readonly sharedListings = new PagedListings();
  /** The parents' listings that the looks before a burst of creates share (recovery.ts); kept across our own writes. */
  private readonly identityListings = new BurstListings();
  /** The objects this process read by their import id alone, until their next check: that check
   *  is the importing run's (engine 3.259 reads, then checks, in one run). */
  private readonly importedHere = new Set<string>();
  /** A rotating declaration's life cycle, over its credential's operations (rotation.ts). */
  private readonly rotations: { of: ResourceOperations; run: Rotations } | undefined;

  constructor(
    readonly declaration: AnyDeclaration,
    private readonly clientOf: () => ForgeClient,
    private readonly progress: ProgressSink = defaultProgress,
    private readonly present: ImportPresenter = async (inputs) => inputs,
  ) {
    const of = declaration.rotation ? new ResourceOperations(declaration.rotation.of, clientOf, progress, present) : undefined;
    this.rotations = of && { of, run: new Rotations(declaration, of, clientOf, progress) };
  }

  async check(previous: State, news: State, options: CheckOptions = {}): Promise<Checked> {
    const olds = currentBookkeeping(previous);
    const failures = checkInputs(this.declaration, news);
    const files = withFileDigests(this.declaration, news);
    failures.push(...files.failures);
    let inputs = { ...files.inputs, ...createClaim(olds) };
    if (failures.length === 0) {
      const imported = this.checkImport(olds, news, inputs, options);
      failures.push(...imported.failures);
      inputs = imported.inputs;
    }
    return failures.length > 0 ? { inputs, failures: forEngine(failures) } : { inputs };
  }

  /**
   * The import rule at check (imports.ts). An object read by its import id alone that no program
   * has matched yet (its mark in `olds`): the program's inputs must be what the forge holds, or
   * this fails, before any write. The run that imports keeps no write-only value it cannot prove.
   */
  private checkImport(olds: State, news: State, inputs: State, options: CheckOptions): { inputs: State; failures: InputFailure[] } {
    const mark = importMarkOf(olds);
    const importing = options.importing === true || (mark !== undefined && this.importedHere.delete(mark.id));
    if (mark && news[IMPORTED_KEY] === undefined) {
      const forge = importedState(olds, mark);
      const desired = comparedOnImport(this.declaration, withoutReserved(inputs));
      const mismatched = this.changedInputs(forge, desired).filter((key) => !containsUnknown(desired[key]));
      if (mismatched.length > 0) {
        const reasons = importMismatchFailures(
          mark.id,
          mismatched,
          desired,
          forge,
          secretProperties(this.declaration, options.secretInputs),
        );
        return { inputs, failures: reasons.map((reason) => ({ property: "", reason })) };
      }
      // Values still unknown at preview are compared once they are known: the mark stays till then.
      if (inputKeys(this.declaration).some((key) => containsUnknown(desired[key])))
        return { inputs: { ...inputs, [IMPORTED_KEY]: mark }, failures: [] };
    }
    return { inputs: importing ? importedInputs(this.declaration, inputs) : inputs, failures: [] };
  }

  async diff(_id: string, previous: State, news: State): Promise<Diffed> {
    const olds = currentBookkeeping(previous);
    const changed = await this.withoutRespelledParents(olds, news, this.changedInputs(olds, news));
    const removed = this.removedInputs(olds, news);
    const replacing = replacementKeys(this.declaration);
    const byRemoval = replacedOnRemoval(this.declaration);
    const replacedByRemoval = removed.filter((key) => replacing.includes(key) || byRemoval.includes(key));
    const unexpressible = removed.filter((key) => !replacedByRemoval.includes(key) && !(key in (this.declaration.resets ?? {})));
    if (unexpressible.length > 0) {
      // Never silently nothing: say so at preview, before anything is sent.
      throw new Error(
        `${this.declaration.name}: removing ${unexpressible.join(", ")} from the program cannot be applied: the forge has no way to clear it. Set the value you want instead.`,
      );
    }
    const replaces = [...changed.filter((key) => replacing.includes(key) || this.nestedReplacement(key, olds, news)), ...replacedByRemoval];
    if (this.rotations && replaces.length === 0) {
      // Due on the forge's clock, or asked for by a change: said at preview, with the reason.
      const reason = await this.masked([olds], () => this.rotations!.run.reason(olds, news, [...changed, ...removed]));
      if (reason) this.rotations.run.announce(olds, reason);
      if (reason) return { changes: true, replaces: [], deleteBeforeReplace: false };
    }
    return {
      changes: changed.length > 0 || removed.length > 0,
      replaces,
      deleteBeforeReplace: this.declaration.deleteBeforeReplace ?? false,
    };
  }

  async create(inputs: State, options: CreateOptions = {}): Promise<Created> {
    return this.masked([inputs], async () => {
      try {
        const created = await this.withListingsForgotten(() => this.createObject(inputs, options));
        return { ...created, outs: this.stamped(created.outs) };
      } catch (error) {
        if (error instanceof PartialCreateError) error.properties = this.stamped(error.properties);
        throw error;
      }
    });
  }

  /** Outputs with the forge they were read on (bookkeeping.ts {@link FORGE_KEY}). */
  private stamped(outs: State): State {
    return { ...outs, [FORGE_KEY]: this.clientOf().baseUrl };
  }

  /**
   * Runs a step with the secret values of its states remembered (provider/redaction.ts): no error
   * it throws shows one, whatever its source (a forge that echoes an input in its message).
   */
  private async masked<T>(states: State[], step: () => Promise<T>): Promise<T> {
    const secret = secretProperties(this.declaration);
    rememberSecrets(
      states.flatMap((state) =>
        Object.entries(state)
          .filter(([key]) => secret.has(key))
          .map(([, value]) => value),
      ),
    );
    try {
      return await step();
    } catch (error) {
      throw redactedError(error);
    }
  }

  /** A write of this kind: the listings reads share are forgotten before and after it, so no
   *  read in this process sees a page from before the write. */
  private async withListingsForgotten<T>(write: () => Promise<T>): Promise<T> {
    this.sharedListings.forget();
    try {
      return await write();
    } finally {
      this.sharedListings.forget();
    }
  }

  private async createObject(inputs: State, options: CreateOptions): Promise<Created> {
    const declaration = this.declaration;
    const desired = withDesiredDigests(declaration, this.withApplied(withoutReserved(inputs)));
    if (this.rotations) {
      if (options.importId) throw new Error(this.importRefusal());
      return this.rotations.run.create(desired);
    }
    if (options.importId) return this.importObject(options.importId, desired);

    const ctx = this.context();
    if (declaration.setting) return this.createSetting(ctx, desired);
    const hook = declaration.hooks?.create;
    const record = await withHintsOnError(declaration, desired, () =>
      createOwned(this.recoveryPlan(ctx, desired), this.recoverySubject(desired), () =>
        hook ? hook(ctx, desired) : send<WireRecord | undefined>(ctx, declaration.create, desired, createBody(declaration, desired)),
      ),
    );
    // The object exists from here on: a failure below must still record it, or it is orphaned.
    const partial = withRecordId(declaration, desired, record);
    // The last record seen of the object, for the state a failure below records. A create answer
    // that is read back is not the object's shape (a snippet's lists paths, not contents): a
    // state made of it would make every later diff see changes that are not there, so the state
    // is then what the program sent, which the forge made.
    let seen: WireRecord | undefined = hasFields(record) && !optionsOf(declaration.create).readBack ? record : undefined;
    try {
      const late = await this.writeOmitted(ctx, partial);
      const [answer, request] = late ? [late.record, declaration.update] : [record, declaration.create];
      let current = hasFields(answer) && !optionsOf(request).readBack ? answer : await this.mustRead(ctx, partial);
      seen = current;
      current = await this.awaitDone(ctx, current, partial);
      const outs = outputs(declaration, current, partial, desired);
      return { id: formatId(declaration, outs), outs };
    } catch (error) {
      const last = error instanceof AwaitError ? error.record : seen;
      throw this.partialFailure(error, last ? this.outputsOrState(last, partial, desired) : partial);
    }
  }

  /** A read by the id alone (`props` empty: an import), or of an import no program has matched
   *  yet (`props` carries its mark), returns inputs marked (imports.ts). */
  async read(id: string, props: State): Promise<Found> {
    const found = await this.readObject(id, props);
    return found.id === "" ? found : { ...found, props: this.stamped(found.props) };
  }

  private async readObject(id: string, props: State): Promise<Found> {
    const bag = currentBookkeeping(props);
    const previous = withoutReserved(bag);
    const byIdAlone = Object.keys(previous).length === 0;
    const unconfirmed = byIdAlone || importMarkOf(bag) !== undefined;
    const state = { ...previous, ...parseId(this.declaration, id) };
    if (this.rotations) {
      if (byIdAlone) throw new Error(this.importRefusal());
      const found = await this.masked([previous], () => this.rotations!.run.read(id, { ...bag, ...state }));
      return found.id === "" ? found : { ...found, inputs: inputsOf(this.declaration, found.props) };
    }
    const ctx = this.context();
    const record = await this.masked([previous], () => this.readRecord(ctx, state));
    if (!record) {
      // An ancestor's object is not the group's: `pulumi import` (a read by the id alone) of one
      // fails naming its own import id; a refresh drops it from the state and says it stays.
      const holder = await this.ancestorHolding(ctx, state);
      if (holder && byIdAlone) throw new InheritedObjectError(this.declaration, "import", state, holder);
      if (holder) this.progress(droppedInheritedNotice(this.declaration, state, holder), "warning");
      return { id: "", props: {} };
    }
    if (isAnotherObject(this.declaration, previous, record)) {
      // The state's object is gone; the one under its name now is someone else's, never taken for it.
      this.progress(
        `${anotherObjectReason(this.declaration, state)}. Read as gone; the object is left alone (import it if it is meant to be managed here).`,
        "warning",
      );
      return { id: "", props: {} };
    }
    let outs = outputs(this.declaration, record, state, previous);
    const foundId = formatId(this.declaration, outs);
    const work = optionsOf(this.declaration.create).await;
    const moved = work && progressSince(work, previous, outs, `${this.declaration.name} ${foundId}`);
    if (moved) this.progress(moved);
    let inputs = inputsOf(this.declaration, outs);
    if (byIdAlone) {
      // An import: the inputs as a program writes them, which later diffs compare like with like.
      inputs = await this.present(inputs, outs);
      outs = { ...outs, ...inputs };
      this.importedHere.add(foundId);
    }
    if (unconfirmed) inputs[IMPORTED_KEY] = importMark(this.declaration, foundId, outs);
    return { id: foundId, props: outs, inputs };
  }

  async update(id: string, previous: State, news: State): Promise<Updated> {
    const updated = await this.masked([previous, news], () =>
      this.withListingsForgotten(() => this.updateObject(id, currentBookkeeping(previous), news)),
    );
    return { ...updated, outs: this.stamped(updated.outs) };
  }

  private async updateObject(id: string, olds: State, news: State): Promise<Updated> {
    const declaration = this.declaration;
    const desired = withDesiredDigests(declaration, this.withApplied(withoutReserved(news)));
    if (this.rotations) {
      const changed = [
        ...(await this.withoutRespelledParents(olds, news, this.changedInputs(olds, news))),
        ...this.removedInputs(olds, news),
      ];
      return { outs: await this.rotations.run.update({ ...olds, ...parseId(declaration, id) }, desired, changed) };
    }
    const state = { ...withoutReserved(olds), ...parseId(declaration, id), ...desired };
    if (declaration.setting) state[RESTORE_KEY] = extendedRestore(declaration, olds, desired);
    // A blank file input leaves no file on the forge: no digest either.
    for (const field of fileInputs(declaration))
      if (desired[field] !== undefined && desired[digestKey(field)] === undefined) delete state[digestKey(field)];
    // A dropped input is written as its reset (a replacement never reaches update).
    const removed = this.removedInputs(olds, news);
    for (const key of removed) {
      const value = resetValue(declaration, key, state);
      if (value === undefined) delete state[key];
      else state[key] = value;
    }
    const changed = [
      ...(await this.withoutRespelledParents(olds, news, this.changedInputs(olds, news))),
      ...removed.filter((key) => state[key] !== undefined),
    ];
    const ctx = this.context();
    // Nothing is written to an object the state does not hold (engine/evidence.ts); the record
    // read to tell serves as the live record a nested collection's changes need.
    const held = await this.judged(ctx, state);
    if (held?.another) throw new AnotherObjectError(declaration, state);
    const live = held?.record;
    let record: WireRecord | undefined;
    if (changed.length > 0) {
      const hook = declaration.hooks?.update;
      record = await withHintsOnError(declaration, state, async () => {
        if (hook) return hook(ctx, state, changed, olds);
        const request = declaration.update;
        if (!request) throw new Error(`${declaration.name} cannot be updated in place`);
        return send<WireRecord | undefined>(
          ctx,
          request,
          state,
          await updateBody(declaration, request, state, olds, changed, async () => live ?? (await this.mustRead(ctx, state))),
        );
      }).catch(async (error: unknown) => {
        // The forge changes an ancestor's object only through its own group: say whose it is.
        const holder = isNotFound(error) ? await this.ancestorHolding(ctx, state) : undefined;
        throw holder ? new InheritedObjectError(declaration, "update", state, holder) : error;
      });
    }
    const answered = hasFields(record) && !optionsOf(declaration.update).readBack;
    const current = answered ? (record as WireRecord) : await this.mustRead(ctx, state);
    return { outs: outputs(declaration, current, state, { ...withoutReserved(olds), ...desired }) };
  }

  async delete(id: string, props: State): Promise<void> {
    return this.masked([props], () => this.withListingsForgotten(() => this.deleteObject(id, props)));
  }

  private async deleteObject(id: string, props: State): Promise<void> {
    const declaration = this.declaration;
    // Read by its import id and never matched by a program (a refused import): not this stack's
    // to delete. It leaves the stack; the forge keeps it.
    if (importMarkOf(currentBookkeeping(props))) {
      this.progress(
        `${declaration.name} ${id}: imported but never matched by the program, so not this stack's: dropped from the stack, left on the forge`,
      );
      return;
    }
    const state = { ...withoutReserved(currentBookkeeping(props)), ...parseId(declaration, id) };
    if (this.rotations) return this.rotations.run.delete(state);
    const ctx = this.context();
    try {
      if ((await this.judged(ctx, state))?.another) {
        this.progress(
          `${anotherObjectReason(declaration, state)}. Not deleted: the resource is gone, and the object is left to whoever made it.`,
          "warning",
        );
        return;
      }
      const hook = declaration.hooks?.delete;
      if (hook) await hook(ctx, state);
      else if (declaration.setting) {
        const body = restoreBody(declaration, state);
        if (body) await send(ctx, settingRoute(declaration), state, body);
      } else if (declaration.delete) await send(ctx, declaration.delete, state, optionsOf(declaration.delete).body ?? {});
    } catch (error) {
      if (isNotFound(error)) {
        // Gone is gone, unless the state holds an ancestor's object, which the forge deletes only
        // through its own group: "deleted" would hide an object that stays.
        const holder = await this.ancestorHolding(ctx, state);
        if (holder) throw new InheritedObjectError(declaration, "delete", state, holder);
        return;
      }
      // Some deletes of a missing object answer 400 (allowlist entries): gone is gone.
      if (error instanceof ForgeApiError && error.status < 500 && !(await this.readRecord(ctx, state))) return;
      throw withHint(declaration, error, state);
    }
  }

  /**
   * The record under the state's address, and whether it is another object than the state's (by
   * the evidence the state kept), before a write; undefined, with nothing read, for kinds that
   * keep no evidence and states that hold none.
   */
  private async judged(ctx: OperationContext, state: State): Promise<{ record: WireRecord | undefined; another: boolean } | undefined> {
    if (evidenceFields(this.declaration).length === 0 || !keepsEvidence(state)) return undefined;
    const record = await this.readRecord(ctx, state);
    return { record, another: record !== undefined && isAnotherObject(this.declaration, state, record) };
  }

  /**
   * What the forge holds under a resource's address, judged against its state (for
   * forge-recover's pending deletes and updates): nothing; the state's own object (its id names
   * the record, or its evidence is on it); another object (none of its evidence is); an object
   * nothing tells from one made since under the same address; or a setting, which the program
   * writes over by design.
   */
  async standing(id: string, props: State): Promise<Standing> {
    const declaration = this.declaration;
    const state = { ...withoutReserved(currentBookkeeping(props)), ...parseId(declaration, id) };
    const record = await this.readRecord(this.context(), state);
    if (!record) return "gone";
    if (declaration.setting || (hasIdentity(declaration.identity) && declaration.identity.takesOver)) return "setting";
    if (evidenceFields(declaration).length > 0)
      return !keepsEvidence(state) ? "unproven" : isAnotherObject(declaration, state, record) ? "another" : "same";
    const recordId = recordIdOf(declaration).output;
    return recordId !== undefined && declaration.idParts.includes(recordId) ? "same" : "unproven";
  }

  /** Input fields whose desired value differs from the state. Unset optional inputs are not managed. */
  changedInputs(olds: State, news: State): string[] {
    const changed: string[] = [];
    const files = fileInputs(this.declaration);
    for (const key of inputKeys(this.declaration)) {
      const desired = this.comparedWriteOnly(key, news[key], olds[key]);
      if (desired === undefined) continue;
      if (files.includes(key) && !containsUnknown(desired)) {
        // A file is its content: compared by digest wherever it lies (the forge's file read back,
        // or the last upload), the same path with new content is a change, and a file moved
        // elsewhere unchanged is none. Blank (no file) is compared as a value.
        const [want, have] = [desiredDigest(key, news), olds[digestKey(key)]];
        if (want !== undefined && have !== undefined ? want !== have : !sameValue(this.declaration, key, desired, olds[key]))
          changed.push(key);
        continue;
      }
      if (containsUnknown(desired) || !sameValue(this.declaration, key, desired, olds[key])) changed.push(key);
    }
    return changed;
  }

  /**
   * `changed` without the group or project of the object's address that the program now writes
   * by id where the state has its path, or the other way round (`3` for `acme/web`): the same
   * group or project, so the same object, neither replaced nor updated. One read per spelling
   * (engine/parents.ts); two paths are compared as text, with no request.
   */
  private async withoutRespelledParents(olds: State, news: State, changed: string[]): Promise<string[]> {
    const numeric = (value: unknown) => typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value));
    const kept: string[] = [];
    for (const key of changed) {
      const parent = key === "group" || key === "project" ? key : undefined;
      if (
        parent &&
        this.declaration.idParts.includes(parent) &&
        olds[parent] !== undefined &&
        !containsUnknown(news[parent]) &&
        numeric(olds[parent]) !== numeric(news[parent])
      ) {
        const [before, after] = await Promise.all([
          parentId(this.clientOf(), parent, olds[parent]),
          parentId(this.clientOf(), parent, news[parent]),
        ]);
        if (typeof before === "number" && before === after) continue;
      }
      kept.push(key);
    }
    return kept;
  }

  /** True when a changed object input differs at a dotted `replaceOn` path inside it
   *  (`platformVendorAttributes.authorizationType`), compared by the input's meaning. */
  private nestedReplacement(key: string, olds: State, news: State): boolean {
    const paths = replacementKeys(this.declaration).filter((path) => path.startsWith(`${key}.`));
    const [before, after] = [comparable(this.declaration, key, olds[key]), comparable(this.declaration, key, news[key])];
    return paths.some(
      (path) => !isDeepStrictEqual(getPath(before, path.slice(key.length + 1)), getPath(after, path.slice(key.length + 1))),
    );
  }

  /**
   * The desired value of an input as compared with the state, for write-only values the state does
   * not hold (the forge never returns them; an import could not prove them: imports.ts). A kind
   * updated in place counts each as a change: the stack has never written it, and the update
   * that does is shown. A kind only replaced leaves them out: writing one would replace the object.
   */
  private comparedWriteOnly(key: string, desired: unknown, old: unknown): unknown {
    if (unprovenWriteOnlyChanges(this.declaration)) return desired;
    if (this.declaration.writeOnly?.includes(key) && old === undefined) return undefined;
    const unknown = (this.declaration.writeOnly ?? []).filter(
      (path) => path.startsWith(`${key}.`) && getPath(old, path.slice(key.length + 1)) === undefined,
    );
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
      if (typeof read === "object" && "list" in read) return await this.readFromList(ctx, read, state);
      // A kind whose reads under a group show its ancestors' objects reads its group's own only.
      const own = ownOnly(this.declaration);
      const shared = optionsOf(read).sharedListing;
      const id = shared && state[recordIdOf(this.declaration).output ?? ""];
      if (shared && id !== undefined) {
        const params = { ...pathParams(shared, state), ...own };
        const answer = await this.sharedListings.read(
          `${String(shared)} ${JSON.stringify(params)}`,
          String(id),
          () => this.clientOf().pages<WireRecord>(shared, params),
          (record) => String(recordKeyOf(this.declaration, record)),
        );
        if (answer !== "ask") return answer.record;
      }
      const record = await send<WireRecord>(ctx, read, state, own);
      const exists = optionsOf(read).exists;
      return exists && !(isPlainObject(record) && exists(record)) ? undefined : record;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** A setting: remember what is there, then write the program's values over it. */
  private async createSetting(ctx: OperationContext, desired: State): Promise<Created> {
    const declaration = this.declaration;
    const before = await this.readRecord(ctx, desired);
    if (!before)
      throw new Error(`${declaration.name}: the object whose settings these are does not exist (${formatId(declaration, desired)})`);
    const state = { ...desired, [RESTORE_KEY]: foundValues(declaration, desired, project(declaration, before, desired)) };
    const route = settingRoute(declaration);
    const record = await withHintsOnError(declaration, desired, () =>
      send<WireRecord | undefined>(ctx, route, state, settingBody(declaration, state)),
    );
    try {
      const current = hasFields(record) && !optionsOf(route).readBack ? record : await this.mustRead(ctx, state);
      const outs = outputs(declaration, current, state, desired);
      return { id: formatId(declaration, outs), outs };
    } catch (error) {
      throw this.partialFailure(error, state);
    }
  }

  /** The inputs the create route leaves out (`omit`), written with the update route once the
   *  object exists; undefined when the program sets none of them. */
  private async writeOmitted(ctx: OperationContext, state: State): Promise<{ record: WireRecord | undefined } | undefined> {
    const keys = (optionsOf(this.declaration.create).omit ?? []).filter((key) => state[key] !== undefined);
    if (keys.length === 0) return undefined;
    const route = settingRoute(this.declaration);
    return {
      record: await withHintsOnError(this.declaration, state, () =>
        send<WireRecord | undefined>(ctx, route, state, writeBody(this.declaration, route, state, keys)),
      ),
    };
  }

  /** Takes over an existing object (the `import` resource option of the dynamic face): the
   *  program's inputs must already match it, or nothing is taken and nothing sent (imports.ts). */
  private async importObject(importId: string, desired: State): Promise<Created> {
    const declaration = this.declaration;
    const state = { ...desired, ...parseId(declaration, importId) };
    const ctx = this.context();
    const record = await this.readRecord(ctx, state);
    if (!record) {
      // The forge shows an ancestor's object through the group: it is not the group's to import.
      const holder = await this.ancestorHolding(ctx, state);
      if (holder) throw new InheritedObjectError(declaration, "import", state, holder);
      throw new Error(`${declaration.name}: cannot import "${importId}": it does not exist`);
    }
    const compared = comparedOnImport(declaration, desired);
    // What the forge holds, as a read by the import id alone sees it (the plugin face's import):
    // nothing of the program's.
    const seen = outputs(declaration, record, parseId(declaration, importId), compared);
    const forge = { ...seen, ...(await this.present(inputsOf(declaration, seen), seen)) };
    const mismatched = this.changedInputs(forge, compared);
    if (mismatched.length > 0)
      throw new Error(importRefusal(declaration, importId, mismatched, compared, forge, secretProperties(declaration)));
    // The state holds what the import proved: no write-only value it could not (imports.ts).
    const outs = importedInputs(declaration, outputs(declaration, record, state, desired));
    // An imported setting restores, on delete, what it found: the values it imported.
    if (declaration.setting) outs[RESTORE_KEY] = Object.fromEntries(settingFields(declaration, desired).map((key) => [key, outs[key]]));
    return { id: formatId(declaration, outs), outs };
  }

  /**
   * The objects a create that a killed run left pending may have made, for `forge-recover`: the
   * object of its identity, or every record that matches it for kinds nothing identifies (with
   * the forge's creation time where the record has one). `rule` says which proof applies.
   */
  async pendingCreateCandidates(inputs: State): Promise<{ rule: RecoveryPlan["kind"]; candidates: PendingCandidate[] }> {
    // A rotating resource's create makes one credential: its candidates are the credential's.
    if (this.rotations) return this.rotations.of.pendingCreateCandidates(this.rotations.run.shape.inputs(withoutReserved(inputs)));
    const desired = withoutReserved(inputs);
    const ctx = this.context();
    const plan = this.recoveryPlan(ctx, desired);
    const subject = this.recoverySubject(desired);
    const describe = async (record: WireRecord): Promise<PendingCandidate> => ({
      id: subject.importIdOf(record),
      ...(typeof record["created_at"] === "string" ? { createdAt: record["created_at"] } : {}),
      ...(plan.kind === "newer" && (await plan.madeByOther(record)) ? { madeByOther: true } : {}),
    });
    if (plan.kind === "identity") {
      // An object only an ancestor holds was not made by a create in its subgroup: no candidate.
      const found = await plan.find().catch((error: unknown) => {
        if (error instanceof InheritedObjectError) return undefined;
        throw error;
      });
      return { rule: plan.kind, candidates: found ? [await describe(found)] : [] };
    }
    if (plan.kind === "newer")
      return { rule: plan.kind, candidates: await Promise.all((await plan.settled()).filter(plan.matches).map(describe)) };
    return { rule: plan.kind, candidates: [] };
  }

  /** Why a rotating resource is never imported. */
  private importRefusal(): string {
    const { of, noun } = this.declaration.rotation!;
    return (
      `${this.declaration.name} cannot be imported: the forge shows a ${noun}'s value only in the answer to its create, so an imported ${noun} would have no value to hand out, ` +
      `and a rotation would revoke what this stack never made. Import the ${noun} as ${of.name} (import id ${idFormat(of)}), or let this resource make its own ${noun}s and revoke the old one once nothing uses it.`
    );
  }

  /** How a create whose answer was lost proves what it made (recovery.ts), from the identity. */
  private recoveryPlan(ctx: OperationContext, desired: State): RecoveryPlan {
    return recoveryPlan(this.declaration, desired, this.recoveryReads(ctx, desired));
  }

  private recoveryReads(ctx: OperationContext, desired: State): RecoveryReads {
    return {
      readRecord: (state) => this.readRecord(ctx, state),
      get: (route, state) => ctx.call<WireRecord>(route, state),
      list: (route, state, query) => this.listed(ctx, route, state, query),
      project: (record) => project(this.declaration, record, desired),
      keyOf: (record) => String(recordKeyOf(this.declaration, record)),
      parentId: (field, value) => parentId(this.clientOf(), field, value),
      currentUserId: () => currentUserId(this.clientOf()),
      heldByAncestor: (state, lookup) => this.ancestorHolding(ctx, state, lookup),
      sharedList: (route, state, identity) =>
        this.identityListings.take(`${String(route)} ${JSON.stringify(pathParams(route, state))}`, identity, () =>
          this.clientOf().pages<WireRecord>(route, pathParams(route, state)),
        ),
    };
  }

  /** How records are named in recovery's messages: by their import ids. */
  private recoverySubject(desired: State): RecoverySubject {
    return {
      declaration: this.declaration,
      desired,
      importIdOf: (record) => this.importIdIn(desired, record),
    };
  }

  /** The import id of a record found under the parent `state` names. */
  private importIdIn(state: State, record: WireRecord): string {
    const found = { ...state, ...project(this.declaration, record, state), ...withRecordId(this.declaration, state, record) };
    return formatIdOrNothing(this.declaration, found) || `id ${String(recordKeyOf(this.declaration, record))}`;
  }

  /** The ancestor that holds the object `state` names (by its id, unless `lookup` says how to find
   *  it), for a kind whose reads under a group show its ancestors' objects (engine/inherited.ts);
   *  undefined, with no request, for every other kind. */
  private ancestorHolding(
    ctx: OperationContext,
    state: State,
    lookup = (inAncestor: State) => this.readRecord(ctx, inAncestor),
  ): Promise<AncestorHolding | undefined> {
    return heldByAncestor(
      this.declaration,
      state,
      (group) => groupAncestors(this.clientOf(), group),
      lookup,
      (inAncestor, record) => this.importIdIn(inAncestor, record),
    );
  }

  /** A kind with no read of one object: found in its listing, and gone only when listings that agree miss it. */
  private async readFromList(ctx: OperationContext, read: ListRead, state: State): Promise<WireRecord | undefined> {
    const pick = (records: WireRecord[]) =>
      records
        .filter((record) => read.where(record, state))
        .sort((a, b) => Number(recordKeyOf(this.declaration, b)) - Number(recordKeyOf(this.declaration, a)))[0];
    const list = () => this.listed(ctx, read.list, state, ownOnly(this.declaration));
    const listing = await list();
    const found = pick(listing);
    if (found) return found;
    const whole = await settledListing(
      formatId(this.declaration, state),
      list,
      (record) => String(recordKeyOf(this.declaration, record)),
      listing,
    );
    return pick(whole);
  }

  private listed(ctx: OperationContext, route: ListRead["list"], state: State, query: Record<string, unknown> = {}): Promise<WireRecord[]> {
    return ctx.list(route, state, query);
  }

  private async mustRead(ctx: OperationContext, state: State): Promise<WireRecord> {
    const record = await this.readRecord(ctx, state);
    if (!record) throw new Error(`${this.declaration.name}: the object was not found right after it was written`);
    return record;
  }

  /** An asynchronous create: read until the work it scheduled is done, unless told not to wait. */
  private async awaitDone(ctx: OperationContext, record: WireRecord, state: State): Promise<WireRecord> {
    const spec = optionsOf(this.declaration.create).await;
    if (!spec || (spec.skipInput && state[spec.skipInput] === false)) return record;
    const withId = withRecordId(this.declaration, state, record);
    return awaitFinalState(spec, record, {
      read: () => this.readRecord(ctx, withId),
      progress: this.progress,
      subject: `${this.declaration.name} ${formatIdOrNothing(this.declaration, withId)}`.trim(),
    });
  }

  /** The outputs of a record, or the state alone when they cannot be formed (a record without its id). */
  private outputsOrState(record: WireRecord, state: State, desired: State): State {
    try {
      const outs = outputs(this.declaration, record, state, desired);
      formatId(this.declaration, outs);
      return outs;
    } catch {
      return state;
    }
  }

  /** The error of a create that failed after the object exists ({@link PartialCreateError}), or
   *  the error as it is when the state has no id to record. */
  private partialFailure(error: unknown, state: State): unknown {
    try {
      const id = formatId(this.declaration, state);
      return new PartialCreateError(error instanceof Error ? error.message : String(error), id, state);
    } catch {
      return error;
    }
  }

  private context(): OperationContext {
    const client = this.clientOf();
    const ctx: OperationContext = {
      declaration: this.declaration,
      log: this.progress,
      call: async <T>(route: Route, state: State, params: Record<string, unknown> = {}, options: CallOptions = {}) => {
        const response = await client.request<T>(route, { ...pathParams(route, state), ...params }, options);
        return response.body;
      },
      list: <T>(route: ListRead["list"], state: State, params: Record<string, unknown> = {}, options: ListOptions = {}) =>
        client.list<T>(route, { ...pathParams(route, state), ...params }, options),
      readRecord: (state: State) => this.readRecord(ctx, state),
      createOwned: (state, attempt) =>
        createOwned(
          {
            kind: "identity",
            turn: async () => `${this.declaration.name} ${formatIdOrNothing(this.declaration, state)}`,
            find: () => this.readRecord(ctx, state),
          },
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

function formatIdOrNothing(declaration: AnyDeclaration, state: State): string {
  try {
    return formatId(declaration, state);
  } catch {
    return "";
  }
}

/** Progress where no sink was given (tools and tests): stderr. The composition root gives
 *  Pulumi's log, which the engine shows in the run's output. */
function defaultProgress(message: string, level?: "warning"): void {
  process.stderr.write(`${level ? `${level}: ` : ""}${message}\n`);
}
