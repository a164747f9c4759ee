/**
 * The provider's messages (progress, warnings) in the engine's log, attached to the resource of
 * the call that said them: the plugin's own client of the engine's `LogService`, at the address
 * the engine starts the plugin with. So a YAML preview shows, under the resource, what the
 * dynamic face shows through Pulumi's log ("rotation due since ...").
 *
 * Each call of the provider service runs in a {@link CallContext}: its URN, and the messages still
 * on their way. The server answers a call only once they have arrived, so that no message of a
 * step is lost when the engine ends the plugin right after the step.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import { redact } from "../redaction";

/** A message's level, as the provider's progress sink says it (engine/outcomes.ts). */
type Level = "warning" | "error" | undefined;

/** The call a message belongs to. */
interface CallContext {
  urn: string;
  /** The messages of this call not yet acknowledged by the engine. */
  pending: Promise<void>[];
}

const calls = new AsyncLocalStorage<CallContext>();

/** Runs `step` as the call on `urn`: its messages carry the URN, and it ends once they arrived. */
export async function inCall<T>(urn: string, step: () => Promise<T>): Promise<T> {
  const context: CallContext = { urn, pending: [] };
  try {
    return await calls.run(context, step);
  } finally {
    // Most calls say nothing: no wait then.
    if (context.pending.length > 0) await Promise.all(context.pending);
  }
}

/** The SDK's generated stubs of the engine's service, loaded at the first message. */
function engineStubs(): { rpc: typeof engineRpc; pb: typeof enginePb; grpc: typeof grpcTypes } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    rpc: require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof engineRpc,
    pb: require("@pulumi/pulumi/proto/engine_pb") as typeof enginePb,
    grpc: require("@grpc/grpc-js") as typeof grpcTypes,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** What the plugin says through the engine: `log(message, level)`, a progress sink. */
export interface EngineLog {
  (message: string, level?: Level): void;
  /** Closes the connection to the engine. */
  close(): void;
}

/**
 * The engine's log at `address` (host:port), connected at its first message. Without an address
 * (a plugin started by hand), messages go to stderr, where the engine's verbose log keeps them.
 */
export function engineLog(address: () => string | undefined): EngineLog {
  let client: engineRpc.EngineClient | undefined;
  let stubs: ReturnType<typeof engineStubs> | undefined;
  const log = ((message: string, level?: Level) => {
    const text = redact(message);
    const target = address();
    if (!target) {
      process.stderr.write(`${text}\n`);
      return;
    }
    stubs ??= engineStubs();
    client ??= new stubs.rpc.EngineClient(target, stubs.grpc.credentials.createInsecure());
    const request = new stubs.pb.LogRequest();
    const severity = stubs.pb.LogSeverity;
    request.setSeverity(level === "warning" ? severity.WARNING : level === "error" ? severity.ERROR : severity.INFO);
    request.setMessage(text);
    const context = calls.getStore();
    if (context) request.setUrn(context.urn);
    const sent = new Promise<void>((resolve) => {
      client!.log(request, (error) => {
        // The engine gone (a cancelled run): the message has nowhere to go but stderr.
        if (error) process.stderr.write(`${text}\n`);
        resolve();
      });
    });
    context?.pending.push(sent);
  }) as EngineLog;
  log.close = () => client?.close();
  return log;
}
