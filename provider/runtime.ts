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
import type { State } from "./engine/declaration";
import { ResourceOperations } from "./engine/operations";
import type { ProgressSink } from "./engine/outcomes";
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
  runLog(
    `forge: ${method} ${path} got ${reason} (attempt ${attempt}); retrying in ${(delayMs / 1000).toFixed(1)} s ` +
      `(${Math.max(0, Math.round(budgetLeftMs / 1000))} s left of the retry budget, forge:retryBudgetMs / FORGE_RETRY_BUDGET_MS)`,
  );
};

/** The engine's progress and warnings, in Pulumi's log of the run. */
const pulumiLog: ProgressSink = (message, level) => void (level === "warning" ? pulumiSdk().log.warn(message) : pulumiSdk().log.info(message));

/** Where this process's progress and warnings go: Pulumi's log, or the engine's own log service
 *  that the plugin sends them to under their resource (plugin/engine-log.ts). */
let processLog: ProgressSink = pulumiLog;
const runLog: ProgressSink = (message, level) => processLog(message, level);

/** The engine's operations of one resource type, created once per process (both faces use them). */
export function operations(typeName: string): ResourceOperations {
  let found = operationsByType.get(typeName);
  if (!found) {
    found = new ResourceOperations(declarationByName(typeName), currentClient, runLog, (inputs, outs) => presentImport(typeName, inputs, outs));
    operationsByType.set(typeName, found);
  }
  return found;
}

/**
 * The operations of a type over a client of the caller's, for a tool that serves several stacks
 * (several forges) in one process: forge-drift's fleet reads each stack's objects with its own
 * connection, never through the process's current configuration. `progress`: where the reads'
 * warnings go (default Pulumi's log).
 */
export function operationsOver(typeName: string, client: ForgeClient, progress: ProgressSink = pulumiLog): ResourceOperations {
  return new ResourceOperations(declarationByName(typeName), () => client, progress);
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

/** The plugin face: every resource, lookup and action as the provider `pulumi-resource-forge` serves;
 *  `log`: where its progress and warnings go from then on (default Pulumi's log). */
export function pluginProvider(identity: { version: string; schema: string }, log?: ProgressSink): providerApi.Provider {
  if (log) processLog = log;
  return forgeProvider({
    ...identity,
    operationsOf: operations,
    lookups: lookupDeclarations,
    actions: actionDeclarations,
    clientOf: currentClient,
  });
}

export async function check(this: Provider, olds: State, news: State) {
  return implementation(this.typeName).check(olds, news);
}
export async function diff(this: Provider, id: string, olds: State, news: State) {
  return implementation(this.typeName).diff(id, olds, news);
}
export async function create(this: Provider, inputs: State) {
  return implementation(this.typeName).create(inputs);
}
export async function read(this: Provider, id: string, props?: State) {
  return implementation(this.typeName).read(id, props ?? {});
}
export async function update(this: Provider, id: string, olds: State, news: State) {
  return implementation(this.typeName).update(id, olds, news);
}
// `delete` is a reserved word: exported under that name below.
async function deleteResource(this: Provider, id: string, props: State) {
  return implementation(this.typeName).delete(id, props);
}
export { deleteResource as delete };
