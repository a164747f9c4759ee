/**
 * `forge-recover`: after a run that was killed (a pipeline cancelled, a runner lost), the state
 * holds pending creates: objects the engine asked for and never heard back about. Pulumi keeps
 * them until someone says what became of each. This command says it, under the ownership rule:
 * an object is taken as a pending create's only when the create can be proven to have made it.
 *
 * - Kinds with a unique identity (a label's name in its group, ...): the object of the pending
 *   inputs' identity that no resource of the stack holds is the pending create's: imported.
 * - Kinds nothing identifies (snippets, client keys, tokens, ...): objects that match the pending
 *   inputs, that no resource holds, and that the forge made at or after the create's claim
 *   (`__createdAfter`, stamped by check just before the create, less {@link CLOCK_MARGIN_MS}):
 *   as many as there are pending creates of those inputs are theirs. More, or a candidate without
 *   a creation time: the user decides (the candidates and the commands are printed).
 * - No candidate: the create never happened, and is cleared.
 * - A pending create whose resource is in the state too (`up` was run again before recovering,
 *   and made the object again): a proven candidate is an orphan of this stack, and is deleted.
 *
 * The decisions are written into the state (`pulumi stack export` / `import`, values still
 * encrypted), then `pulumi refresh` reads the imported objects through the provider.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { CLAIM_KEY } from "../provider/engine/check";
import type { State } from "../provider/engine/declaration";
import { configure, implementation } from "../provider/runtime";
import { plainState } from "./state";

const FORGE_TYPE = "pulumi-nodejs:dynamic/forge:";

/** How far the forge's clock may be behind the runner's when a claim is compared with a creation time. */
export const CLOCK_MARGIN_MS = 2_000;

/** A create a killed run left pending. */
export interface PendingCreate {
  urn: string;
  /** The declaration's name (`GroupLabel`). */
  type: string;
  /** The inputs the create was sent with (secrets in plain, never printed). */
  inputs: State;
  /** Whether the stack also holds a resource of this URN (made by a later run). */
  inState: boolean;
}

/** An object on the forge a pending create may have made. */
export interface Candidate {
  id: string;
  createdAt?: string;
}

/** What happens to each pending create. */
export interface RecoveryPlan {
  imports: { urn: string; id: string }[];
  clears: string[];
  /** Objects of this stack made twice: deleted (type, id, the inputs for the delete). */
  orphans: { type: string; id: string; inputs: State }[];
  /** Left to the user: the pending creates and their candidates. */
  undecided: { urns: string[]; type: string; candidates: Candidate[]; why: string }[];
}

/**
 * Decides a group of pending creates of one type and the same inputs (interchangeable), from the
 * forge's candidates. Pure, for tests.
 */
export function decide(group: PendingCreate[], rule: "identity" | "newer" | "none", candidates: Candidate[], claimed: ReadonlySet<string>, plan: RecoveryPlan): void {
  const type = group[0]!.type;
  const unclaimed = candidates.filter((candidate) => !claimed.has(`${type} ${candidate.id}`));
  const urns = group.map((pending) => pending.urn);
  if (rule === "none") {
    plan.undecided.push({ urns, type, candidates: unclaimed, why: `${type} has no way to tell its objects apart` });
    return;
  }
  let proven = unclaimed;
  if (rule === "newer") {
    const claims = group.map((pending) => Date.parse(String(pending.inputs[CLAIM_KEY] ?? ""))).filter(Number.isFinite);
    if (claims.length < group.length || unclaimed.some((candidate) => candidate.createdAt === undefined)) {
      if (unclaimed.length === 0) {
        plan.clears.push(...urns);
        return;
      }
      plan.undecided.push({ urns, type, candidates: unclaimed, why: "the forge gives no creation time (or the state no claim) to prove which objects these creates made" });
      return;
    }
    const since = Math.min(...claims) - CLOCK_MARGIN_MS;
    proven = unclaimed.filter((candidate) => Date.parse(candidate.createdAt!) >= since);
  }
  const needImport = group.filter((pending) => !pending.inState);
  const alreadyMade = group.filter((pending) => pending.inState);
  if (proven.length <= needImport.length) {
    needImport.forEach((pending, index) => (index < proven.length ? plan.imports.push({ urn: pending.urn, id: proven[index]!.id }) : plan.clears.push(pending.urn)));
    plan.clears.push(...alreadyMade.map((pending) => pending.urn));
    return;
  }
  if (proven.length - needImport.length <= alreadyMade.length) {
    needImport.forEach((pending, index) => plan.imports.push({ urn: pending.urn, id: proven[index]!.id }));
    for (const orphan of proven.slice(needImport.length)) plan.orphans.push({ type, id: orphan.id, inputs: group[0]!.inputs });
    plan.clears.push(...alreadyMade.map((pending) => pending.urn));
    return;
  }
  plan.undecided.push({ urns, type, candidates: proven, why: `${proven.length} objects could be these ${group.length} creates' (something else made objects of the kind meanwhile)` });
}

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `usage: forge-recover [--stack <name>] [--cwd <project dir>] [--dry-run]

After a run that was killed, finds what each pending create of the stack made on the forge and
resolves it with pulumi refresh: imports an object proven to be the create's, clears a create that
never happened, deletes an object this stack made twice; lists what it cannot prove, with the
commands to decide. Run it before pulumi up (it does nothing when nothing is pending).
Exit status: 0 resolved or nothing pending, 1 error, 2 left to decide.`;

