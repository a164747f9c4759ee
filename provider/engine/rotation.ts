/**
 * Rotation: a resource that holds up to two credentials of another kind (a cluster agent's
 * tokens, a project's error tracking client keys), `current` and `previous`, both valid, so that
 * consumers switch during the overlap. A declaration says it with `rotation: { of, noun }`; the
 * credential's own declaration makes, reads and revokes each one, with its ownership rules
 * (recovery.ts). docs/guides/rotation.md says what users see; the decisions are commented here.
 *
 * - **When.** `rotateAfter` past `current`'s issue (`issuedAt`: the forge's clock when it
 *   answered the create, as its `Date` header gives it), measured on the same clock
 *   (forge-time.ts); or a change of any input but the parent's (`keepers`, a token's name or
 *   description: the new credential carries them); or `current` revoked by hand. A change of the
 *   parent replaces the resource.
 * - **Order.** A rotation revokes the `previous` it holds, makes the new credential, and keeps the
 *   old `current` as `previous`: never more than two at any moment (the forge's limit for agent
 *   tokens). With `current` revoked by hand, `previous` stays and the new one becomes `current`.
 * - **Only its own.** Before it writes, it reads the parent's credentials: one made after the
 *   newest it holds is someone else's rotation (another pipeline, a stack on an old state) or a
 *   person's, and one more that would pass the forge's limit is in the way; either stops the
 *   rotation naming its import id, before anything is revoked. After the create it reads them
 *   again: a credential another rotation made meanwhile, before its own (the forge's ids give
 *   the order), makes it revoke its own new one (its create's answer proves it is) and stop; a
 *   create the forge refuses for its limit, with another rotation's new one there, stops the
 *   same way. So of two racing runs exactly one rotates, and the other names what it found.
 * - **Nothing due, nothing written.** A diff with nothing due sends no request once the process
 *   knows the forge's clock; an update with nothing to rotate writes nothing.
 */
import { isAnswerLost, isNotFound, type ForgeClient } from "../client";
import { inputKeys, outputKeys, recordIdOf, type AnyDeclaration, type State, type WireRecord } from "./declaration";
import { forgeNow } from "./forge-time";
import { formatId } from "./ids";
import type { Created, Found, ProgressSink } from "./outcomes";
import { project, recordKeyOf } from "./projection";
import { inTurn, UnprovenCreateError } from "./recovery";
import { parentId } from "./parents";
import { pathParams } from "./requests";

/** The operations of one credential, as the credential's own declaration runs them (operations.ts). */
export interface CredentialOperations {
  create(inputs: State): Promise<Created>;
  read(id: string, props: State): Promise<Found>;
  delete(id: string, props: State): Promise<void>;
}

/** How many credentials a rotating resource holds at most (for limits across resources). */
export const ROTATION_HOLDS = 2;

/** `720h`, `30d`, `1h30m`: a duration in days, hours, minutes and seconds, in milliseconds;
 *  undefined for anything else. */
export function durationMs(text: string): number | undefined {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  if (!match || text.trim() === "") return undefined;
  const [days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number];
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
}

/** The inputs of the rotating resource that are not the credential's. */
export const SCHEDULE_INPUTS = ["rotateAfter", "keepers"] as const;

/** A credential the state holds: the credential's outputs, its secrets included. */
type Held = State;

/** A rotation refused before anything was written: the credentials in the way, by import id. */
export class RotationBlockedError extends Error {
  constructor(
    message: string,
    readonly candidates: string[],
  ) {
    super(message);
    this.name = "RotationBlockedError";
  }
}

/** What the state of a rotating resource holds, and how one credential's state is formed. */
export class RotatingState {
  readonly of: AnyDeclaration;
  readonly noun: string;
  /** The credential's id output (`tokenId`) and its record field. */
  private readonly recordId: { output: string; wire: string };
  /** The inputs that name the parent: the credential's id parts but its own id. */
  readonly parent: string[];
  private readonly secrets: string[];

