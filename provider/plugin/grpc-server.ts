/**
 * The provider protocol's service (`pulumirpc.ResourceProvider`), served on `node:http2`
 * (wire/grpc.ts) with the messages read and written by wire/protobuf.ts: neither grpc-js nor the
 * SDK's google-protobuf stubs, which were most of the plugin's time per call and of its start.
 * The SDK's provider server before them loaded the whole SDK (its runtime, OpenTelemetry) before
 * it listened, twice per YAML operation.
 *
 * It answers as the SDK's server did (3.259), so that nothing changes for the engine: the same
 * `Configure` answer (secrets, resources and output values accepted; no preview of creates),
 * `CheckConfig` and `DiffConfig` unimplemented (the engine then takes the configuration as
 * given), the same values on the wire (a `Struct`, with the secret and unknown marks the plugin
 * face reads and writes itself: face.ts), a half-done create as `ErrorResourceInitFailed`, any
 * other method UNIMPLEMENTED. What it adds: `Configure` hands the configuration to the provider,
 * `Read` without properties (`pulumi import`) reads by id, `Read` and `Delete` see the import mark
 * of the state's inputs (engine/imports.ts, engine/bookkeeping.ts), and the provider's messages
 * reach the engine's log under their resource (engine-log.ts).
 *
 * Messages are read and written by field name: the numbers and kinds come from wire/protocol.ts,
 * generated from the pinned SDK's stubs of provider.proto, plugin.proto and google.rpc.Status (`npm
 * run generate`), so that a protocol change fails the build or the generated files' test, not a
 * user's run; test/contract/plugin-server.test.ts speaks to this server with the SDK's own client
 * and stubs.
 */
import type * as provider from "@pulumi/pulumi/provider";
import { IMPORTED_KEY } from "../engine/bookkeeping";
import { inCall } from "./engine-log";
import { TIMED_METHODS, timedHandler } from "./timings";
import { CallFailure, GrpcStatus, serveUnary, type UnaryHandler, type UnaryServer } from "./wire/grpc";
import { decode, encodeMessage, planOf, type MessagePlan, type Values } from "./wire/protobuf";
import { ENUMS, MESSAGES, PROVIDER_SERVICE, type PROVIDER_METHODS } from "./wire/protocol";

/** The stack's configuration, as `Configure` sends it: the provider's arguments and the stack's variables. */
export interface ProviderConfiguration {
  args: Values;
  variables: Record<string, string>;
}

/** What the server needs of the plugin: its identity at once, the rest at first use. */
export interface ProviderService {
  version: string;
  schema: string;
  /** The provider of the resources (loaded at its first call). */
  provider(): provider.Provider;
  /** Hands the stack's configuration (the `Configure` request) to the provider. */
  configure(configuration: ProviderConfiguration): void;
  /** Called by `Attach`: the engine's new address. */
  attach(address: string): void;
  /** Called when the engine's handshake says it will deploy with this process: start loading
   *  the provider now, not at `Configure`. */
  prepare(): void;
}

/** The requests' fields this server reads. */
const REQUESTS = {
  Handshake: planOf(MESSAGES["pulumirpc.ProviderHandshakeRequest"], ["loaderTarget"]),
  GetSchema: planOf(MESSAGES["pulumirpc.GetSchemaRequest"], ["version"]),
  Configure: planOf(MESSAGES["pulumirpc.ConfigureRequest"], ["variables", "args"]),
  Check: planOf(MESSAGES["pulumirpc.CheckRequest"], ["urn", "olds", "news"]),
  Diff: planOf(MESSAGES["pulumirpc.DiffRequest"], ["id", "urn", "olds", "news"]),
  Create: planOf(MESSAGES["pulumirpc.CreateRequest"], ["urn", "properties"]),
  Read: planOf(MESSAGES["pulumirpc.ReadRequest"], ["id", "urn", "properties", "inputs"]),
  Update: planOf(MESSAGES["pulumirpc.UpdateRequest"], ["id", "urn", "olds", "news"]),
  Delete: planOf(MESSAGES["pulumirpc.DeleteRequest"], ["id", "urn", "properties", "oldInputs"]),
  Invoke: planOf(MESSAGES["pulumirpc.InvokeRequest"], ["tok", "args"]),
  Attach: planOf(MESSAGES["pulumirpc.PluginAttach"], ["address"]),
} as const satisfies Partial<Record<keyof typeof PROVIDER_METHODS, MessagePlan>>;

