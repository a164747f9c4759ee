/**
 * The tools that read or change a stack (forge-recover, forge-drift) ask first whether a run holds
 * its lock: a deploy in progress has pending creates and updates in flight that are not theirs to
 * judge. stack-lock.ts reads the lock where the backend keeps it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Workspace } from "@pulumi/pulumi/automation";
import { parse as parseYaml } from "yaml";
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
export async function stackLockStatus(
  workDir: string,
  stackName: string,
  envVars?: Record<string, string>,
  given?: Workspace,
): Promise<LockStatus> {
  const env = { ...process.env, ...envVars };
  // The CLI only where the project's files cannot tell: each start of it costs about a second,
  // which a fleet of hundreds of stacks pays per stack.
  let workspace: Promise<Workspace> | undefined = given && Promise.resolve(given);
  const cli = () => (workspace ??= automation().LocalWorkspace.create({ workDir, ...(envVars ? { envVars } : {}) }));
  const chosen = backendUrlOf(workDir, env);
  const [url, project] = await Promise.all([
    chosen.url ??
      cli()
        .then((found) => found.whoAmI())
        .then((whoami) => whoami.url),
    projectNameIn(workDir) ??
      cli()
        .then((found) => found.projectSettings())
        .then((settings) => settings.name),
  ]);
  if (!url) return { state: "unknown", why: "the CLI did not say which backend it uses" };
  // `org/project/stack` or `stack`: the lock is kept under the project and the stack's own name.
  const parts = stackName.split("/");
  return readStackLock({
    backendUrl: url,
    project: parts.length === 3 ? parts[1]! : project,
    stack: parts[parts.length - 1]!,
    env,
    // A relative `file://./state` is the CLI's, relative to the project, not to this process.
    workDir,
  });
}

/** The project's name from its `Pulumi.yaml` (or `.yml`); undefined when no such file says it. */
function projectNameIn(workDir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    try {
      const name = (parseYaml(readFileSync(join(workDir, file), "utf8")) as { name?: unknown } | null)?.name;
      if (typeof name === "string" && name !== "") return name;
    } catch {
      // not there, or not YAML: the next file, then the CLI
    }
  }
  return undefined;
}

function warn(why: string): void {
  process.stderr.write(`warning: the stack's lock was not checked: ${why}\n`);
}
