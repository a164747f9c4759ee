/**
 * The tools that read or change a stack (forge-recover, forge-drift) ask first whether a run holds
 * its lock: a deploy in progress has pending creates and updates in flight that are not theirs to
 * judge. stack-lock.ts reads the lock where the backend keeps it.
 */
import type { Workspace } from "@pulumi/pulumi/automation";
import { automation } from "./automation";
import { backendUrlOf, describeLock, readStackLock, type LockStatus } from "./stack-lock";

/** A run holds the stack's lock: nothing was read or changed. The message names the holder. */
export class StackLockedError extends Error {
  override name = "StackLockedError";
}

/**
 * Who holds the stack's lock, as a message for the user (with how to confirm that the holder is
 * dead before `pulumi cancel`), or undefined when nobody does. One whose locks cannot be read here
 * is reported to `onUnchecked` and taken as free.
 */
export async function lockedBy(
  workDir: string,
  stackName: string,
  envVars?: Record<string, string>,
  onUnchecked: (why: string) => void = warn,
  workspace?: Workspace,
): Promise<string | undefined> {
  const status = await stackLockStatus(workDir, stackName, envVars, workspace);
  if (status.state === "unknown") onUnchecked(status.why);
  return status.state === "held" ? describeLock(stackName, status.holders) : undefined;
}

/**
 * The stack's lock as the backend keeps it. The backend is the one the CLI uses for the project
 * (PULUMI_BACKEND_URL, the project's `backend.url`, the login), resolved without starting the CLI
 * (`backendUrlOf`); only when that cannot tell (an encrypted credential store) is `pulumi whoami`
 * asked. Throws when a backend it knows cannot be read. `workspace`: the caller's, of `workDir`.
 */
export async function stackLockStatus(workDir: string, stackName: string, envVars?: Record<string, string>, given?: Workspace): Promise<LockStatus> {
  const env = { ...process.env, ...envVars };
  const workspace = given ?? (await automation().LocalWorkspace.create({ workDir, ...(envVars ? { envVars } : {}) }));
  const chosen = backendUrlOf(workDir, env);
  const [url, project] = await Promise.all([chosen.url ?? workspace.whoAmI().then((whoami) => whoami.url), workspace.projectSettings()]);
  if (!url) return { state: "unknown", why: "the CLI did not say which backend it uses" };
  // `org/project/stack` or `stack`: the lock is kept under the project and the stack's own name.
  const parts = stackName.split("/");
  return readStackLock({
    backendUrl: url,
    project: parts.length === 3 ? parts[1]! : project.name,
    stack: parts[parts.length - 1]!,
    env,
    // A relative `file://./state` is the CLI's, relative to the project, not to this process.
    workDir,
  });
}

function warn(why: string): void {
  process.stderr.write(`warning: the stack's lock was not checked: ${why}\n`);
}
