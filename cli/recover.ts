/**
 * `forge-recover`: after a run that was killed (a pipeline cancelled, a runner lost), the state
 * holds pending creates: objects the engine asked for and never heard back about. Pulumi keeps
 * them until someone says what became of each. This command says what can be proven, and asks
 * the user for the rest; it never adopts, deletes or revokes on inference.
 *
 * - A pending create's candidates are the objects of its identity (a label's name in its group),
 *   or for kinds nothing identifies the objects matching its inputs. Disproved, and dropped: one
 *   a resource of the stack holds, one the forge records as made by another user, and one made
 *   before the create's claim (`__createdAfter`, stamped by check just before the create) by the
 *   forge's own clock (its `Date` header gives the offset to this machine's).
 * - No candidate left: the create made nothing that is there now; it is cleared (the next up
 *   makes the object).
 * - Candidates left: nothing proves the create made one (another pipeline, stack or person may
 *   have made it meanwhile). The user decides, by name: `--adopt <resource>=<import id>` takes
 *   an object into the stack, `--clear <resource>` drops the pending create; the report prints
 *   both commands with the candidates.
 * - A pending create whose resource a later `up` made again: cleared; candidates left are
 *   reported as possible second copies, never deleted.
 * - A pending delete or update (a destroy or an update killed while its request was in flight)
 *   is read, and reported with what it means: gone (the delete went through), the stack's own
 *   object, another object made since under the same name (none of the evidence the state kept
 *   is on it: engine/evidence.ts), or an object nothing tells from one made since, which is
 *   left to the user. `pulumi refresh` clears them; forge-recover writes nothing for them.
 * - The stack's lock is checked first: while a run holds it, nothing is read or written and the
 *   exit status is {@link EXIT_LOCKED}.
 *
 * The decisions are written into the state (`pulumi stack export` / `import`, values still
 * encrypted), then `pulumi refresh` reads the adopted objects through the provider.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { automation } from "./automation";
import { routes } from "../api/routes";
import { maskedIo } from "../provider/redaction";

import type { State } from "../provider/engine/declaration";
import type { PendingCandidate } from "../provider/engine/operations";
import type { Standing } from "../provider/engine/outcomes";
import { evidenceFields } from "../provider/engine/evidence";
import { operationsOver } from "../provider/composition-root";
import type { ForgeClient } from "../provider/client";
import type { ResourceOperations } from "../provider/engine/operations";
import { clientsOf } from "../provider/holdings/connection";
import {
  heldObjects,
  holdingsOf,
  nameOf,
  type ExportedDeployment,
  type Holding,
  type PendingOperation,
  type StackHoldings,
} from "../provider/holdings/holdings";
import { leftoverCredentials, revokeOnWord } from "./recover-rotation";
import { lockedBy } from "./lock-gate";
import { plainState } from "../provider/holdings/state-values";
import { printable, shellWord } from "../provider/adopt/escape";
import { CLAIM_KEY, engineState } from "../provider/engine/bookkeeping";

/** A word of a command we print for the user to paste: text from a state (resource names, stack names) is quoted for the shell. */
const shellArg = (text: string): string => shellWord(text) ?? printable(text);

/** Exit statuses: nothing left, an error, left to the user, the stack locked by a running operation. */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_UNDECIDED = 2;
export const EXIT_LOCKED = 3;

/** Slack on the claim when the forge's clock is compared with it: the `Date` header's whole
 *  seconds, and the time between the claim and the request. */
export const CLOCK_SLACK_MS = 2_000;

/** A create a killed run left pending. */
export interface PendingCreate {
  urn: string;
  /** The declaration's name (`GroupLabel`), whichever face the stack uses. */
  type: string;
  /** The inputs the create was sent with (secrets in plain, never printed). */
  inputs: State;
  /** Whether the stack also holds a resource of this URN (made by a later run). */
  inState: boolean;
}

/** A delete or an update a killed run left pending: the resource as the state holds it. */
export interface PendingChange {
  urn: string;
  kind: "delete" | "update";
  /** The declaration's name, whichever face the stack uses. */
  type: string;
  id: string;
  /** The state's outputs of the resource (its evidence among them; secrets in plain, never printed). */
  outputs: State;
}

