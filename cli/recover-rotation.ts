/**
 * forge-recover's part for rotating resources (RotatingClusterAgentToken,
 * RotatingErrorTrackingClientKey): a rotation that was killed, or whose create's answer was lost,
 * may have made a credential the stack does not hold. Its value was only in that answer, so
 * nobody can use it; and while it stands, the resource's next rotation stops, naming it as
 * another's (engine/rotation.ts), and a destroy leaves it active.
 *
 * Nothing proves the stack made it (another pipeline or a person may have), so it is named, never
 * revoked on inference: {@link leftoverCredentials} lists the parent's credentials made after the
 * newest the resource holds and held by no resource of the stack; {@link revokeOnWord} revokes
 * one only on the user's word (`--revoke <resource>=<import id>`), after checking that it is one
 * of those.
 */
import type { ForgeClient } from "../provider/client";
import type { State, WireRecord } from "../provider/engine/declaration";
import { formatId, parseId } from "../provider/engine/ids";
import { parentId } from "../provider/engine/parents";
import { pathParams } from "../provider/engine/requests";
import { RotatingState, searchListing } from "../provider/engine/rotation";
import { operationsOver } from "../provider/composition-root";
import { declarationOfType, type Holding } from "../provider/holdings/holdings";
import { plainState } from "../provider/holdings/state-values";

/** A credential of the parent that the resource's rotation may have made. */
export interface Leftover {
  /** Its import id, as its own kind writes it (`acme/web:7:15`). */
  importId: string;
  /** How messages name it: `token 15 (import id ..., named "x" made ... by user 3)`. */
  description: string;
}

/** The rotating shape of a holding, with its state's values decoded. */
function rotatingOf(holding: Pick<Holding, "type" | "outputs">): { shape: RotatingState; state: State } | undefined {
  const declaration = declarationOfType(holding.type);
  if (!declaration?.rotation) return undefined;
  return { shape: new RotatingState(declaration), state: plainState(holding.outputs) as State };
}

/**
 * The parent's credentials made after the newest one the resource holds (the forge's ids give the
 * order) that no resource of the stack holds (`claimed`: `<kind> <import id>`): what a killed or
 * failed rotation of it may have made. Empty for a resource that does not rotate.
 */
export async function leftoverCredentials(
  holding: Pick<Holding, "type" | "outputs">,
  client: ForgeClient,
  claimed: ReadonlySet<string>,
): Promise<Leftover[]> {
  const rotating = rotatingOf(holding);
  if (!rotating) return [];
  const { shape, state } = rotating;
  const held = (["current", "previous"] as const)
    .map((slot) => shape.held(state, slot))
    .filter((entry): entry is State => entry !== undefined);
  const newest = held.length > 0 ? Math.max(...held.map((entry) => shape.idOf(entry))) : 0;
  const list = searchListing(shape.of);
  const records = await client.list<WireRecord>(list, pathParams(list, shape.inputs(state)));
  return records
    .filter((record) => shape.recordKey(record) > newest)
    .map((record) => ({ record, importId: importIdOf(shape, state, record) }))
    .filter(({ importId }) => !claimed.has(`${shape.of.name} ${importId}`))
    .map(({ record, importId }) => ({ importId, description: shape.describe(state, record) }));
}

function importIdOf(shape: RotatingState, state: State, record: WireRecord): string {
  return formatId(shape.of, { ...shape.inputs(state), [idField(shape)]: shape.recordKey(record) });
}

/** The credential's id output (`tokenId`, `keyId`): the id part that is not the parent's. */
function idField(shape: RotatingState): string {
  return shape.of.idParts.find((part) => !shape.parent.includes(part))!;
}

/**
 * Revokes the credential `importId` on the user's word, once it is shown to be a leftover of the
 * resource: of its parent (by the forge's ids, however spelled), on the forge, made after the
 * newest the resource holds, held by no resource of the stack. Returns what was revoked, or
 * throws saying why not (nothing revoked).
 */
export async function revokeOnWord(
  holding: Pick<Holding, "name" | "type" | "outputs">,
  importId: string,
  client: ForgeClient,
  claimed: ReadonlySet<string>,
  dryRun: boolean,
): Promise<string> {
  const rotating = rotatingOf(holding);
  if (!rotating) throw new Error(`${holding.name} is no rotating resource: --revoke takes a rotating resource's leftover credential`);
  const { shape, state } = rotating;
  let wanted: State;
  try {
    wanted = parseId(shape.of, importId);
  } catch (error) {
    throw new Error(
      `${importId} is no ${shape.of.name} import id (${error instanceof Error ? error.message : String(error)}): nothing revoked`,
    );
  }
  for (const field of shape.parent) {
    const same =
      field === "group" || field === "project"
        ? String(await parentId(client, field, wanted[field])) === String(await parentId(client, field, state[field]))
        : String(wanted[field]) === String(state[field]);
    if (!same) throw new Error(`${shape.of.name} ${importId} is not of ${holding.name}'s ${field}: nothing revoked`);
  }
  const leftovers = await leftoverCredentials(holding, client, claimed);
  const wantedKey = String(wanted[idField(shape)]);
  const found = leftovers.find((leftover) => String(parseId(shape.of, leftover.importId)[idField(shape)]) === wantedKey);
  if (!found) {
    throw new Error(
      `${shape.of.name} ${importId} is not a credential ${holding.name}'s rotation may have made (one of the parent's, made after the newest it holds, held by no resource of the stack)` +
        `${leftovers.length > 0 ? `; those are: ${leftovers.map((leftover) => leftover.importId).join(", ")}` : "; there is none"}: nothing revoked`,
    );
  }
  if (dryRun) return `would revoke ${found.description}`;
  await operationsOver(shape.of.name, client).delete(found.importId, { ...shape.inputs(state), ...parseId(shape.of, found.importId) });
  return `revoked ${found.description}`;
}
