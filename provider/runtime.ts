/**
 * What serialized providers call: the module `pulumi-forge/runtime`, the dynamic face's side of
 * the provider process. The serialized providers hold only a type name and load this module by
 * package name, so no code, client or credential is ever captured in a closure or written to
 * state. The operations they reach are built in the composition root (composition-root.ts).
 *
 * The serialized provider is `{ typeName }` with this module's exports as its prototype
 * (serialized-provider.ts): the provider methods below take the type from `this`. `configure` and
 * `implementation` are also what providers serialized by earlier versions call, which the
 * states of existing stacks hold: keep both signatures working.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { operations, useStackConfig } from "./composition-root";
import { LIFE_CYCLE, type LifeCycleStep } from "./engine/outcomes";
import { dynamicOperations, type DynamicOperations } from "./faces/dynamic";

const dynamicByType = new Map<string, DynamicOperations>();

/** A serialized provider: the type name, with this module as its prototype. */
interface Provider {
  typeName: string;
}

/**
 * Stack config `forge:*`: called by every provider's `configure` with the request (this
 * version) or with its config (providers serialized by earlier versions).
 */
export async function configure(request: dynamic.ConfigureRequest | dynamic.Config | undefined): Promise<void> {
  const isRequest = (value: typeof request): value is dynamic.ConfigureRequest =>
    value !== undefined && "config" in value && typeof (value as { get?: unknown }).get !== "function";
  useStackConfig(isRequest(request) ? request.config : request);
}

/** The dynamic face of a type's operations: what the provider methods below run. */
export function dynamicFaceOf(typeName: string): DynamicOperations {
  let found = dynamicByType.get(typeName);
  if (!found) {
    found = dynamicOperations(operations(typeName));
    dynamicByType.set(typeName, found);
  }
  return found;
}

/**
 * {@link dynamicFaceOf} under the name serialized providers call it by: those written out in the
 * states of stacks (serialized-provider.ts), by this version and earlier ones. Never rename it:
 * a state written today must keep working with the package it was written with, and after it.
 */
export function implementation(typeName: string): DynamicOperations {
  return dynamicFaceOf(typeName);
}

/** The provider methods, one per step of the life cycle: each takes the type from the serialized
 *  provider (`this`) and runs that step of the type's dynamic face. */
type Forwarders = {
  [Step in LifeCycleStep]: (this: Provider, ...args: Parameters<DynamicOperations[Step]>) => ReturnType<DynamicOperations[Step]>;
};
const forwarders = Object.fromEntries(
  LIFE_CYCLE.map((step) => [
    step,
    async function (this: Provider, ...args: unknown[]) {
      return (dynamicFaceOf(this.typeName)[step] as (...given: unknown[]) => Promise<unknown>)(...args);
    },
  ]),
) as Forwarders;

export const { check, diff, create, read, update } = forwarders;
// `delete` is a reserved word: exported under that name below.
const { delete: deleteResource } = forwarders;
export { deleteResource as delete };
