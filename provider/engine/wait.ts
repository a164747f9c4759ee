/** Waiting for asynchronous work a create scheduled (a repository storage move). */
import type { AwaitState, State, WireRecord } from "./declaration";
import { fromWire } from "./naming";

export const DEFAULT_WAIT_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_WAIT_INTERVAL_MS = 2_000;

/** The wait ended without success: `record` is the last the forge showed (a failed move, with its reason). */
export class AwaitError extends Error {
  constructor(
    message: string,
    readonly record: WireRecord,
  ) {
    super(message);
    this.name = "AwaitError";
  }
}

export interface WaitOptions {
  /** Reads the record again; undefined means it is gone. */
  read(): Promise<WireRecord | undefined>;
  /** Reports progress (Pulumi's log in the provider process). */
  progress(message: string): void;
  /** What is waited for, as users read it: `RepositoryStorageMove "move-1"`. */
  subject: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Reads until `spec.field` reaches a final value. Each new value is reported once; a failed
 * value or the timeout is an error that says what was seen last.
 */
export async function awaitFinalState(spec: AwaitState, first: WireRecord, options: WaitOptions): Promise<WireRecord> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const now = options.now ?? Date.now;
  const deadline = now() + (spec.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS);
  let record = first;
  let reported: unknown = undefined;
  for (;;) {
    const fields = fromWire(record) as State;
    const value = fields[spec.field];
    if (value !== reported) {
      options.progress(`${options.subject}: ${spec.field} is ${String(value)}`);
      reported = value;
    }
    if (spec.done.includes(value)) return record;
    if (spec.failed?.includes(value)) {
      const reason = spec.reasonField ? fields[spec.reasonField] : undefined;
      throw new AwaitError(`${options.subject} ended ${String(value)}${reason ? `: ${String(reason)}` : ""}`, record);
    }
    if (now() >= deadline) {
      const minutes = Math.round((spec.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS) / 60_000);
      throw new AwaitError(
        `${options.subject}: still ${String(value)} after ${minutes} min; it goes on in the forge: run pulumi refresh later to see how it ended`,
        record,
      );
    }
    await sleep(spec.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS);
    const next = await options.read();
    if (!next) throw new Error(`${options.subject} disappeared while ${spec.field} was ${String(value)}`);
    record = next;
  }
}

/**
 * What a read tells of asynchronous work since the state was written (a move left to run with
 * `waitForCompletion: false`, read again by `pulumi refresh`): the progress field's old and new
 * values, and the reason when it failed; undefined when it has not moved. The engine's refresh
 * compares inputs (the provider's diff is given the new outputs and the old inputs), so a change
 * of an output alone is counted as `same`: this line is how the run shows it.
 */
export function progressSince(spec: AwaitState, previous: State, current: State, subject: string): string | undefined {
  const [before, after] = [previous[spec.field], current[spec.field]];
  if (before === undefined || after === undefined || before === after) return undefined;
  const reason = spec.failed?.includes(after) && spec.reasonField ? current[spec.reasonField] : undefined;
  return `${subject}: ${spec.field} was ${String(before)}, is ${String(after)}${reason ? `: ${String(reason)}` : ""}`;
}
