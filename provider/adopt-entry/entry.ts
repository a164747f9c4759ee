import type { ForgeClient } from "../client";
import type { State } from "../engine/declaration";

/** Where the objects of a resource live: in a group, in a project, on the instance, or among the
 *  token's user's own objects (personal snippets). */
export type AdoptScope = "group" | "project" | "instance" | "user";

/** What an entry's `find` gets: where to look, and the administrator's client for what no lookup reads. */
export interface FindContext {
  /** The group's or project's full path (`acme/web`); the token's user's username for
   *  `user`; empty for the instance. */
  path: string;
  client: ForgeClient;
}

/**
 * How `forge-adopt` finds the existing objects of one resource and names them. What each object's
 * inputs are is not here: the generator reads every object by its import id through the
 * declaration's own read (the path the `import` option takes), so an entry only says where the
 * objects are.
 */
export interface AdoptEntry {
  scope: AdoptScope;
  /**
   * The objects of this resource in one group, project or the instance, each as the state
   * fields of its import id (`{ group, labelId }`): the generator forms the id and reads it.
   * Usually one lookup. A 404 for the whole listing means "none here".
   */
  find(context: FindContext): Promise<State[]>;
  /** A few words that tell the object apart within its group or project, for its names: the
   *  label's name, the agent's name. Empty for a one-per-scope setting. */
  name(inputs: State): string;
  /**
   * Inputs that are another adopted resource's output, by the key of that resource's
   * declaration: `{ agentId: "clusterAgent" }`. The target is the resource whose import id this
   * object's inputs form with the target's id parts; its output of the same name is used.
   * (A plain string here, so that this file need not import the registry, which imports every
   * resource file, which imports this one: test/unit/adopt-coverage.test.ts checks each target.)
   */
  references?: Partial<Record<string, string>>;
  /** Turns values the forge shows by internal id into what a program names (a feature's
   *  `User:4` into `dev`), the adoption reading them back by those names; or adds an input the
   *  read state implies. `outputs` is the read state. */
  present?(inputs: State, outputs: State, context: FindContext): Promise<State>;
  /**
   * Comments for inputs that hold an id, by dotted input path (`targetProjectId`,
   * `approvalRules.0.userId`): what the id names (`acme/api`, `olivia`). `outputs` is the read
   * state, which often says it already (an allowlist entry's `targetPathWithNamespace`).
   */
  describe?(inputs: State, outputs: State, context: FindContext): Promise<Record<string, string>>;
  /** Inputs (dotted paths) the program reads from secret stack config rather than writing
   *  their values, besides the declaration's secret and write-only ones: readable secrets such
   *  as a cluster's CA certificate. */
  secretInputs?: string[];
  /**
   * False to leave an object out once read and presented: one that would declare nothing (a
   * group whose settings are all the forge's defaults). `forge-drift --unmanaged` reports such an
   * object as the forge's own: it is what the forge made with its group or project.
   */
  keep?(inputs: State): boolean;
  /**
   * True for a setting of a group, a project or the instance rather than an object someone makes
   * (group settings, a job token scope, error tracking settings, a feature gate): every group or
   * project has one, so `forge-drift --unmanaged` lists one that no stack declares among the
   * settings, apart from the objects.
   */
  setting?: true;
  /**
   * Why this object is one the forge makes by itself (the membership it gives a project's creator,
   * a setting at the value a new project gets), or undefined for one a person made.
   * `forge-drift --unmanaged` reports such objects as the forge's own, never as unmanaged.
   * `inputs` are presented (as a program writes them), `outputs` the read state.
   */
  forgeOwn?(inputs: State, outputs: State, context: FindContext): Promise<string | undefined>;
  /**
   * Files the program needs beside it (a group's avatar image), fetched from the forge: each
   * input named here gets the file's path relative to the program's directory (`assets/...`),
   * which `forge-adopt --out` writes the content to. Without `--out` such an object is not
   * adopted, and the program says so.
   */
  files?(inputs: State, outputs: State, context: FindContext): Promise<AdoptFile[]>;
}

/** A file an adopted object's input names, written beside the program. */
export interface AdoptFile {
  /** The input that holds the file's path; a dotted path (`files.0.content`) with `read`. */
  input: string;
  /** The input holds the file's content, which the program reads from the file at run time
   *  (a private snippet's text: kept out of the program's text), rather than its path. */
  read?: boolean;
  /** Relative to the program's directory, with `/`: `assets/acme-avatar.png`. */
  path: string;
  content: Buffer;
}

/** A declaration the generator does not adopt, and why. */
export interface AdoptExemption {
  exempt: string;
}

/** The adopt entries of a resource file, by declaration key (`groupLabel`). */
export type AdoptEntries = Partial<Record<string, AdoptEntry | AdoptExemption>>;

/** Identity function that keeps an entry's types. */
export function defineAdopt(entry: AdoptEntry): AdoptEntry {
  return entry;
}
