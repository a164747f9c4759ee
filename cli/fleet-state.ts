/**
 * What a stack's state holds, read with one `pulumi stack export` (never a refresh, and without
 * `--show-secrets`: secret values stay ciphertext and are never in this process), for the tools
 * that look at a whole fleet without touching the forge per stack (`forge-drift --unmanaged`,
 * `forge-adopt --stacks-file`).
 *
 * - {@link exportStack}: one stack → the resources of its state (any type) and its pending creates.
 * - {@link readStackState}: one stack → its forge resources and whether that is all it may hold.
 * - {@link readFleetStates}: a fleet → each stack's reading, a few at a time, in the order given.
 *
 * Reading a state needs no lock and takes none: a run under way keeps its lock and writes on. What
 * such a run is making may not be in the state yet, so a stack whose lock is held when it is read
 * is `partial`: what its state shows is held, and anything else may be. A caller that lists the
 * forge before it reads the states sees an object a run made before the listing in the state read
 * after it, unless the run is still going (and then its lock says so).
 */
import type { HeldResource } from "../provider/adopt/inventory";
import { inTurns } from "../provider/engine/in-turns";
import { normalizeBaseUrl } from "../provider/client";
import { parseTypeToken } from "../provider/type-tokens";
import { forgeUrlOf, projectNameOf, stackLabels, type FleetStack } from "./fleet";
import { backendUrlOf, describeLock, readStackLock } from "./stack-lock";
import { exportDeployment } from "./stack-export";

