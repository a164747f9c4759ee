/**
 * One fleet stack checked from its exported state (cli/fleet.ts's default): its lock, then one
 * `pulumi stack export --show-secrets`, then its objects read and compared in this process
 * (cli/state-drift.ts), with the reads shared across the fleet. About a CLI start per stack,
 * where a refresh starts a CLI, a language host and a plugin. Nothing is locked or written.
 *
 * The reads wait for those of the stacks exported after it (SharedReads), so a deploy may have
 * run meanwhile: a stack found drifted has its lock and state read again, and is judged on the
 * state it has then (a locked stack is reported locked, a changed state is read anew), as a
 * refresh started then would judge it.
 */
import { refreshFailure, type DriftedResource } from "./drift";
import { lockedBy } from "./lock-gate";
import type { ExportedDeployment } from "../provider/holdings/holdings";
import { exportDeployment } from "./stack-export";
import { refreshNeeded, stateDrift, type SharedReads } from "./state-drift";

/** What the check found; `refresh` when the state needs the engine's own refresh (state-drift.ts says why). */
export type ExportedOutcome =
  | { status: "clean" | "drift"; drifted: DriftedResource[] }
  | { status: "locked" | "error" | "timeout"; message: string }
  | { status: "refresh"; why: string };

/**
 * Checks one stack, ending at `timeoutMs`: its export is ended (SIGKILL) or its reads are left
 * unanswered (the run's end ends them: cli/forge-drift.ts), and it is reported as `timeout`.
 * `exported` is called once its state is read and it needs no refresh: from then on it only
 * waits for the forge, and the fleet starts the next stack's export.
 */
export async function checkFromExport(
  target: { stack: string; workDir: string },
  reads: SharedReads,
  timeoutMs: number,
  envVars?: Record<string, string>,
  exported: () => void = () => undefined,
  forgeProblem: (deployment: ExportedDeployment) => Promise<string | undefined> = async () => undefined,
): Promise<ExportedOutcome> {
  const ended = new AbortController();
  const env = { ...process.env, ...envVars };
  let step = "its lock was being read";
  /** The stack's state, unless a run holds its lock (a deploy: its updates in flight are not drift). */
  const read = async (): Promise<ExportedDeployment | { status: "locked"; message: string }> => {
    step = "its lock was being read";
    const lock = await lockedBy(target.workDir, target.stack, envVars);
    if (lock) return { status: "locked", message: lock };
    step = "its state's export was ended";
    return exportDeployment({ stack: target.stack, workDir: target.workDir, env, showSecrets: true, signal: ended.signal });
  };
  const judge = async (deployment: ExportedDeployment): Promise<ExportedOutcome> => {
    step = "its reads of the forge were left unanswered";
    const found = await stateDrift(deployment, reads, env, target.workDir);
    if ("refresh" in found) return { status: "refresh", why: found.refresh };
    return { status: found.drifted.length > 0 ? "drift" : "clean", drifted: found.drifted };
  };
  const check = async (): Promise<ExportedOutcome> => {
    try {
      const first = await read();
      if ("status" in first) return first;
      // A forge of its resources that is down fails the stack at once, not after a retry budget.
      step = "the forges of its resources were being reached";
      const problem = await forgeProblem(first);
      if (problem) return { status: "error", message: problem };
      const refresh = refreshNeeded(first);
      if (refresh) return { status: "refresh", why: refresh };
      exported();
      step = "it was waiting to read the forge with the stacks exported after it";
      await reads.turn();
      const outcome = await judge(first);
      if (outcome.status !== "drift") return outcome;
      // Drift found after the wait: judged on the state the stack has now.
      const now = await read();
      if ("status" in now) return now;
      return JSON.stringify(now.resources) === JSON.stringify(first.resources) ? outcome : await judge(now);
    } catch (error) {
      return { status: "error", message: refreshFailure(error, 12) };
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ExportedOutcome>((done) => {
    timer = setTimeout(() => {
      ended.abort();
      done({
        status: "timeout",
        message: `timed out after ${Math.round(timeoutMs / 1000)} s (--timeout), drift not checked: ${step}; the check takes no lock on the stack`,
      });
    }, timeoutMs);
  });
  try {
    return await Promise.race([check(), late]);
  } finally {
    clearTimeout(timer);
  }
}
