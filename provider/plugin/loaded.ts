/**
 * What the plugin process loads at its first request beyond the plugin's info and schema
 * (main.ts): the plugin face over the composition root's operations, and where Configure's
 * settings go. The dynamic face's counterpart is provider/runtime.ts.
 */
import type * as providerApi from "@pulumi/pulumi/provider";
import type { ProgressSink } from "../engine/outcomes";
import { currentClient, operations, useProgressSink, useStackConfig } from "../composition-root";
import { pluginFaceProvider } from "./face";

export { useStackConfig };

/** The plugin face: every resource, lookup and action as the provider `pulumi-resource-forge` serves;
 *  `log`: where its progress and warnings go (plugin/engine-log.ts; default Pulumi's log). */
export function pluginProvider(identity: { version: string; schema: string }, log?: ProgressSink): providerApi.Provider {
  if (log) useProgressSink(log);
  return pluginFaceProvider({
    ...identity,
    operationsOf: operations,
    // Required at the first invoke: a quarter of this module's load, which most programs never use.
    invokables: async () => ({
      lookups: (await import("../lookups/registry.js")).lookupDeclarations,
      actions: (await import("../actions.js")).actionDeclarations,
    }),
    clientOf: currentClient,
  });
}
