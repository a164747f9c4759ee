/**
 * The provider protocol's service, served on `@grpc/grpc-js` with the SDK's generated protobuf
 * stubs (`@pulumi/pulumi/proto/*_pb`), without `@pulumi/pulumi` itself: the SDK's provider server
 * loads the whole SDK (its runtime, OpenTelemetry) before it listens, which was most of the
 * plugin's start, twice per operation (the YAML host starts a process of its own for the schema).
 *
 * It answers as the SDK's server did (3.259), so that nothing changes for the engine: the same
 * `Configure` answer (secrets, resources and output values accepted; no preview of creates),
 * `CheckConfig` and `DiffConfig` unimplemented (the engine then takes the configuration as
 * given), the same values on the wire (a `Struct`, with the secret and unknown marks the plugin
 * face reads and writes itself: face.ts), a half-done create as `ErrorResourceInitFailed`.
 * What it adds: `Configure` hands the configuration to the provider, `Read` without properties
 * (`pulumi import`) reads by id, `Read` and `Delete` see the import mark of the state's inputs
 * (engine/imports.ts, engine/bookkeeping.ts), and the provider's messages reach the engine's log under their resource
 * (engine-log.ts).
 */
import { dirname } from "node:path";
import * as grpc from "@grpc/grpc-js";
import type * as provider from "@pulumi/pulumi/provider";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as statusPb from "@pulumi/pulumi/proto/status_pb";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import type * as emptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as anyPb from "google-protobuf/google/protobuf/any_pb";
import { IMPORTED_KEY } from "../engine/bookkeeping";
import { inCall } from "./engine-log";
import { TIMED_METHODS, timedHandler } from "./timings";