/** The `forge-recover` command: returns its exit status. */
export async function runRecoverCli(argv: readonly string[], io: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) }): Promise<number> {
  let values: { stack?: string; cwd?: string; "dry-run"?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { stack: { type: "string", short: "s" }, cwd: { type: "string", short: "C" }, "dry-run": { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    io.err(`forge-recover: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 1;
  }
  if (values.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  try {
    return await recover({ workDir: values.cwd ?? process.cwd(), stackName: values.stack, dryRun: values["dry-run"] === true }, io);
  } catch (error) {
    io.err(`forge-recover: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function recover(options: { workDir: string; stackName: string | undefined; dryRun: boolean }, io: Io): Promise<number> {
  const workspace = await LocalWorkspace.create({ workDir: options.workDir });
  const stackName = options.stackName ?? process.env["PULUMI_STACK"] ?? (await workspace.stack())?.name;
  if (!stackName) throw new Error(`no stack selected in ${options.workDir}: pass --stack <name> or set PULUMI_STACK`);
  const stack = await LocalWorkspace.selectStack({ stackName, workDir: options.workDir });
  // Secrets arrive in plain (the export runs with --show-secrets): they stay in this process.
  const deployment = plainState((await stack.exportStack()).deployment) as {
    resources?: { urn: string; type: string; id?: string }[];
    pending_operations?: { type: string; resource: { urn: string; type: string; inputs?: State } }[];
  };
  const resources = deployment.resources ?? [];
  const inState = new Set(resources.map((resource) => resource.urn));
  const pending: PendingCreate[] = (deployment.pending_operations ?? [])
    .filter((op) => op.type === "creating" && op.resource.type.startsWith(FORGE_TYPE))
    .map((op) => ({ urn: op.resource.urn, type: op.resource.type.slice(FORGE_TYPE.length), inputs: op.resource.inputs ?? {}, inState: inState.has(op.resource.urn) }));
  if (pending.length === 0) {
    io.out(`No pending creates in stack ${stackName}: nothing to recover.\n`);
    return 0;
  }
  io.out(`Stack ${stackName}: ${pending.length} pending create${pending.length === 1 ? "" : "s"} left by an interrupted run.\n`);
  const config = await stack.getAllConfig();
  await configure({ get: (key: string) => config[key]?.value } as never);
  const claimed = new Set(resources.filter((resource) => resource.type.startsWith(FORGE_TYPE) && resource.id).map((resource) => `${resource.type.slice(FORGE_TYPE.length)} ${resource.id}`));

  const groups = new Map<string, PendingCreate[]>();
  for (const create of pending) {
    const key = `${create.type} ${JSON.stringify(sorted(withoutEngineKeys(create.inputs)))}`;
    groups.set(key, [...(groups.get(key) ?? []), create]);
  }
  const plan: RecoveryPlan = { imports: [], clears: [], orphans: [], undecided: [] };
  for (const group of groups.values()) {
    const { rule, candidates } = await implementation(group[0]!.type).pendingCreateCandidates(group[0]!.inputs);
    decide(group, rule, candidates, claimed, plan);
  }

  for (const { urn, id } of plan.imports) io.out(`  import  ${nameOf(urn)}: ${id} (made by the interrupted create)\n`);
  for (const urn of plan.clears) io.out(`  clear   ${nameOf(urn)}: the create made nothing that is not already in the stack\n`);
  for (const orphan of plan.orphans) io.out(`  delete  ${orphan.type} ${orphan.id}: made twice by this stack (the interrupted create and a later run)\n`);
  for (const item of plan.undecided) {
    io.out(`  decide  ${item.urns.map(nameOf).join(", ")}: ${item.why}; candidates: ${item.candidates.map((candidate) => candidate.id).join(", ") || "none"}\n`);
  }
  if (options.dryRun) {
    io.out("Dry run: nothing changed.\n");
    return plan.undecided.length > 0 ? 2 : 0;
  }
  for (const orphan of plan.orphans) await implementation(orphan.type).delete(orphan.id, orphan.inputs);
  await applyToState(stackName, options.workDir, plan, io);
  if (plan.undecided.length > 0) {
    io.out(
      "Left to decide, for each create above: find which object is the resource's, and either delete the\n" +
        "others by hand and run forge-recover again (the one left is then proven), or clear the pending\n" +
        "creates (pulumi refresh --clear-pending-creates) and adopt the object with the resource option\n" +
        "{ import: \"<id>\" }.\n",
    );
    return 2;
  }
  io.out(`Recovered: the stack holds no pending create. Run pulumi up.\n`);
  return 0;
}

/**
 * Writes the decisions into the stack's state: an imported create becomes a resource with the
 * object's id (its stored inputs, still encrypted, as outputs until the refresh reads it), a
 * cleared one is dropped from the pending operations, an undecided one stays. Then `pulumi
 * refresh` reads every imported object through the provider. (Pulumi's own
 * `refresh --import-pending-creates` drops the resources it should import in 3.259.)
 */
async function applyToState(stackName: string, workDir: string, plan: RecoveryPlan, io: Io): Promise<void> {
  const pulumi = (...args: string[]) => promisify(execFile)("pulumi", [...args, "--stack", stackName, "--non-interactive"], { cwd: workDir, maxBuffer: 256 * 1024 * 1024 });
  if (plan.imports.length === 0 && plan.clears.length === 0) return;
  const exported = JSON.parse((await pulumi("stack", "export")).stdout) as {
    deployment: { resources?: Record<string, unknown>[]; pending_operations?: { type: string; resource: Record<string, unknown> & { urn: string } }[] };
  };
  const deployment = exported.deployment;
  const imports = new Map(plan.imports.map(({ urn, id }) => [urn, id]));
  const clears = new Set(plan.clears);
  const kept: typeof deployment.pending_operations = [];
  for (const op of deployment.pending_operations ?? []) {
    const id = op.type === "creating" ? imports.get(op.resource.urn) : undefined;
    if (id !== undefined) {
      (deployment.resources ??= []).push({ ...op.resource, id, outputs: op.resource["inputs"] ?? {} });
    } else if (!(op.type === "creating" && clears.has(op.resource.urn))) {
      kept.push(op);
    }
  }
  deployment.pending_operations = kept;
  const file = join(mkdtempSync(join(tmpdir(), "forge-recover-")), "state.json");
  writeFileSync(file, JSON.stringify(exported), { mode: 0o600 });
  try {
    io.out("Writing the decisions into the stack's state (pulumi stack import) ...\n");
    await pulumi("stack", "import", "--file", file);
  } finally {
    rmSync(dirname(file), { recursive: true, force: true });
  }
  if (plan.imports.length > 0) {
    io.out("Reading the imported objects (pulumi refresh) ...\n");
    await pulumi("refresh", "--yes", "--skip-preview");
  }
}

function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function withoutEngineKeys(inputs: State): State {
  return Object.fromEntries(Object.entries(inputs).filter(([key]) => !key.startsWith("__")));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as State)[key])]));
}
