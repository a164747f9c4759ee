/**
 * Serves the plugin face over the provider protocol (grpc-server.ts, on node:http2): the port on stdout first,
 * as the engine expects, then the requests. The engine starts the plugin with the address of its
 * own services (the first argument, after the flags it may prepend): the provider's messages go
 * to its log (engine-log.ts).
 *
 * The provider itself (the declarations, zod, the client) is loaded at the first request that
 * needs it, not at start: the engine waits for the plugin's port before anything else, and the
 * YAML language host starts a process of its own that asks only for the plugin's info and schema.
 */
import type * as providerApi from "@pulumi/pulumi/provider";
import type { ProgressSink } from "../engine/outcomes";
import { engineLog } from "./engine-log";
import { listen, type ProviderConfiguration, type ProviderService } from "./grpc-server";

/** What the provider process loads on first use: the composition root's plugin face and configuration (loaded.ts). */
export interface PluginRuntime {
  /** The plugin face; `log` is where its progress and warnings go. */
  pluginProvider(identity: PluginIdentity, log: ProgressSink): providerApi.Provider;
  /** Hands the provider's configuration on (composition-root.ts `useStackConfig`, which reads it with `get` only). */
  useStackConfig(config: StackConfigReader): void;
}

/** Stack config as the provider reads it: `get("forge:baseUrl")`. */
export interface StackConfigReader {
  get(key: string): string | undefined;
}

/** What the plugin answers without loading its provider. */
export interface PluginIdentity {
  version: string;
  /** The package schema, served to `pulumi package get-schema` and the YAML host. */
  schema: string;
}

/** The provider's configuration as the runtime reads stack config: `get("forge:baseUrl")`. */
export function configOf(configuration: ProviderConfiguration): StackConfigReader {
  // Loaded at the first Configure, with the provider.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { reveal } = require("./face") as typeof import("./face");
  const args = reveal(configuration.args).plain;
  const variables = configuration.variables;
  return {
    get(key: string): string | undefined {
      const name = key.slice(key.indexOf(":") + 1);
      const value = args[name] ?? variables[key] ?? variables[key.replace(":", ":config:")];
      return value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/** The engine's address among the plugin's arguments: the first that is not a flag the engine
 *  prepends (`--logtostderr`, `-v=<n>`, `--tracing <endpoint>`). */
export function engineAddressOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "--tracing") i += 1;
    else if (arg !== "--logtostderr" && !arg.startsWith("-v=")) return arg;
  }
  return undefined;
}

/** How long a signalled plugin waits for the calls in flight before it exits anyway. */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * The plugin's provider service: its identity at once; the composition root (`runtime`) loaded at
 * the first request that needs it, once, its messages to `log`.
 */
export function pluginService(
  identity: PluginIdentity,
  runtime: () => PluginRuntime,
  log: ProgressSink,
  attach: (address: string) => void,
): ProviderService {
  let loaded: PluginRuntime | undefined;
  let provider: providerApi.Provider | undefined;
  const once = () => (loaded ??= runtime());
  return {
    ...identity,
    provider: () => (provider ??= once().pluginProvider(identity, log)),
    configure: (configuration) => once().useStackConfig(configOf(configuration)),
    attach,
    prepare: () => {
      try {
        once();
      } catch {
        // Not yet said: the first request that needs the provider loads it again, and answers why it cannot.
      }
    },
  };
}

/**
 * Serves the provider to the engine at the address in `args` (what the engine starts the plugin
 * with). `runtime` loads the composition root: called at the first request beyond the plugin's
 * info and schema, once. Resolves once the port is printed.
 */
export async function servePlugin(identity: PluginIdentity, runtime: () => PluginRuntime, args: string[]): Promise<void> {
  let engine = engineAddressOf(args);
  const log = engineLog(() => engine);
  const server = await listen(pluginService(identity, runtime, log, (address) => (engine = address)));
  // The engine reads the port from the first line of stdout (a plain string: no colours).
  process.stdout.write(`${server.port}\n`);

  // An error no call caught is said in the engine's log and fails the plugin's exit, but does not
  // end the calls in flight (as the SDK's server did).
  let uncaught = false;
  const onUncaught = (error: unknown) => {
    uncaught = true;
    log(error instanceof Error ? (error.stack ?? error.message) : String(error), "error");
  };
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  process.on("exit", (code) => {
    if (code === 0 && uncaught) process.exitCode = 1;
  });
  // Ended by the engine: no new calls, the ones in flight answered, then out.
  const stop = () => {
    setTimeout(() => process.exit(), SHUTDOWN_GRACE_MS).unref();
    server.shutdown(() => {
      log.close();
      process.exit();
    });
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
