/**
 * forge-drift's "rotation due": rotating resources (RotatingClusterAgentToken,
 * RotatingErrorTrackingClientKey) whose current credential is past its `rotationDueAt` on the
 * forge's clock, or gone. Reported apart from drift: a rotation due is the program's own schedule,
 * which the next `pulumi up` carries out, not a difference between the forge and the stack; it
 * does not change forge-drift's exit status.
 */
import { markdownCode } from "../provider/adopt/escape";
import type { ForgeClient } from "../provider/client";
import { forgeNow } from "../provider/engine/forge-time";
import { operations } from "../provider/composition-root";
import { parseTypeToken } from "../provider/type-tokens";

/** A rotating resource whose next `pulumi up` rotates. */
export interface RotationDue {
  name: string;
  type: string;
  urn: string;
  /** When it fell due, on the forge's clock (ISO 8601); absent when its current credential is gone. */
  dueAt?: string;
  /** Why, in a few words. */
  reason: string;
}

/** A resource of the exported state (outputs in plain). */
interface StateEntry {
  urn: string;
  type: string;
  outputs: Record<string, unknown>;
}

/**
 * The rotating resources of a state that are due, each by its own forge's clock (one request per
 * forge when any has a schedule). `clientOf` gives a resource's client: its own provider's
 * connection (provider/holdings/connection.ts), as a stack may talk to two forges.
 */
export async function rotationsDue(
  resources: readonly StateEntry[],
  clientOf: (urn: string) => Promise<ForgeClient>,
  warn: (message: string) => void,
): Promise<RotationDue[]> {
  const rotating = resources.filter((resource) => rotationOf(resource.type) !== undefined);
  if (rotating.length === 0) return [];
  const clocks = new Map<string, Promise<number>>();
  const nowOf = async (urn: string): Promise<number> => {
    const client = await clientOf(urn);
    let now = clocks.get(client.baseUrl);
    if (!now) clocks.set(client.baseUrl, (now = forgeNow(client, warn, { fresh: true })));
    return now;
  };
  const due: RotationDue[] = [];
  for (const resource of rotating) {
    const now = typeof resource.outputs["rotationDueAt"] === "string" ? await nowOf(resource.urn) : undefined;
    const name = resource.urn.slice(resource.urn.lastIndexOf("::") + 2);
    const noun = rotationOf(resource.type)!.noun;
    const current = resource.outputs["current"] as Record<string, unknown> | undefined;
    const dueAt = resource.outputs["rotationDueAt"];
    if (!current) due.push({ name, type: resource.type, urn: resource.urn, reason: `its current ${noun} is gone from the state` });
    else if (typeof dueAt === "string" && now !== undefined && Date.parse(dueAt) <= now) {
      due.push({
        name,
        type: resource.type,
        urn: resource.urn,
        dueAt,
        reason: `current ${noun} issued ${String(current["issuedAt"] ?? current["createdAt"])}, rotateAfter ${String(resource.outputs["rotateAfter"])}`,
      });
    }
  }
  return due.sort((a, b) => a.name.localeCompare(b.name) || a.urn.localeCompare(b.urn));
}

function rotationOf(type: string): { noun: string } | undefined {
  const token = parseTypeToken(type);
  if (!token) return undefined;
  try {
    return operations(token.name).declaration.rotation;
  } catch {
    return undefined;
  }
}

/** The "rotation due" section of forge-drift's text and markdown reports (empty when nothing is due). */
export function formatRotationDue(stack: string, due: readonly RotationDue[] | undefined, format: "text" | "markdown"): string {
  if (!due || due.length === 0) return "";
  const count = `${due.length} resource${due.length === 1 ? "" : "s"}`;
  const shortType = (type: string) => type.slice(type.lastIndexOf(":") + 1);
  const when = (entry: RotationDue) => (entry.dueAt ? `due since ${entry.dueAt} (${entry.reason})` : `due: ${entry.reason}`);
  if (format === "markdown") {
    const lines = [
      "",
      `### Rotation due in stack ${markdownCode(stack)}: ${count}`,
      "",
      ...due.map((entry) => `- **${markdownCode(entry.name)}** (${shortType(entry.type)}): ${when(entry)}`),
      "",
      "Not drift: the next `pulumi up` rotates them.",
    ];
    return `${lines.join("\n")}\n`;
  }
  const lines = [
    `Rotation due in stack ${stack} (not drift; the next pulumi up rotates): ${count}`,
    ...due.map((entry) => `  ${entry.name} (${shortType(entry.type)}): ${when(entry)}`),
  ];
  return `${lines.join("\n")}\n`;
}