  constructor(readonly declaration: AnyDeclaration) {
    const rotation = declaration.rotation;
    if (!rotation) throw new Error(`${declaration.name} does not rotate`);
    this.of = rotation.of;
    this.noun = rotation.noun;
    const id = recordIdOf(this.of);
    if (!id.output) throw new Error(`${this.of.name} has no id output to rotate by`);
    this.recordId = { output: id.output, wire: id.wire };
    this.parent = parentFields(this.of);
    this.secrets = this.of.secretOutputs ?? [];
  }

  /** The credential in `slot`, its secret values put back beside the rest. */
  held(state: State, slot: "current" | "previous"): Held | undefined {
    const visible = state[slot];
    if (typeof visible !== "object" || visible === null) return undefined;
    const held: Held = { ...(visible as State) };
    for (const secret of this.secrets)
      if (state[secretOutput(slot, secret)] !== undefined) held[secret] = state[secretOutput(slot, secret)];
    return held;
  }

  /** The state's fields of a credential in `slot` (its visible outputs, and its secrets apart). */
  slot(slot: "current" | "previous", held: Held | undefined): State {
    const fields: State = { [slot]: undefined };
    for (const secret of this.secrets) fields[secretOutput(slot, secret)] = undefined;
    if (!held) return fields;
    const visible: State = {};
    for (const [key, value] of Object.entries(held)) {
      if (this.secrets.includes(key)) fields[secretOutput(slot, key)] = value;
      else visible[key] = value;
    }
    fields[slot] = visible;
    return fields;
  }

  /** The id of a held credential, or of a record of the listing. */
  idOf(held: Held): number {
    return Number(held[this.recordId.output]);
  }
  recordKey(record: WireRecord): number {
    return Number(recordKeyOf(this.of, record));
  }

  /** The credential's inputs (what its create sends), from the rotating resource's. */
  inputs(state: State): State {
    const inputs: State = {};
    for (const key of inputKeys(this.of)) if (state[key] !== undefined) inputs[key] = state[key];
    return inputs;
  }

  /** One credential's state as its own declaration keeps it, and its id there. */
  single(state: State, held: Held): { id: string; props: State } {
    const props = { ...this.inputs(state), ...held };
    return { id: formatId(this.of, props), props };
  }

  /**
   * The outputs of a credential the forge answered (what the slot keeps). `issuedAt`: when the
   * forge answered its create, on the clock of the forge's answers (their `Date` header), which
   * is also a kind's `createdAt` where its record has none.
   */
  fromOuts(outs: State, issuedAt: string | undefined): Held {
    const held: Held = {};
    for (const key of outputKeys(this.of)) if (outs[key] !== undefined) held[key] = outs[key];
    if (issuedAt !== undefined) {
      if (held["createdAt"] === undefined) held["createdAt"] = issuedAt;
      held["issuedAt"] = issuedAt;
    }
    return held;
  }

  /** When a held credential's age starts: its `issuedAt`, on the clock "now" is read on; a state written before slots kept it has only `createdAt`. */
  private issuedAt(held: Held | undefined): number {
    const text = held?.["issuedAt"] ?? held?.["createdAt"];
    return typeof text === "string" ? Date.parse(text) : NaN;
  }

  /** The import id of a record of the parent's listing, and how messages name it. */
  describe(state: State, record: WireRecord): string {
    const found = { ...this.inputs(state), ...project(this.of, record, state), [this.recordId.output]: record[this.recordId.wire] };
    const facts = [
      typeof record["name"] === "string" ? `named ${JSON.stringify(record["name"])}` : "",
      typeof record["created_at"] === "string" ? `made ${record["created_at"]}` : "",
      record["created_by_user_id"] !== undefined ? `by user ${String(record["created_by_user_id"])}` : "",
    ].filter((fact) => fact !== "");
    return `${this.noun} ${this.recordKey(record)} (import id ${formatId(this.of, found)}${facts.length > 0 ? `, ${facts.join(" ")}` : ""})`;
  }

