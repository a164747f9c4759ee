/**
 * What the life cycle answers, in the engine's own words. The engine serves no face: each face
 * turns these into its wire (provider/faces/dynamic.ts for the dynamic classes,
 * provider/plugin/face.ts for `pulumi-resource-forge`). The shapes match what both of Pulumi's
 * provider servers expect, so an adapter adds or removes only what its face needs.
 */
import type { State } from "./declaration";

/** Where progress of long operations goes, and warnings: Pulumi's log in the provider process. */
export type ProgressSink = (message: string, level?: "warning") => void;

/**
 * The life cycle's steps, as Pulumi's provider protocol names them: the one list of the provider
 * methods. The engine's operations have a method of each name (operations.ts), each face serves
 * them (faces/dynamic.ts, plugin/face.ts), and the dynamic face's forwarders (the runtime's
 * exports, the serialized provider) are made from it.
 */
export const LIFE_CYCLE = ["check", "diff", "create", "read", "update", "delete"] as const;

/** One step of {@link LIFE_CYCLE}. */
export type LifeCycleStep = (typeof LIFE_CYCLE)[number];

/** An input the engine refuses, and why (the field's path leads the reason; see check.ts). */
export interface InputFailure {
  property: string;
  reason: string;
}

/** The inputs as the engine keeps them (file digests, the create claim), or why they are refused. */
export interface Checked {
  inputs: State;
  failures?: InputFailure[];
}

/** What a change of inputs does to the object. */
export interface Diffed {
  changes: boolean;
  /** Inputs whose change replaces the object. */
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** The object made (or taken over with the `import` option): its id and outputs. */
export interface Created {
  id: string;
  outs: State;
}

/** The object as the forge holds it now; `id` is empty when it no longer exists. */
export interface Found {
  id: string;
  props: State;
  /** The inputs a program would write for it (what later diffs compare with). */
  inputs?: State;
}

/**
 * What the forge holds under a resource's address, against its state: nothing (`gone`); the
 * state's object (`same`: its id names the record, or the evidence it kept is on it); another
 * (`another`: none of that evidence is on it, so it was made again since); an object nothing
 * tells from one made since under the address (`unproven`); or a setting (`setting`), which the
 * program writes over by design.
 */
export type Standing = "gone" | "same" | "another" | "unproven" | "setting";

/** The object after an update. */
export interface Updated {
  outs: State;
}

/** What a create is asked besides its inputs. */
/** What a face knows of a check besides the inputs. */
export interface CheckOptions {
  /** Inputs the program gave as secrets (the plugin face sees their marks): masked in failures. */
  secretInputs?: Iterable<string>;
  /** The check belongs to the run that imports the object (engine/imports.ts): a match writes nothing. */
  importing?: boolean;
}

export interface CreateOptions {
  /** Take over this existing object instead of making one (the `import` resource option). */
  importId?: string;
}

/**
 * A create that failed after the object came to exist: the engine records the object (id and
 * properties) as created but not initialised, shows the reasons, and acts on it later (refresh,
 * destroy, a replacing up). Both of Pulumi's provider servers read `id`, `properties` and
 * `reasons` off the error; a face adds what its state needs (the dynamic face its provider) and
 * marks its secrets.
 */
export class PartialCreateError extends Error {
  readonly reasons: string[];
  constructor(
    message: string,
    readonly id: string,
    public properties: State,
  ) {
    super(message);
    this.name = "PartialCreateError";
    this.reasons = [message];
  }
}