/**
 * What a pending delete or update means, from what the forge holds under the resource's address
 * now (`standing`): the line forge-recover prints, and whether it is left to the user (nothing
 * tells whether the object there is the stack's). Pure, for tests.
 */
export function explainPendingChange(
  change: PendingChange,
  standing: Standing,
  evidence: readonly string[] = [],
): { text: string; undecided: boolean } {
  const name = nameOf(change.urn);
  const what = change.kind === "delete" ? "The delete" : "The update";
  const maybe = `${what} may have reached the forge or not.`;
  const object = `${change.type} ${change.id}`;
  switch (standing) {
    case "gone":
      return {
        text:
          change.kind === "delete"
            ? `${name}: ${object} is gone from the forge: the delete went through. \`pulumi refresh\` drops it from the state.`
            : `${name}: ${object} is gone from the forge (deleted since). \`pulumi refresh\` drops it from the state; the next up makes it again if the program declares it.`,
        undecided: false,
      };
    case "same":
      return {
        text:
          change.kind === "delete"
            ? `${name}: ${object} is still on the forge, and it is this stack's object: the delete did not happen. Run the destroy (or up) again.`
            : `${name}: ${object} is this stack's object. ${maybe} \`pulumi refresh\` reads what is there, and the next up repairs what differs.`,
        undecided: false,
      };
    case "another":
      return {
        text:
          `${name}: ${object} is another object now: none of what the state kept of the stack's (${evidence.join(", ") || "its evidence"}) is on it, ` +
          `so the stack's was deleted and someone made this one since. It is not this stack's: \`pulumi refresh\` drops the resource from the state ` +
          `and leaves the object alone, and the next up refuses it by name (import it if it is meant to be managed here).`,
        undecided: false,
      };
    case "setting":
      return {
        text:
          change.kind === "delete"
            ? `${name}: ${object} holds settings of an object that stays. ${maybe} Run the destroy again: it writes back what the stack found.`
            : `${name}: ${object} holds settings the program writes over by design. ${maybe} \`pulumi refresh\` reads them, and the next up writes the program's values.`,
        undecided: false,
      };
    case "unproven":
      return {
        text:
          `${name}: ${object} is on the forge, and nothing on it tells whether it is the stack's object or one made since under the same address` +
          `${change.kind === "delete" ? " (the delete may have gone through, and someone set it up again)" : ""}. Check it (who made it, when) before any run: ` +
          `if it is the stack's, \`pulumi refresh\` takes it as it is; if not, \`pulumi state delete ${shellArg(change.urn)}\` forgets it (the object stays), and the next up refuses it by name.`,
        undecided: true,
      };
  }
}

/** What happens to each pending create. */
export interface RecoveryPlan {
  /** Objects taken into the stack: only those the user named (`--adopt`). */
  adopts: { urn: string; id: string }[];
  clears: string[];
  /** Left to the user: the pending creates and their candidates. */
  undecided: { urns: string[]; type: string; candidates: PendingCandidate[]; why: string }[];
  /** Said, nothing done: objects that may be a second copy this stack made. */
  notes: string[];
}

/** How the forge's clock stands to this machine's: forge minus local, in milliseconds. */
export interface ForgeClock {
  offsetMs: number;
}

/**
 * Decides a group of pending creates of one type and the same inputs (interchangeable), from the
 * forge's candidates. Pure, for tests. Only disproof removes a candidate; no candidate is ever
 * taken as proven.
 */