/** A resource of a state, as `pulumi stack export` writes it (the fields read here). */
export interface StateResource {
  urn: string;
  /** Its type token (`forge:index:GroupLabel`, `pulumi-nodejs:dynamic/forge:GroupLabel`, `pulumi:pulumi:Stack`). */
  type: string;
  /** Its id: for a forge resource, the import id of the object it holds. Empty for a component. */
  id: string;
  custom: boolean;
  /** Its inputs and outputs as the state records them: a secret is `{ "4dabf18193072939515e22adb298388d": ..., ciphertext }`, never its value. */
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** One stack's export. */
export interface ExportedStack {
  resources: StateResource[];
  /** Resources a killed run began to create and never recorded (`pending_operations` of type `creating`), by type. */
  pendingCreates: string[];
}

export interface ExportOptions {
  /** The export is ended after this long (default 2 minutes). */
  timeoutMs?: number;
  /** The environment of the CLI (backend, credentials); default this process's. */
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_EXPORT_TIMEOUT_MS = 120_000;

/** `pulumi stack export` of one stack, in its project's directory (cli/stack-export.ts). Throws with the CLI's own lines (a backend URL's password masked), or when it does not answer in time. */
export async function exportStack(target: FleetStack, options: ExportOptions = {}): Promise<ExportedStack> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const deployment = await exportDeployment({
    stack: target.stack,
    workDir: target.workDir,
    env: options.env ?? process.env,
    signal,
  }).catch((error: unknown) => {
    throw signal.aborted ? new Error(`no answer in ${Math.round(timeoutMs / 1000)} s`) : error;
  });
  const resources = (deployment.resources ?? []).flatMap((resource) =>
    typeof resource.urn === "string" && typeof resource.type === "string"
      ? [
          {
            urn: resource.urn,
            type: resource.type,
            id: typeof resource.id === "string" ? resource.id : "",
            custom: resource.custom === true,
            inputs: resource.inputs ?? {},
            outputs: resource.outputs ?? {},
          },
        ]
      : [],
  );
  const pendingCreates = (deployment.pending_operations ?? [])
    .filter((operation) => operation.type === "creating")
    .map((operation) => operation.resource?.type ?? "");
  return { resources, pendingCreates };
}

/**
 * What one stack holds of the forge. `read`: its forge resources are `resources`. `partial`: it
 * holds `resources` and may hold more (a run held its lock when it was read, or a killed run left
 * creates pending). `unread`: its state could not be read (`message` says why): it may hold
 * anything.
 */
export interface StackHoldings {
  status: "read" | "partial" | "unread";
  resources: HeldResource[];
  message?: string;
}

/** Reads what one stack holds of the forge: its lock first (a run that starts after the lock is read is making what an earlier listing did not show), then its export. */
export async function readStackState(target: FleetStack, options: ExportOptions = {}): Promise<StackHoldings> {
  const env = options.env ?? process.env;
  const lock = await lockOf(target, env);
  let exported: ExportedStack;
  try {
    exported = await exportStack(target, options);
  } catch (error) {
    return {
      status: "unread",
      resources: [],
      message: `its state could not be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const forge = (type: string) => parseTypeToken(type) !== undefined;
  const resources = exported.resources
    .filter((resource) => resource.custom && resource.id !== "" && forge(resource.type))
    .map(({ type, id, urn }) => ({ type, id, urn }));
  const pending = exported.pendingCreates.filter(forge).length;
  if (lock)
    return {
      status: "partial",
      resources,
      message: `a run holds its lock, and may be making objects its state does not show yet: ${lock}`,
    };
  if (pending > 0)
    return {
      status: "partial",
      resources,
      message: `a killed run left ${pending} create${pending === 1 ? "" : "s"} pending (forge-recover decides them): what they made may be this stack's`,
    };
  return { status: "read", resources };
}

/** One stack of the fleet, as read. */
export interface StackState {
  stack: string;
  workDir: string;
  /** How reports name it: `<project>/<stack>`, with its directory where two would read the same. */
  label: string;
  /** As {@link StackHoldings}, or `elsewhere`: it talks to another forge, so it holds nothing of this one (not read). */
  status: StackHoldings["status"] | "elsewhere";
  resources: HeldResource[];
  /** Why it is partial, unread or elsewhere. */
  message?: string;
  durationMs: number;
}

/** Reads every stack of the fleet that may talk to `forgeUrl` (a stack configured for another forge is `elsewhere`, not read), `concurrency` at once (default 4), in the order given. */
export async function readFleetStates(
  stacks: readonly FleetStack[],
  forgeUrl: string,
  options: ExportOptions & { concurrency?: number } = {},
): Promise<StackState[]> {
  const env = options.env ?? process.env;
  const labels = stackLabels(stacks.map((target) => ({ ...target, project: projectNameOf(target.workDir) })));
  const forge = sameForge(forgeUrl);
  return inTurns(stacks, options.concurrency ?? 4, async (target, index) => {
    const started = Date.now();
    const url = forgeUrlOf(target, env);
    const holdings: StackHoldings | { status: "elsewhere"; resources: HeldResource[]; message: string } =
      url !== undefined && !forge(url)
        ? { status: "elsewhere", resources: [], message: `talks to the forge ${url}: holds nothing of ${forgeUrl}` }
        : await readStackState(target, options);
    return { stack: target.stack, workDir: target.workDir, label: labels[index]!, ...holdings, durationMs: Date.now() - started };
  });
}

/** Whether a stack's forge URL is the forge's (the same after normalisation). */
function sameForge(forgeUrl: string): (url: string) => boolean {
  const normal = (url: string) => {
    try {
      return normalizeBaseUrl(url).replace(/\/+$/, "").toLowerCase();
    } catch {
      return url;
    }
  };
  const wanted = normal(forgeUrl);
  return (url) => normal(url) === wanted;
}

/** Who holds the stack's lock, or undefined when nobody does or it cannot be read here (a backend this tool does not read). */
async function lockOf(target: FleetStack, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const backend = backendUrlOf(target.workDir, env);
  const parts = target.stack.split("/");
  // `org/project/stack` names its project; else the project file's.
  const project = parts.length === 3 ? parts[1] : projectNameOf(target.workDir);
  if (!backend.url || !project) return undefined;
  try {
    const status = await readStackLock({ backendUrl: backend.url, project, stack: parts[parts.length - 1]!, env, workDir: target.workDir });
    return status.state === "held" ? describeLock(target.stack, status.holders).split("\n")[0] : undefined;
  } catch {
    return undefined;
  }
}
