/**
 * Serves the plugin face over the provider protocol: `@pulumi/pulumi/provider`'s server, with the
 * requests it leaves to us. Its `Configure` acknowledges without reading the configuration
 * (the SDK's `Provider` interface has no configure method, 3.259 to 3.270), its `Read` calls
 * `getProperties().toJavaScript()` on the properties that `pulumi import` leaves out, and its
 * `Read` and `Delete` pass on the state's outputs only: the mark of an import no program has
 * matched yet lives in the state's inputs (engine/imports.ts), so it is added to the properties
 * those two see. The SDK does not export its server class, so the handlers are wrapped as the
 * service is added to the gRPC server, which is the one seam it has.
 *
 * The provider itself (the declarations, zod, the client) is loaded at the first request that
 * needs it, not at start: the engine waits for the plugin's port before anything else, and the
 * YAML language host starts a process of its own that asks only for the plugin's info and schema.
 */
import { dirname } from "node:path";
import * as providerApi from "@pulumi/pulumi/provider";
import { TIMED_METHODS, timedHandler } from "./timings";
import { IMPORTED_KEY } from "../engine/bookkeeping";
import { LIFE_CYCLE } from "../engine/outcomes";

/** What the provider process loads on first use: the composition root's plugin face and configuration. */
export interface PluginRuntime {
  pluginProvider(identity: PluginIdentity): providerApi.Provider;
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

/** The provider's methods the plugin face implements (plugin/face.ts), each delegated on first call. */
const PROVIDER_METHODS = [...LIFE_CYCLE, "invoke"] as const;

/** A provider that answers its version and schema at once and loads the rest at its first call. */
function lazyProvider(identity: PluginIdentity, provider: () => providerApi.Provider): providerApi.Provider {
  const lazy: Record<string, unknown> = { version: identity.version, schema: identity.schema };
  for (const method of PROVIDER_METHODS) {
    lazy[method] = (...args: unknown[]) => (provider()[method] as (...args: unknown[]) => unknown)(...args);
  }
  return lazy as unknown as providerApi.Provider;
}

/** A module of this package, loaded when a request first needs it. */
function lateRequire<T>(path: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as T;
}

/** What the configure handler receives: the provider's arguments and the stack's variables. */
interface ConfigureRequest {
  getArgs(): { toJavaScript(): Record<string, unknown> } | undefined;
  getVariablesMap(): { toObject(): [string, string][] };
}

interface JsonStruct {
  toJavaScript(): Record<string, unknown>;
}

interface ReadRequest {
  getProperties(): JsonStruct | undefined;
  setProperties(value: object): void;
  /** The state's inputs (a refresh sends them). */
  getInputs?(): JsonStruct | undefined;
}

interface DeleteRequest {
  getProperties(): JsonStruct | undefined;
  setProperties(value: object): void;
  /** The state's inputs (engines that announce `sendsOldInputsToDelete` send them). */
  getOldInputs?(): JsonStruct | undefined;
}

type Handler<R> = (call: { request: R }, callback: unknown) => unknown;

/** The provider's configuration as the runtime reads stack config: `get("forge:baseUrl")`. */
export function configOf(request: ConfigureRequest): StackConfigReader {
  const { reveal } = lateRequire<typeof import("./face")>("./face");
  const args = reveal(request.getArgs()?.toJavaScript() ?? {}).plain;
  const variables = new Map(request.getVariablesMap().toObject());
  return {
    get(key: string): string | undefined {
      const name = key.slice(key.indexOf(":") + 1);
      const value = args[name] ?? variables.get(key) ?? variables.get(key.replace(":", ":config:"));
      return value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/** The SDK's own copy of a package (its gRPC server and protobuf types), not ours. */
function sdkRequire<T>(name: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve(name, { paths: [dirname(require.resolve("@pulumi/pulumi"))] })) as T;
}

let wrapped = false;

/** Wraps `configure` and `read` of the provider service when the SDK's server adds it. */
function wrapServiceHandlers(runtime: () => PluginRuntime): void {
  if (wrapped) return;
  wrapped = true;
  const grpc = sdkRequire<{ Server: { prototype: { addService(service: unknown, handlers: Record<string, unknown>): void } } }>("@grpc/grpc-js");
  const { Struct } = sdkRequire<{ Struct: (new () => object) & { fromJavaScript(value: Record<string, unknown>): object } }>("google-protobuf/google/protobuf/struct_pb");
  /** The properties of a request with the import mark of its inputs added, if they have one. */
  const withImportMark = (request: { getProperties(): JsonStruct | undefined; setProperties(value: object): void }, inputs: JsonStruct | undefined) => {
    const mark = inputs?.toJavaScript()[IMPORTED_KEY];
    if (mark !== undefined) request.setProperties(Struct.fromJavaScript({ ...request.getProperties()?.toJavaScript(), [IMPORTED_KEY]: mark }));
  };
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, handlers) {
    const configureHandler = handlers["configure"] as Handler<ConfigureRequest> | undefined;
    if (configureHandler) {
      handlers["configure"] = (call: { request: ConfigureRequest }, callback: unknown) => {
        runtime().useStackConfig(configOf(call.request));
        return configureHandler.call(handlers, call, callback);
      };
    }
    const readHandler = handlers["read"] as Handler<ReadRequest> | undefined;
    if (readHandler) {
      handlers["read"] = (call: { request: ReadRequest }, callback: unknown) => {
        if (!call.request.getProperties()) call.request.setProperties(new Struct());
        else withImportMark(call.request, call.request.getInputs?.());
        return readHandler.call(handlers, call, callback);
      };
    }
    const deleteHandler = handlers["delete"] as Handler<DeleteRequest> | undefined;
    if (deleteHandler) {
      handlers["delete"] = (call: { request: DeleteRequest }, callback: unknown) => {
        withImportMark(call.request, call.request.getOldInputs?.());
        return deleteHandler.call(handlers, call, callback);
      };
    }
    const timings = process.env["FORGE_PLUGIN_TIMINGS"];
    if (timings) {
      for (const method of TIMED_METHODS) {
        const handler = handlers[method] as Parameters<typeof timedHandler>[1] | undefined;
        if (handler) handlers[method] = timedHandler(method, handler.bind(handlers), timings);
      }
    }
    return addService.call(this, service, handlers);
  };
}

/**
 * Serves the provider to the engine at the address in `args` (what the engine starts the plugin
 * with). `runtime` loads the composition root: called at the first request beyond the plugin's
 * info and schema, once.
 */
export function servePlugin(identity: PluginIdentity, runtime: () => PluginRuntime, args: string[]): Promise<void> {
  let loaded: PluginRuntime | undefined;
  let provider: providerApi.Provider | undefined;
  const once = () => (loaded ??= runtime());
  wrapServiceHandlers(once);
  return providerApi.main(lazyProvider(identity, () => (provider ??= once().pluginProvider(identity))), args);
}