export function decide(
  group: PendingCreate[],
  candidates: PendingCandidate[],
  claimed: ReadonlySet<string>,
  clock: ForgeClock,
  plan: RecoveryPlan,
): void {
  const type = group[0]!.type;
  const urns = group.map((pending) => pending.urn);
  const claims = group.map((pending) => Date.parse(String(pending.inputs[CLAIM_KEY] ?? ""))).filter(Number.isFinite);
  // The earliest moment, on the forge's clock, at which any of these creates could have been sent.
  const since = claims.length === group.length ? Math.min(...claims) + clock.offsetMs - CLOCK_SLACK_MS : undefined;
  const left = candidates.filter(
    (candidate) =>
      !claimed.has(`${type} ${candidate.id}`) &&
      !candidate.madeByOther &&
      !(since !== undefined && candidate.createdAt !== undefined && Date.parse(candidate.createdAt) < since),
  );
  if (left.length === 0) {
    plan.clears.push(...urns);
    return;
  }
  if (group.every((pending) => pending.inState)) {
    plan.clears.push(...urns);
    plan.notes.push(
      `${type} ${left.map((candidate) => candidate.id).join(", ")}: may be a second copy made by the interrupted create (a later run made the resource again); nothing was deleted: delete ${left.length === 1 ? "it" : "them"} by hand if nobody uses ${left.length === 1 ? "it" : "them"}`,
    );
    return;
  }
  plan.undecided.push({
    urns,
    type,
    candidates: left,
    why: `nothing proves that the interrupted create made ${left.length === 1 ? "it" : "any of them"} (another pipeline, stack or person may have made ${left.length === 1 ? "it" : "them"} meanwhile)`,
  });
}

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `usage: forge-recover [--stack <name>] [--cwd <project dir>] [--dry-run]
                     [--adopt <resource>=<import id>]... [--clear <resource>]...
                     [--revoke <resource>=<import id>]...

After a run that was killed, finds what each pending create of the stack may have made on the
forge. A create that made nothing is cleared; objects that may be its own are listed with their
import ids, and nothing is taken without your word: --adopt <resource>=<import id> takes one into
the stack, --clear <resource> drops the pending create (<resource> is the resource's name or URN).
A pending delete or update is read and reported: gone, the stack's object, or another object made
since under its name (pulumi refresh then clears it); one whose object nothing tells from one made
since is left to you. A rotating resource's killed or failed rotation may have made a credential
the stack does not hold (its value is lost with the answer): it is named, and --revoke
<resource>=<import id> revokes it on your word, once it is shown to be one a rotation of that
resource may have made. Nothing else is ever deleted or revoked. Each resource is read on its own
provider's forge. Run it before pulumi up (it does nothing when nothing is pending); it
changes nothing while a run holds the stack's lock.
Exit status: 0 resolved or nothing pending, 1 error, 2 left to decide, 3 the stack is locked.`;

/** The `forge-recover` command: returns its exit status. */
export async function runRecoverCli(
  argv: readonly string[],
  io: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
): Promise<number> {
  // Everything it prints goes out masked: a backend URL's password, the secrets of the state read.
  io = maskedIo(io);
  let values: { stack?: string; cwd?: string; "dry-run"?: boolean; help?: boolean; adopt?: string[]; clear?: string[]; revoke?: string[] };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stack: { type: "string", short: "s" },
        cwd: { type: "string", short: "C" },
        "dry-run": { type: "boolean" },
        adopt: { type: "string", multiple: true },
        clear: { type: "string", multiple: true },
        revoke: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    io.err(`forge-recover: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return EXIT_ERROR;
  }
  if (values.help) {
    io.out(`${USAGE}\n`);
    return EXIT_OK;
  }
  try {
    const pairs = (flag: string, entries: string[] = []) => {
      const found = new Map<string, string>();
      for (const entry of entries) {
        const at = entry.lastIndexOf("=");
        if (at <= 0 || at === entry.length - 1) throw new Error(`--${flag} takes <resource>=<import id>, not "${entry}"`);
        found.set(entry.slice(0, at), entry.slice(at + 1));
      }
      return found;
    };
    return await recover(
      {
        workDir: values.cwd ?? process.cwd(),
        stackName: values.stack,
        dryRun: values["dry-run"] === true,
        adopt: pairs("adopt", values.adopt),
        clear: new Set(values.clear ?? []),
        revoke: pairs("revoke", values.revoke),
      },
      io,
    );
  } catch (error) {
    io.err(`forge-recover: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_ERROR;
  }
}

