/**
 * A fleet stack's processes, found and ended as one: its check runs in a process session of its
 * own (a child started with `detached`, which calls setsid), and everything it starts stays in that
 * session. A process group would not do: the Pulumi CLI puts its language host and each plugin in
 * a group of its own, but none of them leaves the session, and the session id survives a parent's
 * death (a plugin whose CLI was killed is re-parented, not moved). On Linux the session is read
 * from /proc (slim container images have no `ps`); other systems have no portable session column
 * in `ps`, so there the session's leader's group and every descendant of it are taken.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** The live processes of session `sid` (zombies, already dead, left out). */
export function sessionMembers(sid: number): number[] {
  return process.platform === "linux" ? procMembers(sid) : groupAndDescendants(sid);
}

function procMembers(sid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = procStat(pid);
      return stat?.session === sid && !stat.ended;
    });
}

/** A process's state and session from /proc/<pid>/stat; undefined once it is gone. */
function procStat(pid: number): { ended: boolean; session: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp session ...`: comm may hold spaces and parentheses.
  const [state, , , session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // A zombie (Z) has ended: its parent has not read its status yet.
  return { ended: state === "Z" || state === "X", session: Number(session) };
}

function groupAndDescendants(leader: number): number[] {
  let text: string;
  try {
    text = execFileSync("ps", ["-A", "-o", "pid=,ppid=,pgid=,stat="], { encoding: "utf8" });
  } catch {
    return [];
  }
  const rows = text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((row) => row.length >= 4 && !row[3]!.startsWith("Z"))
    .map((row) => ({ pid: Number(row[0]), ppid: Number(row[1]), pgid: Number(row[2]) }));
  const members = new Set(rows.filter((row) => row.pgid === leader).map((row) => row.pid));
  // A Set iterates over what is added while it iterates: each child found is walked in turn.
  for (const member of members) for (const row of rows) if (row.ppid === member) members.add(row.pid);
  return [...members];
}

/** What {@link endSession} did. */
export interface EndedSession {
  /** Every process signalled. */
  pids: number[];
  /** Those still running after the grace, ended with SIGKILL. */
  killed: number[];
}

/**
 * Ends every process of session `sid` but `except` (a leader ending its own session): SIGTERM to
 * all (the Pulumi CLI cancels on it, and its plugins exit, so it stops waiting for their requests),
 * then SIGKILL to whatever still runs after `graceMs`. Resolves once none of them is left.
 */
export async function endSession(sid: number, graceMs: number, except?: number): Promise<EndedSession> {
  const signalled = new Set<number>();
  // Those signalled stay watched: a plugin re-parented when its CLI died may leave the list above (not the session).
  const running = () => [...new Set([...sessionMembers(sid), ...signalled])].filter((pid) => pid !== except && alive(pid));
  const signal = (pids: number[], name: NodeJS.Signals) => {
    for (const pid of pids) {
      signalled.add(pid);
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    }
  };
  const deadline = Date.now() + graceMs;
  let left = running();
  while (left.length > 0 && Date.now() < deadline) {
    // New ones too (a plugin the CLI was starting).
    signal(
      left.filter((pid) => !signalled.has(pid)),
      "SIGTERM",
    );
    await sleep(100);
    left = running();
  }
  const killed = left;
  signal(killed, "SIGKILL");
  for (const until = Date.now() + 2000; running().length > 0 && Date.now() < until;) await sleep(50);
  return { pids: [...signalled], killed };
}

/** Whether a process runs (a zombie does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
  return process.platform !== "linux" || procStat(pid)?.ended === false;
}
