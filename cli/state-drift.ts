/**
 * Drift of a stack from its exported state, checked in this process: each forge resource is read
 * with the engine's own read and compared with the engine's own comparison, the code a provider's
 * read and diff run, so the answer is what `pulumi refresh --preview-only` finds (cli/drift.ts)
 * without a CLI, a language host and a plugin per stack. As a refresh does, each resource is read
 * with the connection its provider recorded in the state (the stack's config at its last `up`),
 * not with today's config.
 *
 * Stacks share reads: one engine per resource type and connection ({@link SharedReads}), so the
 * stacks checked at about the same time under one parent (a group's labels) read its listing a
 * page at a time instead of one GET each (provider/engine/shared-listings.ts).
 *
 * A state this cannot judge as the engine would (a resource of another provider, which only its
 * own plugin reads; pending operations; a resource pending deletion) is left to the refresh.
 */
import type { ForgeClient } from "../provider/client";
import { clientsOf } from "../provider/holdings/connection";
import { holdingsOf, type StackHoldings } from "../provider/holdings/holdings";
import type { ResourceOperations } from "../provider/engine/operations";
import { engineState, IMPORTED_KEY } from "../provider/engine/bookkeeping";
import { operationsOver } from "../provider/composition-root";
import { parseTypeToken } from "../provider/type-tokens";
import {
  alsoChangedFields,
  ignoringChanges,
  programValues,
  shownField,
  stateResources,
  type DriftedResource,
  type StateResource,
} from "./drift";
import type { ExportedDeployment } from "../provider/holdings/holdings";

/** Reads of one stack's resources at once (a refresh's engine reads several at a time too). */
const READS_PER_STACK = 8;

/** Stacks whose reads wait for each other at most (a read of a listing page serves them all). */
const BATCH_STACKS = 100;
/** The longest a stack's reads wait for the stacks exported after it. */
const BATCH_WAIT_MS = 60_000;

/**
 * The engines that read the fleet's objects, one per resource type and connection, shared by
 * every stack; and the turns of the stacks' reads. A listing page serves only the reads that start
 * while it is fresh (a few seconds), and a fleet exports its stacks one after another, so each
 * stack's reads wait for those of the stacks exported after it: they start together, when
 * {@link BATCH_STACKS} are waiting, the first has waited `waitMs`, or every state is read. A
 * stack found drifted is read again afterwards (cli/fleet-exports.ts), so a deploy during the wait
 * is not taken for drift.
 */
export class SharedReads {
  private readonly engines = new Map<ForgeClient, Map<string, ResourceOperations>>();
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private exportsDone = false;

  private readonly waitMs: number;

  /** `stackTimeoutMs`: a stack's bound (forge-drift --timeout), of which a quarter at most is spent waiting. */
  constructor(stackTimeoutMs = Infinity) {
    this.waitMs = Math.min(BATCH_WAIT_MS, stackTimeoutMs / 4);
  }

  /** Resolves when this stack's reads may start, with those of the stacks exported about the same time. */
  turn(): Promise<void> {
    return new Promise((go) => {
      this.waiting.push(go);
      if (this.exportsDone || this.waiting.length >= BATCH_STACKS) this.release();
      else this.timer ??= setTimeout(() => this.release(), this.waitMs);
    });
  }

  /** Every stack's state is read: the reads waiting start, and those after them start at once. */
  allExported(): void {
    this.exportsDone = true;
    this.release();
  }

  private release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** The engine of a type over a client (clients are one per connection: provider/client). */
  operations(typeName: string, client: ForgeClient): ResourceOperations {
    let byType = this.engines.get(client);
    if (!byType) this.engines.set(client, (byType = new Map()));
    let found = byType.get(typeName);
    // The reads' warnings (an object read as gone) are the refresh's log, not its report.
    if (!found) byType.set(typeName, (found = operationsOver(typeName, client, () => undefined)));
    return found;
  }
}

/** What a state's check found: the drifted resources, or why the state needs the engine's refresh. */
export type StateDrift = { drifted: DriftedResource[] } | { refresh: string };

