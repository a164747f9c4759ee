/**
 * Actions: one-off operations for scripts and the Automation API, not resources. A Pulumi
 * program runs again on every `up`, so an operation inside one would be repeated each time (a
 * token revoked again, a sync started again); call these from a script, a pipeline step or an
 * Automation API program when the operation is wanted. They read the connection as lookups do.
 */
import { z } from "zod";
import { AVAILABILITY, describeOfferings, describeTier, type Availability } from "../api/editions";
import { routes } from "../api/routes";
import { clientFor, ForgeApiError, type ForgeClient } from "./client";
import { fromWire } from "./engine/naming";
import { parseArguments, programConnection, type ForgeRecord } from "./lookups/lookup";
import { groupRef, serverId } from "./fields";

const revokeArgs = z.object({
  /** The top-level group the token has access to (id or full path). */
  group: groupRef,
  /** The token's plaintext: a personal, group or project access token, a group deploy token or a user's feed token. */
  token: z.string().min(1, { error: "is empty; give the token's value" }),
});

const groupArgs = z.object({
  /** The group (id or full path). */
  group: groupRef,
});

const geoSiteArgs = z.object({
  /** The site's id (`GeoSite.siteId`). */
  siteId: serverId,
});

/** An action as data: what the plugin serves as a function (`forge:index:<name>`) and the schema describes. */
export interface ActionDeclaration<A extends z.ZodObject = z.ZodObject> {
  name: string;
  /** One sentence for the schema and the reference; the exported function's TSDoc says more. */
  summary: string;
  args: A;
  /** Arguments that are secrets (a token's value): marked so in the schema. */
  secretArgs?: readonly string[];
  run(args: z.output<A>, client: ForgeClient): Promise<unknown>;
}

const revoke: ActionDeclaration<typeof revokeArgs> = {
  name: "revokeGroupToken",
  summary:
    "Revokes a token that has access to a top-level group, its subgroups or projects (POST /groups/:id/tokens/revoke; Owner). Revoking a revoked token answers it again.",
  args: revokeArgs,
  secretArgs: ["token"],
  async run({ group, token }, client) {
    const response = await withActionHints(
      "revokeGroupToken",
      {},
      {
        403: "revoking needs the group's Owner role",
        422: `the forge knows no such token with access to ${String(group)} (revoked tokens it still knows answer again; check the value and the group)`,
      },
      () => client.request(routes.groups.revokeToken, { group, token }),
    );
    return fromWire(response.body);
  },
};

const ldapSync: ActionDeclaration<typeof groupArgs> = {
  name: "syncGroupLdap",
  summary:
    "Asks the forge to sync a group's members with its linked LDAP group (POST /groups/:id/ldap_sync; administrator or Owner; Premium, self-managed); it syncs in the background.",
  args: groupArgs,
  async run({ group }, client) {
    await withActionHints("syncGroupLdap", AVAILABILITY.ldapGroupSync, { 403: "it needs an administrator or the group's Owner" }, () =>
      client.request(routes.groups.ldapSync, { group }),
    );
    return null;
  },
};

const geoRepair: ActionDeclaration<typeof geoSiteArgs> = {
  name: "repairGeoSite",
  summary:
    "Repairs the OAuth authentication between the Geo sites (POST /geo_sites/:id/repair; administrator; Premium, self-managed). Answers the site.",
  args: geoSiteArgs,
  async run({ siteId }, client) {
    const response = await withActionHints(
      "repairGeoSite",
      AVAILABILITY.geoSites,
      { 403: "it needs an administrator", 404: `the forge has no Geo site ${String(siteId)}` },
      () => client.request(routes.geoSites.repair, { siteId }),
    );
    return fromWire(response.body);
  },
};

/** Every action, for the plugin face. */
export const actionDeclarations: readonly ActionDeclaration[] = [revoke, ldapSync, geoRepair] as unknown as readonly ActionDeclaration[];

/** Runs an action: its arguments checked first (a clear error before any request), then its request. */
export async function runAction<A extends z.ZodObject>(
  declaration: ActionDeclaration<A>,
  args: unknown,
  client?: ForgeClient,
): Promise<unknown> {
  const parsed = parseArguments(declaration.name, declaration.args, args);
  return declaration.run(parsed, client ?? clientFor(programConnection()));
}

/**
 * Revokes a token that has access to a top-level group, its subgroups or projects
 * (`POST /groups/:id/tokens/revoke`; Owner of the group). Answers the token's details
 * (`id`, `name`, `username`, `expiresAt`, `scopes`, `revoked`, `expired`; they vary by kind);
 * revoking a token that is revoked already answers them too, so a retried script is harmless.
 * The forge refuses a subgroup (400 `Must be a top-level group`) and a token it does not know or
 * that has no access to the group (422).
 *
 * @example
 * await revokeGroupToken({ group: "acme", token: process.env.LEAKED_TOKEN! });
 */
export async function revokeGroupToken(args: z.input<typeof revokeArgs>): Promise<ForgeRecord> {
  return (await runAction(revoke, args)) as ForgeRecord;
}

/**
 * Asks the forge to sync a group's members with its linked LDAP group
 * (`POST /groups/:id/ldap_sync`; administrator or Owner; Premium and above, self-managed).
 * The forge answers 202 and syncs in the background: the promise resolves once it accepted.
 */
export async function syncGroupLdap(args: z.input<typeof groupArgs>): Promise<void> {
  await runAction(ldapSync, args);
}

/**
 * Repairs the OAuth authentication between the Geo sites when the forge reports a missing OAuth
 * application for a site (`POST /geo_sites/:id/repair`; administrator; Premium, self-managed).
 * Answers the site.
 */
export async function repairGeoSite(args: z.input<typeof geoSiteArgs>): Promise<ForgeRecord> {
  return (await runAction(geoRepair, args)) as ForgeRecord;
}

/**
 * Runs an action's request; a refusal is named after the action, with what the action needs: the
 * edition (a 403 for the tier, a 404 for the offering, as resources say it) and the action's own
 * reasons by status.
 */
async function withActionHints<T>(
  action: string,
  availability: Availability,
  reasons: Record<number, string>,
  send: () => Promise<T>,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ForgeApiError)) throw error;
    const tier = describeTier(availability);
    const offerings = describeOfferings(availability);
    const needs = [
      ...(error.status === 403 && tier ? [`${action} needs ${tier}`] : []),
      ...(error.status === 404 && offerings ? [`${action} exists only on ${offerings}`] : []),
      ...(reasons[error.status] ? [`${action}: ${reasons[error.status]}`] : []),
    ];
    if (needs.length > 0) error.message = `${error.message} (${needs.join("; ")})`;
    throw error;
  }
}