const { DIFF_UNKNOWN, DIFF_NONE, DIFF_SOME } = ENUMS["pulumirpc.DiffResponse.DiffChanges"];
const EMPTY = new Uint8Array(0);

/** Check failures as repeated CheckFailure messages. */
const failuresOf = (failures: provider.CheckFailure[] | undefined) =>
  (failures ?? []).map((failure) =>
    encodeMessage(MESSAGES["pulumirpc.CheckFailure"], { property: failure.property, reason: failure.reason }),
  );

/** A failed call as the SDK's server reported it: UNKNOWN with the error's message, its stack in the plugin's log. */
function plainError(error: unknown): CallFailure {
  const failure = error instanceof Error ? error : new Error(String(error));
  process.stderr.write(`${String(failure)}: ${failure.stack}\n`);
  return new CallFailure(GrpcStatus.UNKNOWN, failure.message);
}

/** A failed create or update; one that made its object (an `id`) says so, with what it holds, in
 *  the status's details (an `ErrorResourceInitFailed`), so that the engine records it rather than
 *  losing it. */
function writeError(error: unknown): CallFailure {
  const failure = error as { message?: string; id?: string; properties?: Values; reasons?: string[] };
  const message = failure.message ?? String(error);
  if (!failure.id) return new CallFailure(GrpcStatus.UNKNOWN, message);
  // An ErrorResourceInitFailed, packed in an Any, in a google.rpc.Status's details.
  const detail = encodeMessage(MESSAGES["pulumirpc.ErrorResourceInitFailed"], {
    id: failure.id,
    properties: failure.properties ?? {},
    reasons: failure.reasons ?? [],
  });
  const packed = encodeMessage(MESSAGES["google.protobuf.Any"], {
    typeUrl: "type.googleapis.com/pulumirpc.ErrorResourceInitFailed",
    value: detail,
  });
  const status = encodeMessage(MESSAGES["google.rpc.Status"], { code: GrpcStatus.UNKNOWN, message, details: [packed] });
  return new CallFailure(GrpcStatus.UNKNOWN, message, status);
}

/** A method's handler: its request read by `plan`, its answer's bytes, a failure through `failed`. */
function method<P extends MessagePlan>(
  plan: P,
  answer: (request: ReturnType<typeof decode<P>>) => Uint8Array | Promise<Uint8Array>,
  failed: (error: unknown) => CallFailure = plainError,
): UnaryHandler {
  return async (bytes) => {
    try {
      return await answer(decode(plan, bytes));
    } catch (error) {
      throw error instanceof CallFailure ? error : failed(error);
    }
  };
}

const notImplemented = (name: string) => new CallFailure(GrpcStatus.UNIMPLEMENTED, `Not yet implemented: ${name}`);

const unimplemented =
  (name: string): UnaryHandler =>
  () => {
    throw notImplemented(name);
  };

