/**
 * The second face of the engine: the declarations as a Pulumi provider (`@pulumi/pulumi/provider`'s
 * interface, which a plugin binary serves over the provider protocol). Every step is the same
 * `ResourceOperations` the dynamic providers use (check, diff, create, read, update, delete,
 * import, lost-create recovery, retries); only the addressing differs: the type comes from the
 * URN's type token (`forge:index:GroupLabel`) rather than from a serialized provider, and lookups
 * are invokes (`forge:index:getGroup`).
 */
import type * as provider from "@pulumi/pulumi/provider";
import type { ForgeClient } from "../client";
import type { ResourceOperations } from "../engine/operations";
import type { State } from "../engine/declaration";
import { runLookup, type LookupDeclaration } from "../lookups/lookup";
import { PACKAGE } from "./schema";

export interface ForgeProviderOptions {
  version: string;
  /** The package schema (provider/plugin/schema.json), served to `pulumi package get-schema`. */
  schema: string;
  /** The operations of a resource type by name (the composition root's). */
  operationsOf(typeName: string): ResourceOperations;
  /** The lookups by name, served as invokes. */
  lookups: Readonly<Record<string, LookupDeclaration>>;
  /** The client lookups read with. */
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

/** The provider of every resource and lookup of the library. */
export function forgeProvider(options: ForgeProviderOptions): provider.Provider {
  const ops = (urn: string) => options.operationsOf(typeNameOf(urn));
  return {
    version: options.version,
    schema: options.schema,
    check: (urn, olds: State, news: State) => ops(urn).check(olds ?? {}, news ?? {}),
    diff: (id, urn, olds: State, news: State) => ops(urn).diff(id, olds ?? {}, news ?? {}),
    create: (urn, inputs: State) => ops(urn).create(inputs ?? {}),
    // `pulumi import` reads with the id alone: no properties at all.
    read: (id, urn, props?: State) => ops(urn).read(id, props ?? {}),
    update: (id, urn, olds: State, news: State) => ops(urn).update(id, olds ?? {}, news ?? {}),
    delete: (id, urn, props: State) => ops(urn).delete(id, props ?? {}),
    async invoke(token, inputs: Record<string, unknown>) {
      const name = token.startsWith(PREFIX) ? token.slice(PREFIX.length) : token;
      const lookup = options.lookups[name];
      if (!lookup) throw new Error(`pulumi-resource-forge: no function ${token}`);
      return { outputs: { result: await runLookup(lookup, inputs ?? {}, options.clientOf()) } };
    },
  };
}
