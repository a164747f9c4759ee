/**
 * The two faces of the provider, as the life cycle (life-cycle.test.ts) drives them: one thin
 * adapter each, over one face-neutral shape, so that the steps are written once.
 *
 * - `dynamic`: what a TypeScript program's resources call. The serialized provider Pulumi stores
 *   with each resource is `{ typeName }` whose prototype is the runtime module's exports
 *   (provider/serialized-provider.ts), so the adapter calls those exports with `this` set the same
 *   way, and passes `__provider` in every property bag, as Pulumi does.
 * - `plugin`: what `pulumi-resource-forge` serves (the `provider.Provider` of the plugin face),
 *   addressed by URN and type token, property bags with secrets marked as on the wire.
 *
 * Both run in this process against the emulator over real HTTP. What a face keeps secret in the
 * state comes back as `secret`: the keys marked on the wire (plugin); the keys the dynamic
 * class passes as `additionalSecretOutputs` (dynamic: the declaration's secret keys, which
 * test/unit/dynamic-secrets.test.ts checks on the class for every declaration).
 *
 * Only this file knows where the faces live: a change of their module paths or return types is
 * an edit here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as provider from "@pulumi/pulumi/provider";
import { derivedOutputs, declaredSecrets, type State } from "../../../provider/engine/declaration";
import { conceal, reveal } from "../../../provider/plugin/face";
import { pluginToken } from "../../../provider/type-tokens";
import * as runtime from "../../../provider/runtime";
import { pluginProvider as buildPluginProvider } from "../../../provider/plugin/loaded";
import { declarationByName } from "../../../provider/resources";

export interface Failure {
  property: string;
  reason: string;
}

/** The result of check: failures, and the inputs as the engine sends them on (wire form). */
export interface Checked {
  failures?: Failure[];
  sent: State;
}

export interface Diffed {
  changes: boolean;
  replaces: string[];
}

/** A state the face returned: plain values, and the keys the state keeps secret. */
export interface Written {
  id: string;
  outs: State;
  secret: Set<string>;
}

export interface Read extends Written {
  /** The inputs a read derives (what `pulumi import` writes into the program). */
  inputs: State;
}

export interface Face {
  name: "dynamic" | "plugin";
  check(type: string, olds: State, news: State): Promise<Checked>;
  /** The plain inputs of what check sent on. */
  plain(sent: State): State;
  diff(type: string, id: string, olds: State, news: State): Promise<Diffed>;
  create(type: string, sent: State): Promise<Written>;
  /** Read with the last state, or with the id alone (`undefined`: `pulumi import`, a refresh of an imported resource). */
  read(type: string, id: string, props: State | undefined): Promise<Read>;
  update(type: string, id: string, olds: State, sent: State): Promise<Written>;
  delete(type: string, id: string, props: State): Promise<void>;
  /** The `import` resource option of the face's classes with the program's inputs, when the
   *  option is carried to create (dynamic: `importId`, through check as the engine sends it). */
  adopt?(type: string, inputs: State, id: string): Promise<Written>;
}

/** The serialized provider's `this`: the type name, the runtime's exports as prototype. */
const serialized = (typeName: string) => Object.assign(Object.create(runtime) as typeof runtime, { typeName });
/** Pulumi passes the serialized provider beside the properties; the operations must ignore it. */
const withProvider = (bag: State): State => ({ ...bag, __provider: "serialized provider" });
/** The dynamic class marks its declaration's secret keys (`additionalSecretOutputs`). */
const dynamicSecrets = (type: string) => new Set(declaredSecrets(declarationByName(type)));

