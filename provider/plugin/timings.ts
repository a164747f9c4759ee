/**
 * `FORGE_PLUGIN_TIMINGS=<file>`: the plugin appends one JSON line per request of the engine that
 * it answers (check, diff, create, read, update, delete): the method, the milliseconds from the
 * gRPC handler to its answer, and those spent waiting on the forge. The benchmark reads them for
 * the plugin's own time per resource (`npm run bench`, bench/plugin.ts). Off unless set.
 */
import { appendFileSync } from "node:fs";
import { httpTime } from "../client/http-time";
import type { UnaryHandler } from "./wire/grpc";

/** The provider service's methods that the engine calls once or twice per resource. */
export const TIMED_METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

/** One line of the timings file. */
export interface TimingLine {
  method: (typeof TIMED_METHODS)[number];
  ms: number;
  httpMs: number;
}

/** The handler, timed into `file`: the time to its answer, and the forge's share of it. */
export function timedHandler(method: TimingLine["method"], handler: UnaryHandler, file: string): UnaryHandler {
  return (request) => {
    const total = { ms: 0 };
    const started = performance.now();
    const written = () => {
      const line: TimingLine = { method, ms: performance.now() - started, httpMs: total.ms };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    };
    return httpTime.run(total, async () => {
      try {
        return await handler(request);
      } finally {
        written();
      }
    });
  };
}