  /** When the state's `current` is due (the forge's clock), if the resource has a schedule. */
  dueAt(state: State): number | undefined {
    const after = typeof state["rotateAfter"] === "string" ? durationMs(state["rotateAfter"]) : undefined;
    const made = this.issuedAt(this.held(state, "current"));
    return after === undefined || !Number.isFinite(made) ? undefined : made + after;
  }

  /** The outputs besides the slots: when the next rotation is due. */
  schedule(state: State): State {
    const due = this.dueAt(state);
    return { rotationDueAt: due === undefined ? undefined : new Date(due).toISOString() };
  }
}

/** The name of a slot's secret output: `currentToken`, `previousDsn`. */
export function secretOutput(slot: "current" | "previous", secret: string): string {
  return `${slot}${secret.charAt(0).toUpperCase()}${secret.slice(1)}`;
}

/** The parent of a credential kind: its id parts without its own id. */
export function parentFields(of: AnyDeclaration): string[] {
  const own = recordIdOf(of).output;
  return of.idParts.filter((part) => part !== own);
}

/** Why an update rotates, in a few words, or undefined when nothing asks it to. */
export interface RotationReason {
  why: string;
}

/**
 * The life cycle of a rotating declaration, over the operations of one credential. Rotations of
 * one parent take turns in the provider process.
 */
export class Rotations {
  readonly shape: RotatingState;

  constructor(
    declaration: AnyDeclaration,
    private readonly single: CredentialOperations,
    private readonly clientOf: () => ForgeClient,
    private readonly progress: ProgressSink,
  ) {
    this.shape = new RotatingState(declaration);
  }

  private get name(): string {
    return this.shape.declaration.name;
  }

  /** The resource as messages name it: `RotatingClusterAgentToken "acme/web:7"`. */
  private subject(state: State): string {
    return `${this.name} ${JSON.stringify(formatId(this.shape.declaration, state))}`;
  }

  private now(): Promise<number> {
    return forgeNow(this.clientOf(), (message) => this.progress(message, "warning"));
  }

  /**
   * Why the state in `olds` rotates now, given the inputs that changed (by the generic diff): a
   * changed input other than the schedule's, `current` gone, or `rotateAfter` past on the
   * forge's clock (read only when the rest does not already decide). Undefined: nothing due.
   */
  async reason(olds: State, news: State, changed: string[]): Promise<RotationReason | undefined> {
    const content = changed.filter((key) => !(SCHEDULE_INPUTS as readonly string[]).includes(key));
    if (content.length > 0) return { why: `${content.join(", ")} changed` };
    if (changed.includes("keepers")) return { why: "keepers changed" };
    if (!this.shape.held(olds, "current")) return { why: `its current ${this.shape.noun} is gone (revoked outside the stack)` };
    const due = this.shape.dueAt({ ...olds, rotateAfter: news["rotateAfter"] });
    if (due === undefined) return undefined;
    const now = await this.now();
    if (now < due) return undefined;
    const current = this.shape.held(olds, "current")!;
    return {
      why:
        `rotation due since ${new Date(due).toISOString()} (current ${this.shape.noun} ${this.shape.idOf(current)} issued ${String(current["issuedAt"] ?? current["createdAt"])}, ` +
        `rotateAfter ${String(news["rotateAfter"])}; the forge's clock reads ${new Date(now).toISOString()})`,
    };
  }