/* eslint-disable @typescript-eslint/no-require-imports */
/** The SDK's own copy of a module (the stubs require it from there: one copy of each message class). */
function sdkRequire<T>(name: string): T {
  return require(require.resolve(name, { paths: [dirname(require.resolve("@pulumi/pulumi/proto/provider_pb"))] })) as T;
}
const rpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof providerRpc;
const pb = require("@pulumi/pulumi/proto/provider_pb") as typeof providerPb;
const plugin = require("@pulumi/pulumi/proto/plugin_pb") as typeof pluginPb;
const { Struct } = sdkRequire<typeof structPb>("google-protobuf/google/protobuf/struct_pb");
const { Empty } = sdkRequire<typeof emptyPb>("google-protobuf/google/protobuf/empty_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

type Values = Record<string, unknown>;

/** What the server needs of the plugin: its identity at once, the rest at first use. */
export interface ProviderService {
  version: string;
  schema: string;
  /** The provider of the resources (loaded at its first call). */
  provider(): provider.Provider;
  /** Hands the stack's configuration (the `Configure` request) to the provider. */
  configure(request: providerPb.ConfigureRequest): void;
  /** Called by `Attach`: the engine's new address. */
  attach(address: string): void;
}

const toJs = (struct: structPb.Struct | undefined): Values => (struct?.toJavaScript() as Values | undefined) ?? {};
const fromJs = (values: Values | undefined): structPb.Struct =>
  Struct.fromJavaScript((values ?? {}) as Parameters<typeof Struct.fromJavaScript>[0]);

/** A failed call as the SDK's server reported it: the error's message, its stack in the plugin's log. */
function plainError(error: unknown): Partial<grpc.StatusObject> | Error {
  const failure = error instanceof Error ? error : new Error(String(error));
  process.stderr.write(`${String(failure)}: ${failure.stack}\n`);
  return failure;
}

/** A failed create or update; one that made its object (an `id`) says so, with what it holds, so
 *  that the engine records it rather than losing it. */
function writeError(error: unknown): Partial<grpc.StatusObject> {
  const failure = error as { message?: string; id?: string; properties?: Values; reasons?: string[] };
  const message = failure.message ?? String(error);
  const metadata = new grpc.Metadata();
  if (failure.id) {
    const status = sdkRequire<typeof statusPb>("@pulumi/pulumi/proto/status_pb");
    const { Any } = sdkRequire<typeof anyPb>("google-protobuf/google/protobuf/any_pb");
    const detail = new pb.ErrorResourceInitFailed();
    detail.setId(failure.id);
    detail.setProperties(fromJs(failure.properties));
    detail.setReasonsList(failure.reasons ?? []);
    const packed = new Any();
    packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const body = new status.Status();
    body.setCode(grpc.status.UNKNOWN);
    body.setMessage(message);
    body.addDetails(packed);
    metadata.add("grpc-status-details-bin", Buffer.from(body.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

/** A unary handler from an async answer; a failure goes through `failed`. */
function unary<Req, Res>(
  answer: (request: Req) => Res | Promise<Res>,
  failed: (error: unknown) => Partial<grpc.StatusObject> | Error = plainError,
): Unary<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => answer(call.request))
      .then(
        (response) => callback(null, response),
        (error: unknown) => {
          const status = failed(error);
          callback(status as grpc.ServerErrorResponse, null, (status as Partial<grpc.StatusObject>).metadata ?? undefined);
        },
      );
  };
}

/** The check failures of a result, as messages. */
function failuresOf(failures: provider.CheckFailure[] | undefined): providerPb.CheckFailure[] {
  return (failures ?? []).map((failure) => {
    const message = new pb.CheckFailure();
    message.setProperty(failure.property);
    message.setReason(failure.reason);
    return message;
  });
}

/** The service's handlers: the methods the engine calls of this plugin. The others (Construct,
 *  Call, Parameterize, GetMapping...) answer UNIMPLEMENTED, grpc-js's default, as before. */
export function providerHandlers(service: ProviderService): Partial<providerRpc.IResourceProviderServer> {
  const withImportMark = (properties: Values, inputs: structPb.Struct | undefined): Values => {
    const mark = inputs?.toJavaScript()[IMPORTED_KEY];
    return mark === undefined ? properties : { ...properties, [IMPORTED_KEY]: mark };
  };
  const handlers: Partial<providerRpc.IResourceProviderServer> = {
    getPluginInfo: unary(() => new plugin.PluginInfo().setVersion(service.version)),
    getSchema: unary((request: providerPb.GetSchemaRequest) => {
      if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
      return new pb.GetSchemaResponse().setSchema(service.schema);
    }),
    checkConfig: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "Not yet implemented: CheckConfig" }, null),
    diffConfig: (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "Not yet implemented: DiffConfig" }, null),
    configure: unary((request: providerPb.ConfigureRequest) => {
      service.configure(request);
      return new pb.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(true).setAcceptoutputs(true);
    }),
    check: unary((request: providerPb.CheckRequest) =>
      inCall(request.getUrn(), async () => {
        const news = toJs(request.getNews());
        const result = await service.provider().check!(request.getUrn(), toJs(request.getOlds()), news);
        return new pb.CheckResponse().setInputs(fromJs(result.inputs ?? news)).setFailuresList(failuresOf(result.failures));
      }),
    ),
    diff: unary((request: providerPb.DiffRequest) =>
      inCall(request.getUrn(), async () => {
        const result = await service.provider().diff!(request.getId(), request.getUrn(), toJs(request.getOlds()), toJs(request.getNews()));
        const changes = pb.DiffResponse.DiffChanges;
        const response = new pb.DiffResponse().setChanges(
          result.changes === true ? changes.DIFF_SOME : result.changes === false ? changes.DIFF_NONE : changes.DIFF_UNKNOWN,
        );
        if (result.replaces?.length) response.setReplacesList(result.replaces);
        if (result.deleteBeforeReplace) response.setDeletebeforereplace(true);
        return response;
      }),
    ),
    create: unary(
      (request: providerPb.CreateRequest) =>
        inCall(request.getUrn(), async () => {
          const result = await service.provider().create!(request.getUrn(), toJs(request.getProperties()));
          return new pb.CreateResponse().setId(result.id).setProperties(fromJs(result.outs));
        }),
      writeError,
    ),
    // `pulumi import` reads with the id alone: no properties at all.
    read: unary((request: providerPb.ReadRequest) =>
      inCall(request.getUrn(), async () => {
        const properties = withImportMark(toJs(request.getProperties()), request.getInputs());
        const result = await service.provider().read!(request.getId(), request.getUrn(), properties);
        const response = new pb.ReadResponse().setId(result.id ?? "").setProperties(fromJs(result.props));
        if (result.inputs !== undefined) response.setInputs(fromJs(result.inputs));
        return response;
      }),
    ),
    update: unary(
      (request: providerPb.UpdateRequest) =>
        inCall(request.getUrn(), async () => {
          const result =
            (await service.provider().update!(request.getId(), request.getUrn(), toJs(request.getOlds()), toJs(request.getNews()))) ?? {};
          return new pb.UpdateResponse().setProperties(fromJs(result.outs));
        }),
      writeError,
    ),
    delete: unary((request: providerPb.DeleteRequest) =>
      inCall(request.getUrn(), async () => {
        await service.provider().delete!(
          request.getId(),
          request.getUrn(),
          withImportMark(toJs(request.getProperties()), request.getOldInputs()),
        );
        return new Empty();
      }),
    ),
    invoke: unary(async (request: providerPb.InvokeRequest) => {
      const result = await service.provider().invoke!(request.getTok(), toJs(request.getArgs()));
      return new pb.InvokeResponse().setReturn(fromJs(result.outputs)).setFailuresList(failuresOf(result.failures));
    }),
    cancel: unary(() => new Empty()),
    attach: unary((request: pluginPb.PluginAttach) => {
      service.attach(request.getAddress());
      return new Empty();
    }),
  };
  const timings = process.env["FORGE_PLUGIN_TIMINGS"];
  if (timings) {
    const timed = handlers as Record<string, Parameters<typeof timedHandler>[1]>;
    for (const method of TIMED_METHODS) timed[method] = timedHandler(method, timed[method]!, timings);
  }
  return handlers;
}

/** The gRPC server's options, the SDK's: messages up to 400 MB, calls waiting up to half an hour. */
const SERVER_OPTIONS: grpc.ServerOptions = {
  "grpc.max_receive_message_length": 400 * 1024 * 1024,
  "grpc.server_max_unrequested_time_in_server": 30 * 60,
};

/** Serves `service` on a free port of loopback; resolves with the server and its port. */
export async function listen(service: ProviderService): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server(SERVER_OPTIONS);
  server.addService(rpc.ResourceProviderService, providerHandlers(service) as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { server, port };
}
