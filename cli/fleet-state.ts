/**
 * What each stack of a fleet holds on one forge, for the tools that look at a whole fleet without
 * touching the forge per stack (`forge-drift --unmanaged`, `forge-adopt --stacks-file`): one
 * `pulumi stack export` per stack (never a refresh, and without `--show-secrets`: secret values
 * stay ciphertext and never reach this process), read by the one holdings model
 * (provider/holdings): every object each resource holds, on its own forge.
 *
 * - {@link readStackState}: one stack → its holdings, its lock, and whether that is all it may hold.
 * - {@link readFleetStates}: a fleet → what each stack holds on the forge listed, what it may
 *   hold there, a few stacks at a time, in the order given.
 *
 * Reading a state needs no lock and takes none: a run under way keeps its lock and writes on. What
 * such a run is making may not be in the state yet, so a stack whose lock is held when it is read
 * is `partial`: what its state shows is held, and anything else may be. A caller that lists the
 * forge before it reads the states sees an object a run made before the listing in the state read
 * after it, unless the run is still going (and then its lock says so).
 */
import type { HeldResource } from "../provider/adopt/inventory";
import { inTurns } from "../provider/engine/in-turns";
import { compareForges, type ForgeMatch } from "../provider/holdings/forge-address";
import { holdingsOf, type HeldObject, type Holding, type StackHoldings } from "../provider/holdings/holdings";
import { pluginToken } from "../provider/type-tokens";
import { projectNameOf, stackLabels, type FleetStack } from "./fleet";
import { backendUrlOf, describeLock, readStackLock } from "./stack-lock";
import { exportDeployment } from "./stack-export";