interface RecoverOptions {
  workDir: string;
  stackName: string | undefined;
  dryRun: boolean;
  /** The user's decisions: a resource (name or URN) and the object to take into it. */
  adopt: ReadonlyMap<string, string>;
  /** The user's decisions: resources whose pending create is dropped. */
  clear: ReadonlySet<string>;
  /** The user's decisions: a rotating resource and a leftover credential of its to revoke. */
  revoke: ReadonlyMap<string, string>;
}

async function recover(options: RecoverOptions, io: Io): Promise<number> {
  const workspace = await automation().LocalWorkspace.create({ workDir: options.workDir });
  const stackName = options.stackName ?? process.env["PULUMI_STACK"] ?? (await workspace.stack())?.name;
  if (!stackName) throw new Error(`no stack selected in ${options.workDir}: pass --stack <name> or set PULUMI_STACK`);
  const lock = await lockedBy(options.workDir, stackName);
  if (lock) {
    io.err(`forge-recover: ${lock}\nNothing was read or changed.\n`);
    return EXIT_LOCKED;
  }
  const stack = await automation().LocalWorkspace.selectStack({ stackName, workDir: options.workDir });
  // Secrets arrive in plain (the export runs with --show-secrets): they stay in this process.
  // What the stack holds, on which forge, and what is pending: the one holdings model.
  const holdings = holdingsOf((await stack.exportStack()).deployment as ExportedDeployment);
  // Each resource is read on its own provider's connection: a stack may talk to two forges.
  const clientOf = clientsOf(process.env, options.workDir);
  const over = async (kind: string, subject: Pick<Holding, "name" | "forge" | "provider">) => operationsOver(kind, await clientOf(subject));
  const inState = new Set(holdings.resources.map((resource) => resource.urn));
  const pending: (PendingCreate & { operation: PendingOperation })[] = holdings.pending.flatMap((operation) =>
    operation.type === "creating" && operation.kind
      ? [
          {
            urn: operation.urn,
            type: operation.kind,
            inputs: plainState(operation.inputs) as State,
            inState: inState.has(operation.urn),
            operation,
          },
        ]
      : [],
  );
  const changes = pendingChanges(holdings);
  // What the stack's resources hold (a rotating resource's credentials too): never a candidate, never revoked.
  const claimed = new Set(heldObjects(holdings).map(({ object }) => `${object.kind} ${object.importId}`));
  const named = (urn: string, names: Iterable<string>) => [...names].find((name) => name === urn || name === nameOf(urn));
  for (const name of [...options.adopt.keys(), ...options.clear]) {
    if (!pending.some((create) => named(create.urn, [name])))
      throw new Error(`no pending create of a resource named "${name}" in stack ${stackName}`);
  }
  const revoked = await revokeAsSaid(holdings, options, claimed, clientOf, io);
  const leftovers = await killedRotations(holdings, claimed, clientOf, stackName, io);
  if (pending.length === 0 && changes.length === 0) {
    if (leftovers) return EXIT_UNDECIDED;
    if (revoked) return EXIT_OK;
    // A run killed under PULUMI_SKIP_CHECKPOINTS wrote no pending operation, so its orphans are invisible here.
    io.out(
      `No pending creates, updates or deletes in stack ${stackName}: nothing to recover.\n` +
        `(A run killed with PULUMI_SKIP_CHECKPOINTS=true leaves none to find, and the deletes it finished are in no state: see docs/engine-costs.md.)\n`,
    );
    return EXIT_OK;
  }
  const changesUndecided = (await reportPendingChanges(changes, stackName, over, io)) || leftovers;
  if (pending.length === 0) {
    if (changesUndecided) {
      io.out("Left to decide: check the objects above before any run. Nothing was written.\n");
      return EXIT_UNDECIDED;
    }
    io.out("Nothing written: `pulumi refresh` clears the pending operations, and reads each object as said above.\n");
    return EXIT_OK;
  }
  io.out(`Stack ${stackName}: ${pending.length} pending create${pending.length === 1 ? "" : "s"} left by an interrupted run.\n`);
  const plan: RecoveryPlan = { adopts: [], clears: [], undecided: [], notes: [] };
  // The user's word first: an object named with --adopt must exist and be held by no other resource.
  const decided = pending.filter((create) => named(create.urn, options.adopt.keys()) ?? named(create.urn, options.clear));
  for (const create of decided) {
    const adoptName = named(create.urn, options.adopt.keys());
    if (!adoptName) {
      plan.clears.push(create.urn);
      continue;
    }
    const id = options.adopt.get(adoptName)!;
    const read = await (await over(create.type, create.operation)).read(id, engineState(create.inputs));
    if (!read.id) throw new Error(`${create.type} ${id} does not exist on the forge: not adopted`);
    // Compared as the forge names it (the id read back), however the user wrote it.
    if (claimed.has(`${create.type} ${read.id}`))
      throw new Error(`${create.type} ${read.id} is held by another resource of stack ${stackName}: not adopted`);
    plan.adopts.push({ urn: create.urn, id: read.id });
    claimed.add(`${create.type} ${read.id}`);
  }
  const groups = new Map<string, (PendingCreate & { operation: PendingOperation })[]>();
  for (const create of pending.filter((candidate) => !decided.includes(candidate))) {
    const key = `${create.type} ${JSON.stringify(sorted(withoutEngineKeys(create.inputs)))}`;
    groups.set(key, [...(groups.get(key) ?? []), create]);
  }
  // The forge's clock against this machine's, read once per forge: the groups share it.
  const clocks = new Map<ForgeClient, Promise<ForgeClock>>();
  for (const group of groups.values()) {
    const client = await clientOf(group[0]!.operation);
    const { candidates } = await operationsOver(group[0]!.type, client).pendingCreateCandidates(engineState(group[0]!.inputs));
    if (!clocks.has(client)) clocks.set(client, forgeClock(client));
    decide(group, candidates, claimed, await clocks.get(client)!, plan);
  }

  for (const { urn, id } of plan.adopts) io.out(`  adopt   ${nameOf(urn)}: ${id} (as you said)\n`);
  for (const urn of plan.clears) io.out(`  clear   ${nameOf(urn)}: nothing on the forge is this create's\n`);
  for (const note of plan.notes) io.out(`  note    ${note}\n`);
  for (const item of plan.undecided) {
    io.out(
      `  decide  ${item.urns.map(nameOf).join(", ")}: ${item.why}; candidates: ${item.candidates.map(describeCandidate).join(", ")}\n`,
    );
  }
  if (options.dryRun) {
    io.out("Dry run: nothing changed.\n");
    return plan.undecided.length > 0 || changesUndecided ? EXIT_UNDECIDED : EXIT_OK;
  }
  if (plan.undecided.length > 0) {
    // Writing a state goes through `pulumi stack import`, which removes every pending operation:
    // the undecided creates would be lost with their evidence. So nothing is written until every
    // create is decided; the clears found here are found again then.
    io.out(
      `Nothing written: ${plan.undecided.length === 1 ? "a create needs" : "creates need"} your decision first (the stack's state can only be written whole, and it would lose the undecided ones).\n`,
    );
    // One --adopt per create whose candidates are as many as its creates, in the listed order.
    const adoptions = plan.undecided.flatMap((item) =>
      item.candidates.length === item.urns.length
        ? item.urns.map((urn, index) => `--adopt ${shellArg(`${nameOf(urn)}=${item.candidates[index]!.id}`)}`)
        : [],
    );
    io.out(
      "Left to decide. For each create above, find out whether one of its candidates is the resource's object (who made\n" +
        "it, when); then take it with --adopt <resource>=<import id>, or drop the pending create with --clear <resource>\n" +
        "(the next up then makes the object; an object of a unique identity is refused, naming its import id).\n" +
        (adoptions.length > 0
          ? `If every listed object is this stack's:\n  npx forge-recover --stack ${shellArg(stackName)} ${adoptions.join(" ")}\n`
          : "") +
        `To drop them all: npx forge-recover --stack ${shellArg(stackName)} ${plan.undecided.flatMap((item) => item.urns.map((urn) => `--clear ${shellArg(nameOf(urn))}`)).join(" ")}\n`,
    );
    return EXIT_UNDECIDED;
  }
  await applyToState(stackName, options.workDir, plan, io);
  io.out(
    `Recovered: the stack holds no pending create${changes.length > 0 ? " (nor the deletes and updates above: each is as said there)" : ""}. Run pulumi up.\n`,
  );
  return changesUndecided ? EXIT_UNDECIDED : EXIT_OK;
}