  /** Says at preview what the update will do and why. */
  announce(olds: State, reason: RotationReason): void {
    const current = this.shape.held(olds, "current");
    const previous = this.shape.held(olds, "previous");
    const noun = this.shape.noun;
    const plan = current
      ? `makes a new ${noun}, keeps ${noun} ${this.shape.idOf(current)} as previous${previous ? ` and revokes ${noun} ${this.shape.idOf(previous)}` : ""}`
      : `makes a new ${noun}${previous ? `, keeping ${noun} ${this.shape.idOf(previous)} as previous` : ""}`;
    this.progress(`${this.subject(olds)}: ${reason.why}: the update ${plan}.`);
  }

  async create(desired: State): Promise<Created> {
    const made = await this.makeOne(desired);
    const outs = { ...desired, ...this.shape.slot("current", made), ...this.shape.slot("previous", undefined) };
    Object.assign(outs, this.shape.schedule(outs));
    return { id: formatId(this.shape.declaration, outs), outs: defined(outs) };
  }

  /** Refresh: each credential read by its own id; one revoked by hand leaves its slot, with a warning. */
  async read(id: string, state: State): Promise<Found> {
    const found: Partial<Record<"current" | "previous", Held>> = {};
    for (const slot of ["current", "previous"] as const) {
      const held = this.shape.held(state, slot);
      if (!held) continue;
      const single = this.shape.single(state, held);
      const read = await this.single.read(single.id, single.props);
      if (read.id === "") {
        this.progress(
          `${this.subject(state)}: its ${slot} ${this.shape.noun} ${this.shape.idOf(held)} is gone (revoked outside the stack)${slot === "current" ? "; the next update makes a new one" : ""}.`,
          "warning",
        );
        continue;
      }
      // What only the create's answer carried (the value) stays as the state had it.
      found[slot] = { ...held, ...this.shape.fromOuts(read.props, undefined) };
    }
    if (!found.current && !found.previous) return { id: "", props: {} };
    const outs = { ...state, ...this.shape.slot("current", found.current), ...this.shape.slot("previous", found.previous) };
    Object.assign(outs, this.shape.schedule(outs));
    return { id, props: defined(outs) };
  }

  /**
   * An update: a rotation when something asks for one (the same reasons as the diff, decided
   * again on the forge's clock now), else the new inputs and schedule with nothing written.
   */
  async update(olds: State, desired: State, changed: string[]): Promise<State> {
    const reason = await this.reason(olds, desired, changed);
    const kept = { ...this.outputsOf(olds), ...desired };
    if (!reason) return defined({ ...kept, ...this.shape.schedule(kept) });
    return inTurn(await this.turnKey(desired), () => this.rotate(olds, desired, reason));
  }

  /** Revokes both; a credential already gone is gone. */
  async delete(state: State): Promise<void> {
    for (const slot of ["previous", "current"] as const) {
      const held = this.shape.held(state, slot);
      if (held) await this.revoke(state, held);
    }
  }