export interface ExportOptions {
  /** The export is ended after this long (default 2 minutes). */
  timeoutMs?: number;
  /** The environment of the CLI (backend, credentials); default this process's. */
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_EXPORT_TIMEOUT_MS = 120_000;

/**
 * What one stack's state holds. `read`: its holdings are all it holds. `partial`: it holds what
 * they show and may hold more (a run held its lock when it was read, or a killed run left
 * operations pending: `message` says which). `unread`: its state could not be read (`message`
 * says why): it may hold anything.
 */
export interface StackReading {
  status: "read" | "partial" | "unread";
  holdings?: StackHoldings;
  message?: string;
}

/** Reads one stack: its lock first (a run that starts after the lock is read is making what an earlier listing did not show), then its export. */
export async function readStackState(target: FleetStack, options: ExportOptions = {}): Promise<StackReading> {
  const env = options.env ?? process.env;
  const lock = await lockOf(target, env);
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let holdings: StackHoldings;
  try {
    holdings = holdingsOf(await exportDeployment({ stack: target.stack, workDir: target.workDir, env, signal }));
  } catch (error) {
    const why = signal.aborted ? `no answer in ${Math.round(timeoutMs / 1000)} s` : error instanceof Error ? error.message : String(error);
    return { status: "unread", message: `its state could not be read: ${why}` };
  }
  if (lock) return { status: "partial", holdings, message: lock };
  if (holdings.notInFull.length > 0) {
    const count = holdings.notInFull.length;
    return {
      status: "partial",
      holdings,
      message: `${count === 1 ? "an operation" : `${count} operations`} left pending by a killed run (forge-recover says what each made): ${holdings.notInFull.join("; ")}`,
    };
  }
  return { status: "read", holdings };
}

/** One stack of the fleet, as read, against the forge listed. */
export interface StackState {
  stack: string;
  workDir: string;
  /** How reports name it: `<project>/<stack>`, with its directory where two would read the same. */
  label: string;
  /** As {@link StackReading}, or `elsewhere`: read, and every resource it has talks to another forge. */
  status: StackReading["status"] | "elsewhere";
  /** The objects its resources hold on the forge listed. */
  resources: HeldResource[];
  /** Objects it may hold on the forge listed, and why: a resource whose forge may be this one, a pending import. */
  possibly: (HeldResource & { why: string })[];
  /** How many of its resources are on another forge, and which forges. */
  elsewhere: { count: number; forges: string[] };
  /** Why it is partial, unread or elsewhere. */
  message?: string;
  durationMs: number;
}

/** Reads every stack of the fleet (`concurrency` at once, default 4, in the order given) and sorts what each holds by forge: the one listed, another, or possibly the one listed. */
export async function readFleetStates(
  stacks: readonly FleetStack[],
  forgeUrl: string,
  options: ExportOptions & { concurrency?: number } = {},
): Promise<StackState[]> {
  const labels = stackLabels(stacks.map((target) => ({ ...target, project: projectNameOf(target.workDir) })));
  return inTurns(stacks, options.concurrency ?? 4, async (target, index) => {
    const started = Date.now();
    const reading = await readStackState(target, options);
    const sorted = reading.holdings
      ? await onForge(reading.holdings, forgeUrl)
      : { held: [], possibly: [], elsewhere: new Map<string, number>() };
    const elsewhere = {
      count: [...sorted.elsewhere.values()].reduce((sum, count) => sum + count, 0),
      forges: [...sorted.elsewhere.keys()].sort(),
    };
    const allElsewhere = reading.status === "read" && elsewhere.count > 0 && sorted.held.length === 0 && sorted.possibly.length === 0;
    const unsure = [...new Set(sorted.possibly.map((entry) => entry.why))];
    return {
      stack: target.stack,
      workDir: target.workDir,
      label: labels[index]!,
      status: allElsewhere ? "elsewhere" : reading.status,
      resources: sorted.held,
      possibly: sorted.possibly,
      elsewhere,
      ...(allElsewhere
        ? { message: `its resources talk to ${elsewhere.forges.join(", ")}: it holds nothing of ${forgeUrl}` }
        : reading.message !== undefined
          ? { message: reading.message }
          : unsure.length > 0
            ? {
                message: `it may hold ${sorted.possibly.length === 1 ? "an object" : `${sorted.possibly.length} objects`} of this forge: ${unsure.join("; ")}`,
              }
            : {}),
      durationMs: Date.now() - started,
    };
  });
}

/**
 * What a stack's holdings hold on the forge at `forgeUrl`: the objects of resources on it; those
 * of resources that may be on it (an unknown forge, or a name that shares an address) and of
 * pending imports, updates and deletes, as possibly held; and how many resources are elsewhere.
 * A resource read with `get` holds nothing anywhere.
 */
export async function onForge(
  holdings: StackHoldings,
  forgeUrl: string,
): Promise<{ held: HeldResource[]; possibly: (HeldResource & { why: string })[]; elsewhere: Map<string, number> }> {
  const matches = new Map<string, Promise<ForgeMatch>>();
  const match = (url: string) => {
    let found = matches.get(url);
    if (!found) matches.set(url, (found = compareForges(url, forgeUrl)));
    return found;
  };
  const held: HeldResource[] = [];
  const possibly: (HeldResource & { why: string })[] = [];
  const elsewhere = new Map<string, number>();
  const entry = (object: HeldObject, urn: string): HeldResource => ({
    type: pluginToken(object.kind),
    kind: object.kind,
    id: object.importId,
    urn,
  });
  const sort = async (subject: Pick<Holding, "forge" | "urn" | "objects">, pendingWhy?: string) => {
    const forge = subject.forge;
    const standing = forge.url === undefined ? "unknown" : await match(forge.url);
    if (standing === "different" && forge.url !== undefined) {
      elsewhere.set(forge.url, (elsewhere.get(forge.url) ?? 0) + 1);
      return;
    }
    for (const object of subject.objects) {
      if (standing === "same" && pendingWhy === undefined) held.push(entry(object, subject.urn));
      else
        possibly.push({
          ...entry(object, subject.urn),
          why:
            pendingWhy ??
            (forge.url === undefined ? forge.why : `its forge ${forge.url} may be ${forgeUrl} under another name (they share an address)`),
        });
    }
  };
  for (const resource of holdings.resources) if (resource.role === "manages") await sort(resource);
  for (const operation of holdings.pending) await sort(operation, `a killed run left it ${operation.type} (forge-recover decides it)`);
  return { held, possibly, elsewhere };
}

/**
 * Why the stack may hold more than its state shows because of its lock: a run holds it, or it
 * could not be read (a database that does not answer, the `pg` package missing), and then a run
 * may be under way. Undefined when nobody holds it, or where the backend keeps its locks out of
 * this tool's reach (Pulumi Cloud, object stores: what their runs make is in the state as they go).
 */
async function lockOf(target: FleetStack, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const backend = backendUrlOf(target.workDir, env);
  const parts = target.stack.split("/");
  // `org/project/stack` names its project; else the project file's.
  const project = parts.length === 3 ? parts[1] : projectNameOf(target.workDir);
  if (!backend.url || !project) return undefined;
  try {
    const status = await readStackLock({ backendUrl: backend.url, project, stack: parts[parts.length - 1]!, env, workDir: target.workDir });
    return status.state === "held"
      ? `a run holds its lock, and may be making objects its state does not show yet: ${describeLock(target.stack, status.holders).split("\n")[0]}`
      : undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return `its lock could not be read (${why}): a run may be making objects its state does not show yet`;
  }
}
