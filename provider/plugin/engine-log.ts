/**
 * The provider's messages (progress, warnings) in the engine's log, attached to the resource of
 * the call that said them: the plugin's own client of the engine's `LogService` (a unary gRPC
 * call on node:http2, wire/grpc.ts), at the address
 * the engine starts the plugin with. So a YAML preview shows, under the resource, what the
 * dynamic face shows through Pulumi's log ("rotation due since ...").
 *
 * Each call of the provider service runs in a {@link CallContext}: its URN, and the messages still
 * on their way. The server answers a call only once they have arrived, so that no message of a
 * step is lost when the engine ends the plugin right after the step.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { redact } from "../redaction";
import { unaryClient, type UnaryClient } from "./wire/grpc";
import { encodeMessage } from "./wire/protobuf";
import { ENGINE_SERVICE, ENUMS, MESSAGES, type ENGINE_METHODS } from "./wire/protocol";

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

/** LogSeverity of pulumirpc's engine.proto. */
const { INFO, WARNING, ERROR } = ENUMS["pulumirpc.LogSeverity"];
const SEVERITY = { info: INFO, warning: WARNING, error: ERROR } as const;

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
  let client: { target: string; engine: UnaryClient } | undefined;
  const log = ((message: string, level?: Level) => {
    const text = redact(message);
    const target = address();
    if (!target) {
      process.stderr.write(`${text}\n`);
      return;
    }
    // `Attach` may move the engine: a new address, a new connection.
    if (client?.target !== target) {
      client?.engine.close();
      client = { target, engine: unaryClient(target, ENGINE_SERVICE) };
    }
    const context = calls.getStore();
    const request = encodeMessage(MESSAGES["pulumirpc.LogRequest"], {
      severity: SEVERITY[level ?? "info"],
      message: text,
      urn: context?.urn ?? "",
    });
    // The engine gone (a cancelled run): the message has nowhere to go but stderr.
    const sent = client.engine
      .call("Log" satisfies keyof typeof ENGINE_METHODS, request)
      .catch(() => void process.stderr.write(`${text}\n`));
    context?.pending.push(sent);
  }) as EngineLog;
  log.close = () => client?.engine.close();
  return log;
}
