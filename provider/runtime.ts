/**
 * The composition root: what runs inside a Pulumi provider process, where the engine meets the
 * registry of declarations and the client, and where both faces are built over the same
 * operations: the dynamic one (the functions below, and {@link implementation}) and the plugin
 * one ({@link pluginProvider}, which `pulumi-resource-forge` serves). Nothing in `engine/` imports
 * it or the registry. The serialized providers hold only a type name and load this module by
 * package name (`pulumi-forge/runtime`), so no code, client or credential is ever captured in a
 * closure or written to state.
 *
 * The serialized provider is `{ typeName }` with this module's exports as its prototype
 * (serialized-provider.ts): the provider methods below take the type from `this`. `configure` and
 * `implementation` are also what providers serialized by earlier versions call, which the
 * states of existing stacks hold: keep both signatures working.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { clientFor, resolveConnection, type ForgeClient } from "./client";
import type { RetryWaitListener } from "./client/client";
import { declarationByName } from "./resources";
import { ResourceOperations, type ProgressSink } from "./engine/operations";
import { LIFE_CYCLE, type LifeCycleStep } from "./engine/outcomes";
import { dynamicOperations, type DynamicOperations } from "./faces/dynamic";
import { forgeProvider } from "./faces/plugin";
import { lookupDeclarations } from "./lookups/registry";
import { actionDeclarations } from "./actions";
import { importPresenter } from "./plugin/present";
import { pulumiSdk } from "./pulumi-sdk";
import type * as providerApi from "@pulumi/pulumi/provider";

let stackConfig: dynamic.Config | undefined;
/** An object read by its import id alone, as a program writes it (both faces' imports). */
const presentImport = importPresenter(currentClient);
const operationsByType = new Map<string, ResourceOperations>();
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
  stackConfig = isRequest(request) ? request.config : request;
}

/** The connection is resolved at each use (env or stack config), never stored in a provider. */
export function currentClient(): ForgeClient {
  return clientFor(resolveConnection(stackConfig), logRetryWait);
}

/** Each wait before a retry, in the run's output: a slow run says why. */
const logRetryWait: RetryWaitListener = ({ method, path, attempt, reason, delayMs, budgetLeftMs }) => {
  pulumiSdk().log.info(
    `forge: ${method} ${path} got ${reason} (attempt ${attempt}); retrying in ${(delayMs / 1000).toFixed(1)} s ` +
      `(${Math.max(0, Math.round(budgetLeftMs / 1000))} s left of the retry budget, forge:retryBudgetMs / FORGE_RETRY_BUDGET_MS)`,
  );
};

/** The engine's progress and warnings, in Pulumi's log of the run. */
const pulumiLog: ProgressSink = (message, level) => void (level === "warning" ? pulumiSdk().log.warn(message) : pulumiSdk().log.info(message));

/** The engine's operations of one resource type, created once per process (both faces use them). */
export function operations(typeName: string): ResourceOperations {
  let found = operationsByType.get(typeName);
  if (!found) {
    found = new ResourceOperations(declarationByName(typeName), currentClient, pulumiLog, (inputs, outs) => presentImport(typeName, inputs, outs));
    operationsByType.set(typeName, found);
  }
  return found;
}

/**
 * The operations of a type over a client of the caller's, for a tool that serves several stacks
 * (several forges) in one process: forge-drift's fleet reads each stack's objects with its own
 * connection, never through the process's current configuration.
 */
export function operationsOver(typeName: string, client: ForgeClient): ResourceOperations {
  return new ResourceOperations(declarationByName(typeName), () => client, pulumiLog);
}

/** The dynamic face of a type's operations: what serialized providers call, those of this
 *  version through the functions below and those of earlier versions directly. */
export function implementation(typeName: string): DynamicOperations {
  let found = dynamicByType.get(typeName);
  if (!found) {
    found = dynamicOperations(operations(typeName));
    dynamicByType.set(typeName, found);
  }
  return found;
}

/** The plugin face: every resource, lookup and action as the provider `pulumi-resource-forge` serves. */
export function pluginProvider(identity: { version: string; schema: string }): providerApi.Provider {
  return forgeProvider({
    ...identity,
    operationsOf: operations,
    lookups: lookupDeclarations,
    actions: actionDeclarations,
    clientOf: currentClient,
  });
}

/** The provider methods, one per step of the life cycle: each takes the type from the serialized
 *  provider (`this`) and runs that step of the type's dynamic face. */
type Forwarders = { [Step in LifeCycleStep]: (this: Provider, ...args: Parameters<DynamicOperations[Step]>) => ReturnType<DynamicOperations[Step]> };
const forwarders = Object.fromEntries(
  LIFE_CYCLE.map((step) => [
    step,
    async function (this: Provider, ...args: unknown[]) {
      return (implementation(this.typeName)[step] as (...given: unknown[]) => Promise<unknown>)(...args);
    },
  ]),
) as Forwarders;

export const { check, diff, create, read, update } = forwarders;
// `delete` is a reserved word: exported under that name below.
const { delete: deleteResource } = forwarders;
export { deleteResource as delete };
