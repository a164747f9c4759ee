/**
 * The composition root: what runs inside a provider process, where the engine meets the registry
 * of declarations and the client. Both faces are built over its {@link operations}: the dynamic
 * one by runtime.ts (what serialized providers load), the plugin one by plugin/loaded.ts (what
 * `pulumi-resource-forge` loads). Nothing in `engine/` imports it or the registry.
 */
import { clientFor, resolveConnection, type ForgeClient } from "./client";
import type { ConfigSource } from "./client/connection";
import type { RetryWaitListener } from "./client/client";
import { declarationByName } from "./resources/by-name";
import { ResourceOperations } from "./engine/operations";
import type { ProgressSink } from "./engine/outcomes";
import { importPresenter } from "./adopt/present";
import { pulumiSdk } from "./pulumi-sdk";

let stackConfig: ConfigSource | undefined;
/** An object read by its import id alone, as a program writes it (both faces' imports). */
const presentImport = importPresenter(currentClient);
const operationsByType = new Map<string, ResourceOperations>();

/** Stack config `forge:*`, as the provider's `configure` received it (runtime.ts, plugin/serve.ts). */
export function useStackConfig(config: ConfigSource | undefined): void {
  stackConfig = config;
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
const pulumiLog: ProgressSink = (message, level) =>
  void (level === "warning" ? pulumiSdk().log.warn(message) : pulumiSdk().log.info(message));

/** Where this process's progress and warnings go: Pulumi's log, or the engine's own log service
 *  that the plugin sends them to under their resource (plugin/engine-log.ts). */
let processLog: ProgressSink = pulumiLog;
const runLog: ProgressSink = (message, level) => processLog(message, level);

/** Sends this process's progress and warnings to `sink` from now on (the plugin's, plugin/loaded.ts). */
export function useProgressSink(sink: ProgressSink): void {
  processLog = sink;
}

/** The engine's operations of one resource type, created once per process (both faces use them). */
export function operations(typeName: string): ResourceOperations {
  let found = operationsByType.get(typeName);
  if (!found) {
    found = new ResourceOperations(declarationByName(typeName), currentClient, runLog, (inputs, outs) =>
      presentImport(typeName, inputs, outs),
    );
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
