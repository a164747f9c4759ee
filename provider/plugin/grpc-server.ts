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
 * Field numbers are those of pulumirpc's provider.proto and plugin.proto, and google.rpc.Status's
 * (the SDK's 3.259 stubs); test/contract/plugin-server.test.ts speaks to this server with the
 * SDK's own client and stubs.
 */
import type * as provider from "@pulumi/pulumi/provider";
import { IMPORTED_KEY } from "../engine/bookkeeping";
import { inCall } from "./engine-log";
import { TIMED_METHODS, timedHandler } from "./timings";
import { CallFailure, GrpcStatus, serveUnary, type UnaryHandler, type UnaryServer } from "./wire/grpc";
import { decode, encode, type MessagePlan, type Values } from "./wire/protobuf";

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
  Handshake: { 9: ["loaderTarget", "string"] },
  GetSchema: { 1: ["version", "varint"] },
  Configure: { 1: ["variables", "stringMap"], 2: ["args", "struct"] },
  Check: { 1: ["urn", "string"], 2: ["olds", "struct"], 3: ["news", "struct"] },
  Diff: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["olds", "struct"], 4: ["news", "struct"] },
  Create: { 1: ["urn", "string"], 2: ["properties", "struct"] },
  Read: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["properties", "struct"], 4: ["inputs", "struct"] },
  Update: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["olds", "struct"], 4: ["news", "struct"] },
  Delete: { 1: ["id", "string"], 2: ["urn", "string"], 3: ["properties", "struct"], 5: ["oldInputs", "struct"] },
  Invoke: { 1: ["tok", "string"], 2: ["args", "struct"] },
  Attach: { 1: ["address", "string"] },
} as const satisfies Record<string, MessagePlan>;

/** DiffResponse.DiffChanges. */
const DIFF_UNKNOWN = 0;
const DIFF_NONE = 1;
const DIFF_SOME = 2;
const EMPTY = new Uint8Array(0);

/** Check failures as repeated CheckFailure messages (property 1, reason 2). */
const failuresOf = (failures: provider.CheckFailure[] | undefined) =>
  (failures ?? []).map((failure) => encode({ 1: { string: failure.property }, 2: { string: failure.reason } }));

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
  // ErrorResourceInitFailed: id 1, properties 2, reasons 3; in an Any (type_url 1, value 2); in a
  // google.rpc.Status (code 1, message 2, details 3).
  const detail = encode({ 1: { string: failure.id }, 2: { struct: failure.properties ?? {} }, 3: { strings: failure.reasons ?? [] } });
  const packed = encode({ 1: { string: "type.googleapis.com/pulumirpc.ErrorResourceInitFailed" }, 2: { messages: [detail] } });
  const status = encode({ 1: { varint: GrpcStatus.UNKNOWN }, 2: { string: message }, 3: { messages: [packed] } });
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
export function providerHandlers(service: ProviderService): Record<string, UnaryHandler> {
  const withImportMark = (properties: Values, inputs: Values | undefined): Values => {
    const mark = inputs?.[IMPORTED_KEY];
    return mark === undefined ? properties : { ...properties, [IMPORTED_KEY]: mark };
  };
  const handlers: Record<string, UnaryHandler> = {
    // PluginInfo: version 1.
    GetPluginInfo: method({}, () => encode({ 1: { string: service.version } })),
    // GetSchemaResponse: schema 1.
    GetSchema: method(REQUESTS.GetSchema, (request) => {
      if ((request.version ?? 0) !== 0) throw new Error(`unsupported schema version ${request.version}`);
      return encode({ 1: { string: service.schema } });
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
    // ConfigureResponse: acceptSecrets 1, supportsPreview 2, acceptResources 3, acceptOutputs 4.
    Configure: method(REQUESTS.Configure, (request) => {
      service.configure({ args: request.args ?? {}, variables: request.variables ?? {} });
      return encode({ 1: { varint: 1 }, 3: { varint: 1 }, 4: { varint: 1 } });
    }),
    // CheckResponse: inputs 1, failures 2.
    Check: method(REQUESTS.Check, ({ urn = "", olds = {}, news = {} }) =>
      inCall(urn, async () => {
        const result = await service.provider().check!(urn, olds, news);
        return encode({ 1: { struct: result.inputs ?? news }, 2: { messages: failuresOf(result.failures) } });
      }),
    ),
    // DiffResponse: replaces 1, deleteBeforeReplace 3, changes 4.
    Diff: method(REQUESTS.Diff, ({ id = "", urn = "", olds = {}, news = {} }) =>
      inCall(urn, async () => {
        const result = await service.provider().diff!(id, urn, olds, news);
        const changes = result.changes === true ? DIFF_SOME : result.changes === false ? DIFF_NONE : DIFF_UNKNOWN;
        return encode({ 1: { strings: result.replaces ?? [] }, 3: { varint: result.deleteBeforeReplace ? 1 : 0 }, 4: { varint: changes } });
      }),
    ),
    // CreateResponse: id 1, properties 2.
    Create: method(
      REQUESTS.Create,
      ({ urn = "", properties = {} }) =>
        inCall(urn, async () => {
          const result = await service.provider().create!(urn, properties);
          return encode({ 1: { string: result.id }, 2: { struct: result.outs ?? {} } });
        }),
      writeError,
    ),
    // ReadResponse: id 1, properties 2, inputs 3. `pulumi import` reads with the id alone: no properties at all.
    Read: method(REQUESTS.Read, ({ id = "", urn = "", properties = {}, inputs }) =>
      inCall(urn, async () => {
        const result = await service.provider().read!(id, urn, withImportMark(properties, inputs));
        return encode({
          1: { string: result.id ?? "" },
          2: { struct: result.props ?? {} },
          3: result.inputs === undefined ? undefined : { struct: result.inputs },
        });
      }),
    ),
    // UpdateResponse: properties 1.
    Update: method(
      REQUESTS.Update,
      ({ id = "", urn = "", olds = {}, news = {} }) =>
        inCall(urn, async () => {
          const result = (await service.provider().update!(id, urn, olds, news)) ?? {};
          return encode({ 1: { struct: result.outs ?? {} } });
        }),
      writeError,
    ),
    Delete: method(REQUESTS.Delete, ({ id = "", urn = "", properties = {}, oldInputs }) =>
      inCall(urn, async () => {
        await service.provider().delete!(id, urn, withImportMark(properties, oldInputs));
        return EMPTY;
      }),
    ),
    // InvokeResponse: return 1, failures 2.
    Invoke: method(REQUESTS.Invoke, async ({ tok = "", args = {} }) => {
      const result = await service.provider().invoke!(tok, args);
      return encode({ 1: { struct: result.outputs ?? {} }, 2: { messages: failuresOf(result.failures) } });
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
      const name = timed[0]!.toUpperCase() + timed.slice(1);
      handlers[name] = timedHandler(timed, handlers[name]!, timings);
    }
  }
  return handlers;
}

/** Serves `service` on a free port of loopback. */
export function listen(service: ProviderService): Promise<UnaryServer> {
  return serveUnary("pulumirpc.ResourceProvider", providerHandlers(service));
}