/** Revokes what the user named with `--revoke`, each only once shown to be a leftover of its rotating resource; true when any was named. */
async function revokeAsSaid(
  holdings: StackHoldings,
  options: RecoverOptions,
  claimed: ReadonlySet<string>,
  clientOf: (subject: Holding) => Promise<ForgeClient>,
  io: Io,
): Promise<boolean> {
  for (const [name, importId] of options.revoke) {
    const holding = holdings.resources.find((resource) => resource.role === "manages" && (resource.urn === name || resource.name === name));
    if (!holding) throw new Error(`no resource named "${name}" in the stack: nothing revoked`);
    io.out(
      `  revoke  ${holding.name}: ${await revokeOnWord(holding, importId, await clientOf(holding), claimed, options.dryRun)} (as you said)\n`,
    );
  }
  return options.revoke.size > 0;
}

/**
 * Names the credentials a rotating resource's rotation may have made and the stack does not hold
 * (a rotation killed mid-run, or whose create's answer was lost): the next rotation stops on them
 * and a destroy leaves them active. True when any is found: left to the user.
 */
async function killedRotations(
  holdings: StackHoldings,
  claimed: ReadonlySet<string>,
  clientOf: (subject: Holding) => Promise<ForgeClient>,
  stackName: string,
  io: Io,
): Promise<boolean> {
  let found = false;
  for (const holding of holdings.resources) {
    if (holding.role !== "manages") continue;
    const leftovers = await leftoverCredentials(holding, await clientOf(holding), claimed);
    if (leftovers.length === 0) continue;
    found = true;
    const killed = holdings.pending.some((operation) => operation.urn === holding.urn && operation.type === "updating");
    io.out(
      `  decide  ${holding.name}: the forge holds ${leftovers.map((leftover) => leftover.description).join(", ")}, made after the newest credential it holds and held by no resource of the stack. ` +
        `${killed ? "Its rotation was killed mid-run: it" : "A rotation of it that failed (its create's answer lost) or was killed"} may have made ${leftovers.length === 1 ? "it" : "them"}, and then ${leftovers.length === 1 ? "its value was" : "their values were"} lost with the answer; or another pipeline or a person made ${leftovers.length === 1 ? "it" : "them"}. ` +
        `Its next rotation stops on ${leftovers.length === 1 ? "it" : "them"}, and a destroy leaves ${leftovers.length === 1 ? "it" : "them"} active. ` +
        `If ${leftovers.length === 1 ? "it is" : "they are"} this stack's, revoke on your word: npx forge-recover --stack ${shellArg(stackName)} ${leftovers.map((leftover) => `--revoke ${shellArg(`${holding.name}=${leftover.importId}`)}`).join(" ")}\n`,
    );
  }
  return found;
}

