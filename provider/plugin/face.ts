/**
 * The plugin face: the engine's life cycle as a Pulumi provider (`@pulumi/pulumi/provider`'s
 * interface, which `pulumi-resource-forge` serves over the provider protocol: plugin/serve.ts and
 * plugin/grpc-server.ts).
 * Every step is the same `ResourceOperations` the dynamic face uses; what only this face has
 * lives here: the type comes from the URN's type token (`forge:index:GroupLabel`) rather than
 * from a serialized provider, values arrive and leave with the wire's secret marks, `pulumi
 * import` reads with the id alone, and lookups and actions are invokes (`forge:index:getGroup`).
 */
import type * as provider from "@pulumi/pulumi/provider";
import type { ForgeClient } from "../client";
import type { ResourceOperations } from "../engine/operations";
import { declaredSecrets, type State } from "../engine/declaration";
import { PartialCreateError } from "../engine/outcomes";
import { secretProperties } from "../engine/secrets";
import { rememberSecrets } from "../redaction";
import { SECRET_SIG, SIG_KEY } from "../secret-marks";
import { isPlainObject } from "../client";
import { runLookup, type LookupDeclaration } from "../lookups/lookup";
import type * as actionRegistry from "../actions";
import { PACKAGE } from "../type-tokens";

export interface PluginFaceOptions {
  version: string;
  /** The package schema (provider/plugin/schema.json), served to `pulumi package get-schema`. */
  schema: string;
  /** The operations of a resource type by name (the composition root's). */
  operationsOf(typeName: string): ResourceOperations;
  /** The lookups by name and the actions, served as invokes; loaded at the first invoke (a
   *  program with none never loads them). */
  invokables(): Promise<{ lookups: Readonly<Record<string, LookupDeclaration>>; actions: readonly actionRegistry.ActionDeclaration[] }>;
  /** The client lookups and actions send with. */
  clientOf(): ForgeClient;
}

const PREFIX = `${PACKAGE}:index:`;

/** The resource type name of a URN (`urn:pulumi:dev::p::forge:index:GroupLabel::bug` → `GroupLabel`),
 *  a parent's types (`parent$child`) left out. */
export function typeNameOf(urn: string): string {
  const type = urn.split("::")[2] ?? "";
  const own = type.split("$").pop() ?? "";
  if (!own.startsWith(PREFIX)) throw new Error(`pulumi-resource-forge: ${own || urn} is not a type of the ${PACKAGE} package`);
  return own.slice(PREFIX.length);
}

/** A value the wire marks secret (the provider accepts secrets: the engine sends them marked). */
function isSecretValue(value: unknown): value is { value: unknown } {
  return isPlainObject(value) && value[SIG_KEY] === SECRET_SIG;
}

/** A value without secret marks (the operations work on plain values), and the top-level keys that
 *  had one. Each secret value is remembered: no message of this process shows it (redaction.ts).
 *  A value with no mark is kept as it is, not copied: most values have none. */
export function reveal(state: State | undefined): { plain: State; secret: Set<string> } {
  const secret = new Set<string>();
  let marked = false;
  const strip = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (isSecretValue(value)) {
      marked = true;
      rememberSecrets([value.value]);
      return strip(value.value);
    }
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const plain = strip(item);
        if (plain !== item) (copy ??= value.slice())[index] = plain;
      });
      return copy ?? value;
    }
    if (!isPlainObject(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = value[key];
      const plain = strip(item);
      if (plain !== item) (copy ??= { ...value })[key] = plain;
    }
    return copy ?? value;
  };
  const plain: State = {};
  for (const key of Object.keys(state ?? {})) {
    marked = false;
    plain[key] = strip(state![key]);
    if (marked) secret.add(key);
  }
  return { plain, secret };
}

/** Marks the given keys of a state secret on the wire. */
export function conceal(state: State | undefined, keys: Iterable<string>): State | undefined {
  if (!state) return state;
  const marked = { ...state };
  for (const key of keys)
    if (marked[key] !== undefined && !isSecretValue(marked[key])) marked[key] = { [SIG_KEY]: SECRET_SIG, value: marked[key] };
  return marked;
}

/** The plugin face: the SDK's provider interface (what serve.ts serves) over the operations of every resource, lookup and action. */
export function pluginFaceProvider(options: PluginFaceOptions): provider.Provider {
  const ops = (urn: string) => options.operationsOf(typeNameOf(urn));
  /** What the state keeps secret (engine/secrets.ts), given the inputs the program sent as secrets. */
  const secretsOf = (operations: ResourceOperations, given: Iterable<string>) => secretProperties(operations.declaration, given);
  return {
    version: options.version,
    schema: options.schema,
    // Declared secret inputs are kept secret even when the program gives them in plain text
    // (a literal in a YAML program): the state never holds them readable.
    async check(urn, olds: State, news: State) {
      const operations = ops(urn);
      const given = reveal(news);
      const kept = reveal(olds);
      const result = await operations.check(kept.plain, given.plain, {
        secretInputs: secretsOf(operations, [...given.secret, ...kept.secret]),
      });
      return { ...result, inputs: conceal(result.inputs, [...given.secret, ...declaredSecrets(operations.declaration)]) };
    },
    diff: (id, urn, olds: State, news: State) => ops(urn).diff(id, reveal(olds).plain, reveal(news).plain),
    async create(urn, inputs: State) {
      const operations = ops(urn);
      const given = reveal(inputs);
      try {
        const result = await operations.create(given.plain);
        return { ...result, outs: conceal(result.outs, secretsOf(operations, given.secret)) };
      } catch (error) {
        // The object the engine records from a half-done create keeps its secrets too.
        if (error instanceof PartialCreateError) error.properties = conceal(error.properties, secretsOf(operations, given.secret)) ?? {};
        throw error;
      }
    },
    // `pulumi import` and the `import` option read with the id alone: no properties at all. The
    // inputs come back as a program writes them, marked as an import no program has matched yet
    // (engine/imports.ts).
    async read(id, urn, props?: State) {
      const operations = ops(urn);
      const known = reveal(props);
      const result = await operations.read(id, known.plain);
      const secrets = secretsOf(operations, known.secret);
      return { ...result, props: conceal(result.props, secrets), inputs: conceal(result.inputs, secrets) };
    },
    async update(id, urn, olds: State, news: State) {
      const operations = ops(urn);
      const given = reveal(news);
      const result = await operations.update(id, reveal(olds).plain, given.plain);
      return { ...result, outs: conceal(result.outs, secretsOf(operations, given.secret)) };
    },
    delete: (id, urn, props: State) => ops(urn).delete(id, reveal(props).plain),
    // Arguments may come marked secret (a token from secret config); a lookup that answers
    // secret fields answers as a secret, as its `.output` does in a TypeScript program.
    async invoke(token, inputs: Record<string, unknown>) {
      const name = token.startsWith(PREFIX) ? token.slice(PREFIX.length) : token;
      const args = reveal(inputs).plain;
      const { lookups, actions } = await options.invokables();
      const lookup = lookups[name];
      if (lookup) {
        const outputs = { result: await runLookup(lookup, args, options.clientOf()) };
        return { outputs: lookup.secretFields?.length ? conceal(outputs, ["result"]) : outputs };
      }
      const action = actions.find((candidate) => candidate.name === name);
      if (action) {
        const { runAction } = await import("../actions.js");
        return { outputs: { result: await runAction(action, args, options.clientOf()) } };
      }
      throw new Error(`pulumi-resource-forge: no function ${token}`);
    },
  };
}
