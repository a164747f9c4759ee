/**
 * One stack's operations timed, with the requests each sent (the emulator's log) and the state
 * bytes per managed resource after `up`: what the scale table and the plugin table both print.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../emulator";
import { lastSeq, requestsSince } from "./stacks";

export const OPS = ["up", "preview", "refresh", "destroy"] as const;
export type Op = (typeof OPS)[number];

export interface Measured {
  ms: Record<Op, number>;
  requests: Record<Op, number>;
  throttled: Record<Op, number>;
  stateBytesPerResource: number;
  /** The serialized provider's length (dynamic resources; 0 for the plugin's). */
  providerBytes: number;
}

/** Runs `ops` in order on `stack`; after `up` the state must hold `n` resources whose type `managed` accepts. */
export async function measureStack(
  emulator: RunningEmulator,
  stack: Stack,
  n: number,
  managed: (type: string) => boolean,
  ops: readonly Op[] = OPS,
  beforeOp: (op: Op) => void = () => {},
): Promise<Measured> {
  const result: Measured = {
    ms: {} as Record<Op, number>,
    requests: {} as Record<Op, number>,
    throttled: {} as Record<Op, number>,
    stateBytesPerResource: 0,
    providerBytes: 0,
  };
  for (const op of ops) {
    beforeOp(op);
    const since = await lastSeq(emulator);
    const started = performance.now();
    await stack[op]({ color: "never", onOutput: () => {} });
    result.ms[op] = performance.now() - started;
    const logged = await requestsSince(emulator, since);
    result.requests[op] = logged.length;
    result.throttled[op] = logged.filter((entry) => entry.status === 429).length;
    if (op === "up") {
      const deployment = (await stack.exportStack()).deployment as { resources?: { type: string; inputs?: Record<string, unknown> }[] };
      const resources = (deployment.resources ?? []).filter((r) => managed(r.type));
      if (resources.length !== n) throw new Error(`expected ${n} resources in the state, found ${resources.length}`);
      result.stateBytesPerResource = JSON.stringify(resources).length / n;
      result.providerBytes = String(resources[0]?.inputs?.["__provider"] ?? "").length;
    }
  }
  return result;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The median of each figure over rounds. */
export function medianMeasured(runs: Measured[]): Measured {
  const per = <K extends "ms" | "requests" | "throttled">(key: K) =>
    Object.fromEntries(OPS.map((op) => [op, median(runs.map((run) => run[key][op]))])) as Record<Op, number>;
  return {
    ms: per("ms"),
    requests: per("requests"),
    throttled: per("throttled"),
    stateBytesPerResource: median(runs.map((run) => run.stateBytesPerResource)),
    providerBytes: median(runs.map((run) => run.providerBytes)),
  };
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
