/**
 * Time spent in HTTP exchanges, summed per unit of work that asks for it: the provider plugin
 * measures its own time per request of the engine with the forge's answers left out
 * (`FORGE_PLUGIN_TIMINGS`, provider/plugin/timings.ts). Nothing is measured unless a unit runs
 * inside {@link httpTime}.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The running total of one unit of work, in milliseconds (overlapping exchanges are summed). */
export interface HttpTotal {
  ms: number;
}

export const httpTime = new AsyncLocalStorage<HttpTotal>();
