/**
 * What runs inside the Pulumi provider process. The serialized providers hold only a type
 * name and load this module by package name (`pulumi-forge/runtime`), so no code, client or
 * credential is ever captured in a closure or written to state.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { clientFor, resolveConnection, type ForgeClient } from "../client";
import { declarationByName } from "../resources";
import { ResourceOperations } from "./operations";

let stackConfig: dynamic.Config | undefined;
const implementations = new Map<string, ResourceOperations>();

/** Called by every provider's `configure`: stack config `forge:baseUrl` / `forge:token`. */
export function configure(config: dynamic.Config | undefined): void {
  stackConfig = config;
}

/** The connection is resolved at each use (env or stack config), never stored in a provider. */
function currentClient(): ForgeClient {
  return clientFor(resolveConnection(stackConfig));
}

/** The operations of one resource type, created once per process. */
export function implementation(typeName: string): ResourceOperations {
  let operations = implementations.get(typeName);
  if (!operations) {
    operations = new ResourceOperations(declarationByName(typeName), currentClient);
    implementations.set(typeName, operations);
  }
  return operations;
}