/**
 * The drift of one stack's state (exported with its secrets, `--show-secrets`), sorted by name as
 * cli/drift.ts sorts it. `env`: the environment a refresh's plugins would see (FORGE_*).
 *
 * @throws Error when a read fails, or a provider's recorded connection is not usable (a refresh fails then too).
 */
export async function stateDrift(
  deployment: ExportedDeployment,
  reads: SharedReads,
  env: NodeJS.ProcessEnv = process.env,
  workDir?: string,
): Promise<StateDrift> {
  const holdings = holdingsOf(deployment);
  const refresh = refreshNeeded(deployment, holdings);
  if (refresh) return { refresh };
  const resources = stateResources(deployment);
  // Each resource on its own provider's connection and forge (provider/holdings); one read with `get` holds nothing to drift.
  const clientOf = clientsOf(env, workDir);
  const checked = holdings.resources.filter((holding) => holding.role === "manages");
  const drifted: DriftedResource[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < checked.length; index = next++) {
      const holding = checked[index]!;
      const found = await resourceDrift(resources.get(holding.urn)!, reads.operations(holding.kind, await clientOf(holding)));
      if (found) drifted.push(found);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_PER_STACK, checked.length) }, worker));
  drifted.sort((a, b) => a.name.localeCompare(b.name) || a.urn.localeCompare(b.urn));
  return { drifted };
}

/** Why only the engine's refresh can judge this state, or undefined when it can be checked here.
 *  Its pending operations are the holdings model's (every type, any provider's). */
export function refreshNeeded(deployment: ExportedDeployment, holdings: StackHoldings = holdingsOf(deployment)): string | undefined {
  const listed = deployment.resources ?? [];
  if (holdings.pending.length > 0) return "its state has pending operations";
  const other = listed.find(
    (resource) => resource.custom && !resource.type.startsWith("pulumi:providers:") && !parseTypeToken(resource.type),
  );
  if (other) return `its state holds ${other.type}, which only its own provider reads`;
  if (listed.some((resource) => resource.delete)) return "its state holds a resource pending deletion";
  return undefined;
}

/**
 * One resource's drift, as cli/drift.ts's refresh reports it: the fields the program set that the
 * forge holds otherwise (secrets masked, after the others), and the fields the program does not
 * set that changed with them, named only (secrets left out: a refresh's events show them masked on
 * both sides); a deletion when the read finds nothing.
 */
async function resourceDrift(resource: StateResource, operations: ResourceOperations): Promise<DriftedResource | undefined> {
  const base = { name: resource.urn.slice(resource.urn.lastIndexOf("::") + 2), type: resource.type, urn: resource.urn };
  const before = resource.outputs;
  // As each face's read gets it: the state's outputs, and on the plugin face the mark of an
  // import no program has matched yet, which lives in the state's inputs (provider/plugin/grpc-server.ts).
  const mark = parseTypeToken(resource.type)?.face === "plugin" ? resource.inputs[IMPORTED_KEY] : undefined;
  const read = await operations.read(resource.id, { ...engineState(before), ...(mark !== undefined ? { [IMPORTED_KEY]: mark } : {}) });
  if (!read.id) return { ...base, drift: "deleted", fields: [] };
  const set = programValues(resource.inputs, before);
  const after = ignoringChanges(read.props as Record<string, unknown>, set, resource.ignoreChanges);
  const changed = operations.changedInputs(after, set);
  // Secret fields count only where the program set them (its applied inputs), as the refresh's second look does.
  const plain = changed.filter((field) => !resource.secrets.has(field));
  const secret = changed.filter((field) => resource.managedSecrets.includes(field));
  if (plain.length === 0 && secret.length === 0) return undefined;
  const fields = [...plain, ...secret].map((field) => shownField(field, set, after, resource.secrets));
  const alsoChanged = plain.length > 0 ? alsoChangedFields(before, after, set, resource.secrets) : [];
  return { ...base, drift: "changed", fields, ...(alsoChanged.length > 0 ? { alsoChanged } : {}) };
}