  private async rotate(olds: State, desired: State, reason: RotationReason): Promise<State> {
    const current = this.shape.held(olds, "current");
    const previous = this.shape.held(olds, "previous");
    const held = [current, previous].filter((entry): entry is Held => entry !== undefined);
    const heldIds = new Set(held.map((entry) => this.shape.idOf(entry)));
    const newest = Math.max(...held.map((entry) => this.shape.idOf(entry)));
    const before = await this.listing(desired);
    const active = (entry: Held | undefined) =>
      entry !== undefined && before.some((record) => this.shape.recordKey(record) === this.shape.idOf(entry));
    const others = before.filter((record) => !heldIds.has(this.shape.recordKey(record)));
    const nothing = "Nothing was revoked or made";
    const newer = others.filter((record) => this.shape.recordKey(record) > newest);
    if (newer.length > 0) {
      throw new RotationBlockedError(
        `${this.subject(olds)} did not rotate (${reason.why}): the forge holds ${newer.map((record) => this.shape.describe(desired, record)).join(", ")}, ` +
          `made after the newest ${this.shape.noun} this resource holds (${newest}) and not held by it: another rotation (another pipeline, or a stack on an old state) or a person made it. ` +
          `${nothing}. If it is this stack's (a run whose state was lost), revoke it on the forge and run again; if it is someone else's, it is theirs to remove.`,
        newer.map((record) => this.importId(desired, record)),
      );
    }
    // What stays besides the new one: the current, or with the current gone, the previous.
    const stays = active(current) ? current : active(previous) ? previous : undefined;
    const limit = this.limit();
    if (limit !== undefined && others.length + (stays ? 1 : 0) + 1 > limit) {
      throw new RotationBlockedError(
        `${this.subject(olds)} did not rotate (${reason.why}): the forge also holds ${others.map((record) => this.shape.describe(desired, record)).join(", ")}, which this resource did not make, ` +
          `so a new ${this.shape.noun} beside ${stays ? `${this.shape.noun} ${this.shape.idOf(stays)}` : "them"} would pass the forge's limit of ${limit}. ${nothing}. ` +
          `Revoke what is not this resource's (or give this resource a parent of its own), then run again.`,
        others.map((record) => this.importId(desired, record)),
      );
    }
    // Room first: the previous goes before the new one is made.
    const revokedPrevious = stays === current && previous !== undefined && active(previous);
    if (revokedPrevious) await this.revoke(olds, previous);
    const already = revokedPrevious ? `; its previous ${this.shape.noun} ${this.shape.idOf(previous)} was revoked already` : "";
    const newcomers = (records: WireRecord[], made?: number) =>
      records.filter((record) => {
        const key = this.shape.recordKey(record);
        return key > newest && !heldIds.has(key) && (made === undefined || key < made);
      });
    const raced = (records: WireRecord[], what: string) =>
      new RotationBlockedError(
        `${this.subject(olds)} did not rotate (${reason.why}): another rotation at the same time made ${records.map((record) => this.shape.describe(desired, record)).join(", ")}, ${what} ` +
          `(the forge's ids give the order: the first made wins)${already}. Run \`pulumi refresh\` and look at who rotated before running again.`,
        records.map((record) => this.importId(desired, record)),
      );
    let made: Held;
    try {
      made = await this.makeOne(desired);
    } catch (error) {
      const rivals = newcomers(await this.listing(desired).catch(() => []));
      // The create's answer was lost: what the forge holds now may be this run's own credential.
      if (error instanceof UnprovenCreateError || isAnswerLost(error)) throw this.lost(olds, desired, reason, rivals, already);
      // Refused (the forge's limit) because another rotation's new one took the room: say so.
      if (rivals.length > 0)
        throw raced(
          rivals,
          `and the forge refused this run's new ${this.shape.noun} (${error instanceof Error ? error.message : String(error)})`,
        );
      throw error;
    }
    // Two rotations at once: the one whose new credential the forge made later gives way,
    // revoking what it made; the other sees none made before its own and stands.
    const rivals = newcomers(await this.listing(desired), this.shape.idOf(made));
    if (rivals.length > 0) {
      await this.revoke(desired, made);
      throw raced(rivals, `before this run's new ${this.shape.noun} ${this.shape.idOf(made)}, which this run revoked again`);
    }
    const outs = { ...this.outputsOf(olds), ...desired, ...this.shape.slot("current", made), ...this.shape.slot("previous", stays) };
    Object.assign(outs, this.shape.schedule(outs));
    const revoked = revokedPrevious ? `, ${this.shape.noun} ${this.shape.idOf(previous)} revoked` : "";
    this.progress(
      `${this.subject(olds)}: rotated (${reason.why}): ${this.shape.noun} ${this.shape.idOf(made)} is current${stays ? `, ${this.shape.idOf(stays)} previous` : ""}${revoked}.`,
    );
    return defined(outs);
  }