/**
 * The deletes and updates a killed run left pending, each with its id (the engine writes it into
 * some pending operations only: the state's resource of the same URN has it) and the resource's
 * outputs as the state holds them (its evidence among them). One whose object the state does not
 * name at all is reported as such, never dropped.
 */
export function pendingChanges(holdings: StackHoldings): (PendingChange & { operation: PendingOperation })[] {
  return holdings.pending.flatMap((operation) => {
    const kind = operation.type === "deleting" ? "delete" : operation.type === "updating" ? "update" : undefined;
    if (!kind || !operation.kind) return [];
    const held = holdings.resources.find((resource) => resource.urn === operation.urn);
    return [
      {
        urn: operation.urn,
        kind,
        type: operation.kind,
        id: operation.id ?? "",
        outputs: plainState(held?.outputs ?? operation.outputs) as State,
        operation,
      },
    ];
  });
}

/** Reads what each pending delete or update left and says what it means; true when one is left to the user. */
async function reportPendingChanges(
  changes: readonly (PendingChange & { operation: PendingOperation })[],
  stackName: string,
  over: (kind: string, subject: PendingOperation) => Promise<ResourceOperations>,
  io: Io,
): Promise<boolean> {
  if (changes.length === 0) return false;
  const count = (kind: PendingChange["kind"]) => changes.filter((change) => change.kind === kind).length;
  const counted = (["delete", "update"] as const)
    .filter((kind) => count(kind) > 0)
    .map((kind) => `${count(kind)} pending ${kind}${count(kind) === 1 ? "" : "s"}`);
  io.out(`Stack ${stackName}: ${counted.join(" and ")} left by an interrupted run.\n`);
  let undecided = false;
  for (const change of changes) {
    if (!change.id) {
      // No id anywhere in the state: nothing names the object, so nothing can be read for it.
      undecided = true;
      io.out(
        `  ${change.kind.padEnd(7)} ${nameOf(change.urn)}: ${change.type}: the state names no object for this pending ${change.kind} (no id), so what it touched cannot be read. ` +
          `\`pulumi refresh\` reads the stack again; check the forge for ${change.type} objects of this resource's inputs before any run.\n`,
      );
      continue;
    }
    const operated = await over(change.type, change.operation);
    const explained = explainPendingChange(
      change,
      await operated.standing(change.id, engineState(change.outputs)),
      evidenceFields(operated.declaration),
    );
    undecided ||= explained.undecided;
    io.out(`  ${change.kind.padEnd(7)} ${explained.text}\n`);
  }
  return undecided;
}

