/**
 * The search for what no stack of a fleet holds, as `forge-drift --unmanaged` and `forge-adopt
 * --stacks-file` run it: the forge's connection from the environment (as forge-adopt takes it),
 * the ignore file, the scope listed first and then each stack's state read
 * (cli/fleet-state.ts), matched in provider/adopt/inventory.ts. It finds and reports: it never
 * deletes, revokes or changes an object on the forge, and never writes a stack.
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import type { ForgeClient } from "../provider/client";
import { forgeFromEnv } from "./forge-connection";
import { parseIgnoreRules, type IgnoreRule } from "../provider/adopt/ignore";
import { takeInventory, type Inventory } from "../provider/adopt/inventory";
import { readTargets, type Adoption, type AdoptScopeInput, type Skipped } from "../provider/adopt/read";
import { declarations } from "../provider/resources";
import type { FleetStack } from "./fleet";
import { readFleetStates, type StackState } from "./fleet-state";

/** What to search. */
export interface UnmanagedSearch {
  stacks: readonly FleetStack[];
  scope: Required<AdoptScopeInput>;
  /** The ignore file's path. */
  ignoreFile?: string | undefined;
  /** Stacks read, and requests sent, at once (default 4). */
  concurrency?: number | undefined;
  /** A stack's export is ended after this long. */
  timeoutMs?: number | undefined;
  env: NodeJS.ProcessEnv;
  /** Warnings of the reads (masked by the caller). */
  log(message: string): void;
}

/** What the search found, and what it read. */
export interface UnmanagedFound {
  forge: string;
  client: ForgeClient;
  states: StackState[];
  inventory: Inventory;
  rules: IgnoreRule[];
}

/** The rules of an ignore file; an error names the file, the entry and the field. */
export function readIgnoreFile(path: string): IgnoreRule[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(
      `the ignore file ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`,
    );
  }
  try {
    return parseIgnoreRules(parsed, new Set(Object.values(declarations).map((declaration) => declaration.name)));
  } catch (error) {
    throw new Error(`the ignore file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Lists the scope, then reads the fleet's states, and matches them. */
export async function findUnmanaged(search: UnmanagedSearch): Promise<UnmanagedFound> {
  const rules = search.ignoreFile !== undefined ? readIgnoreFile(search.ignoreFile) : [];
  const { forge, client } = forgeFromEnv(search.env);
  let states: StackState[] = [];
  const inventory = await takeInventory(
    client,
    search.scope,
    async () => {
      states = await readFleetStates(search.stacks, forge, {
        env: search.env,
        ...(search.concurrency !== undefined ? { concurrency: search.concurrency } : {}),
        ...(search.timeoutMs !== undefined ? { timeoutMs: search.timeoutMs } : {}),
      });
      return states.map((state) => ({
        label: state.label,
        status: state.status === "elsewhere" ? ("read" as const) : state.status,
        resources: state.resources,
        possibly: state.possibly,
      }));
    },
    { ignore: rules, log: search.log, ...(search.concurrency !== undefined ? { concurrency: search.concurrency } : {}) },
  );
  return { forge, client, states, inventory, rules };
}

/**
 * The adoption of what the search found (`forge-adopt --stacks-file`): with `unmanaged`, exactly
 * the objects and settings no stack holds (and the ignore file does not allow); otherwise every
 * object of the scope that no stack holds. Each is read again by its import id, as forge-adopt
 * reads any. Left out, and said so in the program's header: what the fleet holds (a count per
 * stack), what a stack not read may hold, and with `unmanaged` what the forge made itself and
 * what the ignore file allows. `--unmanaged` refuses an incomplete fleet: it would declare what
 * a stack that could not be read may hold.
 */
export async function adoptionOf(found: UnmanagedFound, unmanaged: boolean): Promise<Adoption> {
  const { inventory, states } = found;
  const unread = states.filter((state) => state.status === "unread" || state.status === "partial");
  if (unmanaged && unread.length > 0) {
    throw new Error(
      `--unmanaged writes nothing while a stack's state is not known in full (it may hold what would be declared): ${unread.map((state) => `${state.label}: ${(state.message ?? "").split("\n")[0]}`).join("; ")}`,
    );
  }
  const chosen = unmanaged ? inventory.unmanaged : [...inventory.unmanaged, ...inventory.forgeOwn, ...inventory.ignored];
  const adoption = await readTargets(
    found.client,
    chosen.map((object) => ({ key: object.key, scope: object.scope, path: object.path, idState: object.idState })),
  );
  const notes: Skipped[] = [];
  notes.push(...inventory.skipped);
  if (inventory.counts.held > 0)
    notes.push({
      what: "the fleet's stacks",
      reason: `hold ${inventory.counts.held} of the scope's objects: left out (forge-drift --unmanaged lists what they hold twice)`,
      left: true,
    });
  for (const object of inventory.possiblyHeld)
    notes.push({
      what: `${object.kind} ${object.importId}`,
      reason: `possibly held by ${object.by.join(", ")}, whose state is not known in full: left out`,
      left: true,
    });
  if (unmanaged && inventory.forgeOwn.length > 0)
    notes.push({
      what: `${inventory.forgeOwn.length} objects`,
      reason: "the forge made them itself (forge-drift --unmanaged lists them): left out",
      left: true,
    });
  if (unmanaged && inventory.ignored.length > 0)
    notes.push({ what: `${inventory.ignored.length} objects`, reason: "the ignore file allows them outside code: left out", left: true });
  for (const held of inventory.heldTwice)
    notes.push({
      what: `${held.kind} ${held.importId}`,
      reason: `held by more than one stack (${held.holders.map((holder) => holder.stack).join(", ")}): a destroy of one deletes what the other holds`,
      left: true,
    });
  return { ...adoption, skipped: [...notes, ...adoption.skipped] };
}