  /**
   * A rotation whose create's answer was lost: the credentials that appeared since may be this
   * run's (its value then lost with the answer, so nobody can use it) or another rotation's.
   * Nothing proves which, so nothing is revoked; the way out is forge-recover's, on the user's word.
   */
  private lost(olds: State, desired: State, reason: RotationReason, found: WireRecord[], already: string): RotationBlockedError {
    const noun = this.shape.noun;
    const one = found.length === 1;
    const there =
      found.length === 0
        ? `; the forge shows no new ${noun}, so the create may not have happened`
        : `, and the forge now holds ${found.map((record) => this.shape.describe(desired, record)).join(", ")}: this run may have made ${one ? "it" : "them"} (its value was only in the lost answer, so nobody can use ${one ? "it" : "them"}), or another rotation at the same time did`;
    const way =
      found.length === 0
        ? "Run again."
        : `If ${one ? "it is" : "one is"} this stack's, revoke it on your word: \`npx forge-recover --stack <stack> --revoke <resource name>=${this.importId(desired, found[0]!)}\` ` +
          `checks that it is one a rotation of this resource may have made and revokes it; then run again. Until then the next rotation stops on ${one ? "it" : "them"}, and a destroy leaves ${one ? "it" : "them"} active.`;
    return new RotationBlockedError(
      `${this.subject(olds)} did not finish its rotation (${reason.why}): the answer to the create of its new ${noun} was lost${there}${already}. Nothing else was revoked. ${way}`,
      found.map((record) => this.importId(desired, record)),
    );
  }

  /** A state without its inputs: an input the program dropped is gone from the next state. */
  private outputsOf(state: State): State {
    const inputs = inputKeys(this.shape.declaration);
    return Object.fromEntries(Object.entries(state).filter(([key]) => !inputs.includes(key)));
  }

  /**
   * Makes one credential with its own declaration (its ownership rules after a lost answer). Its
   * age counts from the forge's clock as its answers give it (the `Date` header), the clock the
   * schedule reads "now" on: a kind's own `created_at` comes from the forge's application, whose
   * clock a proxy's header may be hours apart from (every up rotating, or none).
   */
  private async makeOne(desired: State): Promise<Held> {
    const created = await this.single.create(this.shape.inputs(desired));
    return this.shape.fromOuts(created.outs, new Date(await this.now()).toISOString());
  }

  private async revoke(state: State, held: Held): Promise<void> {
    const single = this.shape.single(state, held);
    try {
      await this.single.delete(single.id, single.props);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** The parent's credentials, active ones (one read of its listing). */
  private listing(state: State): Promise<WireRecord[]> {
    const list = searchListing(this.shape.of);
    return this.clientOf().list<WireRecord>(list, pathParams(list, state));
  }

  private importId(state: State, record: WireRecord): string {
    return formatId(this.shape.of, {
      ...this.shape.inputs(state),
      [recordIdOf(this.shape.of).output!]: record[recordIdOf(this.shape.of).wire],
    });
  }

  /** The forge's limit of credentials per parent, if it has one. */
  private limit(): number | undefined {
    return this.shape.of.limits?.find((limit) => limit.per.every((field) => this.shape.parent.includes(field)))?.max;
  }

  /** Rotations of one parent take turns here: the key names it by id, however it is spelled. */
  private async turnKey(state: State): Promise<string> {
    const parts = await Promise.all(
      this.shape.parent.map((field) =>
        field === "project" || field === "group" ? parentId(this.clientOf(), field, state[field]) : Promise.resolve(state[field]),
      ),
    );
    return JSON.stringify([this.name, ...parts]);
  }
}

/** The listing of a credential kind's parent (its identity's search). */
export function searchListing(of: AnyDeclaration) {
  const search = "none" in of.identity ? of.identity.search : undefined;
  if (!search) throw new Error(`${of.name} has no listing of its parent to rotate by`);
  return search.list;
}

/** A state without its undefined fields (Pulumi keeps no undefined). */
function defined(state: State): State {
  return Object.fromEntries(Object.entries(state).filter(([, value]) => value !== undefined));
}