/** The forge's clock against this machine's, from the `Date` header of one answer (0 when it has none). */
export async function forgeClock(client: ForgeClient): Promise<ForgeClock> {
  const sent = Date.now();
  const response = await client.request(routes.user.get).catch(() => undefined);
  const received = Date.now();
  const date = Date.parse(response?.headers["date"] ?? "");
  // The header has whole seconds: its middle is half a second later.
  return { offsetMs: Number.isFinite(date) ? date + 500 - (sent + received) / 2 : 0 };
}

function describeCandidate(candidate: PendingCandidate): string {
  return candidate.createdAt ? `${candidate.id} (made ${candidate.createdAt})` : candidate.id;
}

/**
 * Writes the decisions into the stack's state: an adopted create becomes a resource with the
 * object's id (its stored inputs, still encrypted, as outputs until the refresh reads it), a
 * cleared one is dropped from the pending operations. Called only when none is left undecided:
 * `pulumi stack import` removes every pending operation it is given. Then `pulumi
 * refresh` reads every adopted object through the provider. (Pulumi's own
 * `refresh --import-pending-creates` drops the resources it should import in 3.259.)
 */
async function applyToState(stackName: string, workDir: string, plan: RecoveryPlan, io: Io): Promise<void> {
  const pulumi = (...args: string[]) =>
    promisify(execFile)("pulumi", [...args, "--stack", stackName, "--non-interactive"], { cwd: workDir, maxBuffer: 256 * 1024 * 1024 });
  if (plan.adopts.length === 0 && plan.clears.length === 0) return;
  const exported = JSON.parse((await pulumi("stack", "export")).stdout) as {
    deployment: {
      resources?: Record<string, unknown>[];
      pending_operations?: { type: string; resource: Record<string, unknown> & { urn: string } }[];
    };
  };
  const deployment = exported.deployment;
  const adopts = new Map(plan.adopts.map(({ urn, id }) => [urn, id]));
  const clears = new Set(plan.clears);
  const kept: typeof deployment.pending_operations = [];
  for (const op of deployment.pending_operations ?? []) {
    const id = op.type === "creating" ? adopts.get(op.resource.urn) : undefined;
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
  if (plan.adopts.length > 0) {
    io.out("Reading the adopted objects (pulumi refresh) ...\n");
    await pulumi("refresh", "--yes", "--skip-preview");
  }
}

function withoutEngineKeys(inputs: State): State {
  return Object.fromEntries(Object.entries(inputs).filter(([key]) => !key.startsWith("__")));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as State)[key])]),
  );
}
