/**
 * One fleet stack checked from its exported state (cli/fleet.ts's default): its lock, then one
 * `pulumi stack export --show-secrets`, then its objects read and compared in this process
 * (cli/state-drift.ts), with the reads shared across the fleet. About a CLI start per stack,
 * where a refresh starts a CLI, a language host and a plugin. Nothing is locked or written.
 */
import { refreshFailure, type DriftedResource } from "./drift";
import { lockedBy } from "./lock-gate";
import { exportDeployment } from "./stack-export";
import { stateDrift, type SharedReads } from "./state-drift";

/** What the check found; `refresh` when the state needs the engine's own refresh (state-drift.ts says why). */
export type ExportedOutcome =
  | { status: "clean" | "drift"; drifted: DriftedResource[] }
  | { status: "locked" | "error" | "timeout"; message: string }
  | { status: "refresh"; why: string };

/**
 * Checks one stack, ending at `timeoutMs`: its export is ended (SIGKILL) or its reads are left
 * unanswered (the run's end ends them: cli/forge-drift.ts), and it is reported as `timeout`.
 */
export async function checkFromExport(target: { stack: string; workDir: string }, reads: SharedReads, timeoutMs: number, envVars?: Record<string, string>): Promise<ExportedOutcome> {
  const ended = new AbortController();
  let step = "its lock was being read";
  const check = async (): Promise<ExportedOutcome> => {
    try {
      // A run in progress (a deploy) holds the lock: its updates in flight are not drift.
      const lock = await lockedBy(target.workDir, target.stack, envVars);
      if (lock) return { status: "locked", message: lock };
      const env = { ...process.env, ...envVars };
      step = "its state's export was ended";
      const deployment = await exportDeployment({ stack: target.stack, workDir: target.workDir, env, showSecrets: true, signal: ended.signal });
      step = "its reads of the forge were left unanswered";
      const found = await stateDrift(deployment, reads, env);
      if ("refresh" in found) return { status: "refresh", why: found.refresh };
      return { status: found.drifted.length > 0 ? "drift" : "clean", drifted: found.drifted };
    } catch (error) {
      return { status: "error", message: refreshFailure(error, 12) };
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ExportedOutcome>((done) => {
    timer = setTimeout(() => {
      ended.abort();
      done({ status: "timeout", message: `timed out after ${Math.round(timeoutMs / 1000)} s (--timeout), drift not checked: ${step}; the check takes no lock on the stack` });
    }, timeoutMs);
  });
  try {
    return await Promise.race([check(), late]);
  } finally {
    clearTimeout(timer);
  }
}