/** The service's handlers, by method name: the methods the engine calls of this plugin. */
export function providerHandlers(service: ProviderService): Partial<Record<keyof typeof PROVIDER_METHODS, UnaryHandler>> {
  const withImportMark = (properties: Values, inputs: Values | undefined): Values => {
    const mark = inputs?.[IMPORTED_KEY];
    return mark === undefined ? properties : { ...properties, [IMPORTED_KEY]: mark };
  };
  const handlers: Partial<Record<keyof typeof PROVIDER_METHODS, UnaryHandler>> = {
    GetPluginInfo: method({}, () => encodeMessage(MESSAGES["pulumirpc.PluginInfo"], { version: service.version })),
    GetSchema: method(REQUESTS.GetSchema, (request) => {
      if ((request.version ?? 0) !== 0) throw new Error(`unsupported schema version ${request.version}`);
      return encodeMessage(MESSAGES["pulumirpc.GetSchemaResponse"], { schema: service.schema });
    }),
    // Answered UNIMPLEMENTED, as before the handshake was read (the engine then configures the
    // plugin as it always did), but read: only the engine's own provider of a deployment is handed
    // its loader's address, so that process starts loading the provider while the engine's other
    // first requests go back and forth (7 to 16 ms of them in traced previews). The YAML host's
    // process, which only answers the schema, is handed none and loads nothing.
    Handshake: method(REQUESTS.Handshake, (request) => {
      if (request.loaderTarget) setImmediate(() => service.prepare());
      throw notImplemented("Handshake");
    }),
    CheckConfig: unimplemented("CheckConfig"),
    DiffConfig: unimplemented("DiffConfig"),
    Configure: method(REQUESTS.Configure, (request) => {
      service.configure({ args: request.args ?? {}, variables: request.variables ?? {} });
      return encodeMessage(MESSAGES["pulumirpc.ConfigureResponse"], {
        acceptsecrets: true,
        supportspreview: false,
        acceptresources: true,
        acceptoutputs: true,
      });
    }),
    Check: method(REQUESTS.Check, ({ urn = "", olds = {}, news = {} }) =>
      inCall(urn, async () => {
        const result = await service.provider().check!(urn, olds, news);
        return encodeMessage(MESSAGES["pulumirpc.CheckResponse"], { inputs: result.inputs ?? news, failures: failuresOf(result.failures) });
      }),
    ),
    Diff: method(REQUESTS.Diff, ({ id = "", urn = "", olds = {}, news = {} }) =>
      inCall(urn, async () => {
        const result = await service.provider().diff!(id, urn, olds, news);
        const changes = result.changes === true ? DIFF_SOME : result.changes === false ? DIFF_NONE : DIFF_UNKNOWN;
        return encodeMessage(MESSAGES["pulumirpc.DiffResponse"], {
          replaces: result.replaces ?? [],
          deletebeforereplace: result.deleteBeforeReplace ?? false,
          changes,
        });
      }),
    ),
    Create: method(
      REQUESTS.Create,
      ({ urn = "", properties = {} }) =>
        inCall(urn, async () => {
          const result = await service.provider().create!(urn, properties);
          return encodeMessage(MESSAGES["pulumirpc.CreateResponse"], { id: result.id, properties: result.outs ?? {} });
        }),
      writeError,
    ),
    // `pulumi import` reads with the id alone: no properties at all.
    Read: method(REQUESTS.Read, ({ id = "", urn = "", properties = {}, inputs }) =>
      inCall(urn, async () => {
        const result = await service.provider().read!(id, urn, withImportMark(properties, inputs));
        return encodeMessage(MESSAGES["pulumirpc.ReadResponse"], {
          id: result.id ?? "",
          properties: result.props ?? {},
          inputs: result.inputs,
        });
      }),
    ),
    Update: method(
      REQUESTS.Update,
      ({ id = "", urn = "", olds = {}, news = {} }) =>
        inCall(urn, async () => {
          const result = (await service.provider().update!(id, urn, olds, news)) ?? {};
          return encodeMessage(MESSAGES["pulumirpc.UpdateResponse"], { properties: result.outs ?? {} });
        }),
      writeError,
    ),
    Delete: method(REQUESTS.Delete, ({ id = "", urn = "", properties = {}, oldInputs }) =>
      inCall(urn, async () => {
        await service.provider().delete!(id, urn, withImportMark(properties, oldInputs));
        return EMPTY;
      }),
    ),
    Invoke: method(REQUESTS.Invoke, async ({ tok = "", args = {} }) => {
      const result = await service.provider().invoke!(tok, args);
      return encodeMessage(MESSAGES["pulumirpc.InvokeResponse"], { return: result.outputs ?? {}, failures: failuresOf(result.failures) });
    }),
    Cancel: () => EMPTY,
    Attach: method(REQUESTS.Attach, ({ address = "" }) => {
      service.attach(address);
      return EMPTY;
    }),
  };
  const timings = process.env["FORGE_PLUGIN_TIMINGS"];
  if (timings) {
    for (const timed of TIMED_METHODS) {
      const name = (timed[0]!.toUpperCase() + timed.slice(1)) as keyof typeof PROVIDER_METHODS;
      handlers[name] = timedHandler(timed, handlers[name]!, timings);
    }
  }
  return handlers;
}

/** Serves `service` on a free port of loopback. */
export function listen(service: ProviderService): Promise<UnaryServer> {
  return serveUnary(PROVIDER_SERVICE, providerHandlers(service));
}