export const dynamicFace: Face = {
  name: "dynamic",
  async check(type, olds, news) {
    const result = await serialized(type).check(withProvider(olds), withProvider(news));
    return { failures: result.failures, sent: withProvider(result.inputs ?? {}) };
  },
  plain: (sent) => {
    const { __provider: _provider, ...rest } = sent;
    return rest;
  },
  async diff(type, id, olds, news) {
    const result = await serialized(type).diff(id, withProvider(olds), news);
    return { changes: result.changes ?? false, replaces: result.replaces ?? [] };
  },
  async create(type, sent) {
    const result = await serialized(type).create(sent);
    return { id: result.id, outs: result.outs as State, secret: dynamicSecrets(type) };
  },
  async read(type, id, props) {
    const result = await serialized(type).read(id, withProvider(props ?? {}));
    return {
      id: result.id ?? "",
      outs: (result.props ?? {}) as State,
      inputs: (result.inputs ?? {}) as State,
      secret: dynamicSecrets(type),
    };
  },
  async update(type, id, olds, sent) {
    const result = await serialized(type).update(id, withProvider(olds), sent);
    return { id, outs: result.outs as State, secret: dynamicSecrets(type) };
  },
  async delete(type, id, props) {
    await serialized(type).delete(id, withProvider(props));
  },
  // The class puts the option among the inputs as `importId`; the engine checks them and
  // creates with what check returns, so the id must come through check.
  async adopt(type, inputs, id) {
    const checked = await serialized(type).check(withProvider({}), withProvider({ ...inputs, importId: id }));
    if (checked.failures?.length) throw new Error(`${type}: check failed: ${checked.failures.map((failure) => failure.reason).join("; ")}`);
    const result = await serialized(type).create(withProvider(checked.inputs ?? {}));
    return { id: result.id, outs: result.outs as State, secret: dynamicSecrets(type) };
  },
};

let assembled: provider.Provider | undefined;

/** The plugin's provider, as the composition root builds it for the bin (provider/plugin/main.ts). */
export function pluginProvider(): provider.Provider {
  assembled ??= buildPluginProvider({
    version: "0.1.0",
    schema: readFileSync(join(__dirname, "../../../provider/plugin/schema.json"), "utf8"),
  });
  return assembled;
}

/** The URN the engine gives a resource of this type. */
export const urnOf = (type: string, name = type.toLowerCase()) => `urn:pulumi:test::forge::${pluginToken(type)}::${name}`;

/** Plain values and the keys marked secret, of a property bag from the plugin. */
function unwire(bag: State | undefined): { plain: State; secret: Set<string> } {
  return reveal(bag);
}

export const pluginFace: Face = {
  name: "plugin",
  async check(type, olds, news) {
    // The engine sends the state's inputs as olds, marks and all.
    const result = await pluginProvider().check!(urnOf(type), olds, news);
    return { failures: result.failures as Failure[] | undefined, sent: (result.inputs ?? {}) as State };
  },
  plain: (sent) => unwire(sent).plain,
  async diff(type, id, olds, news) {
    const result = await pluginProvider().diff!(id, urnOf(type), concealSecrets(type, olds), news);
    return { changes: result.changes ?? false, replaces: result.replaces ?? [] };
  },
  async create(type, sent) {
    const result = await pluginProvider().create!(urnOf(type), sent);
    const { plain, secret } = unwire(result.outs as State);
    return { id: result.id, outs: plain, secret };
  },
  async read(type, id, props) {
    const result = await pluginProvider().read!(id, urnOf(type), props === undefined ? undefined : concealSecrets(type, props));
    const { plain, secret } = unwire(result.props as State);
    return { id: result.id ?? "", outs: plain, inputs: unwire(result.inputs as State).plain, secret };
  },
  async update(type, id, olds, sent) {
    const result = await pluginProvider().update!(id, urnOf(type), concealSecrets(type, olds), sent);
    const { plain, secret } = unwire(result.outs as State);
    return { id, outs: plain, secret };
  },
  async delete(type, id, props) {
    await pluginProvider().delete!(id, urnOf(type), concealSecrets(type, props));
  },
};

/** A state as the engine holds it for the plugin: the declaration's secrets and the outputs derived from them marked. */
function concealSecrets(type: string, state: State): State {
  const declaration = declarationByName(type);
  const keys = new Set(declaredSecrets(declaration));
  for (const [output, input] of Object.entries(derivedOutputs(declaration))) if (keys.has(input)) keys.add(output);
  return conceal(state, keys) ?? state;
}

export const FACES: readonly Face[] = [dynamicFace, pluginFace];

/** What `face`'s check sends on for these inputs, failing on any check failure (as the engine stops). */
export async function checked(face: Face, type: string, olds: State, news: State): Promise<State> {
  const result = await face.check(type, olds, news);
  if (result.failures?.length) throw new Error(`${type}: check failed: ${result.failures.map((failure) => failure.reason).join("; ")}`);
  return result.sent;
}
