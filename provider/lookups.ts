/**
 * Lookups: exported async functions that read the forge from a program, for values a stack
 * needs but does not manage: `await getGroup({ group: "acme" })`, or
 * `getGroup.output({ group: someOutput })` to compose with other resources' outputs.
 *
 * They run in the program's process: the connection comes from `FORGE_BASE_URL` /
 * `FORGE_TOKEN` or stack config `forge:baseUrl` / `forge:token`, like the resources.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { clientFor, parseRoute, resolveConnection, type Connection } from "./client";
import type { Route } from "./engine/declaration";
import { fromWire, toSnake } from "./engine/naming";
import { groupRef, projectRef, serverId } from "./resources/common";

/** A record as the forge returns it, with camelCase keys. */
export type ForgeRecord = Record<string, unknown>;

type Args<S extends z.ZodObject> = { [K in keyof z.input<S>]: pulumi.Input<z.input<S>[K]> };

function programConnection(): Connection {
  let config: pulumi.Config | undefined;
  try {
    config = new pulumi.Config("forge");
  } catch {
    config = undefined; // outside a Pulumi program: environment only
  }
  return resolveConnection({ get: (key) => config?.get(key.slice(key.indexOf(":") + 1)) });
}

/** Runs a route with validated arguments: path fields from the template, the rest as query. */
async function run(route: Route, schema: z.ZodObject, args: Record<string, unknown>, many: boolean): Promise<unknown> {
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`);
    throw new Error(`${route}: invalid arguments: ${issues.join("; ")}`);
  }
  const { path, parameters } = parseRoute(route);
  const inPath = new Set(parameters);
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) {
    params[inPath.has(key) ? key : toSnake(key)] = value;
  }
  const client = clientFor(programConnection());
  if (many) return fromWire(await client.list(path, params));
  return fromWire((await client.request("GET", path, params)).body);
}

/** A lookup as Pulumi's own functions come: a promise of plain arguments, and an `...Output`
 *  form that takes inputs (outputs of other resources) and returns an output. */
interface Lookup<S extends z.ZodObject, R> {
  (args: z.input<S>): Promise<R>;
  output(args: Args<S>): pulumi.Output<R>;
}

function lookup<S extends z.ZodObject>(route: Route, schema: S, many: true): Lookup<S, ForgeRecord[]>;
function lookup<S extends z.ZodObject>(route: Route, schema: S, many: false): Lookup<S, ForgeRecord>;
function lookup<S extends z.ZodObject>(route: Route, schema: S, many: boolean) {
  const call = (args: z.input<S>) => run(route, schema, args as Record<string, unknown>, many);
  return Object.assign(call, {
    output: (args: Args<S>) => pulumi.output(args).apply((plain) => call(plain as z.input<S>)),
  });
}

const flag = z.boolean().optional();

/** A group (`GET /groups/:id`). */
export const getGroup = lookup("GET /groups/:group", z.object({ group: groupRef, withProjects: flag }), false);

/** The labels of a group, by default with those of its ancestors. */
export const listGroupLabels = lookup(
  "GET /groups/:group/labels",
  z.object({
    group: groupRef,
    withCounts: flag,
    includeAncestorGroups: flag,
    includeDescendantGroups: flag,
    onlyGroupLabels: flag,
    search: z.string().optional(),
    archived: flag,
  }),
  true,
);

/** One label of a group, by id or title. */
export const getGroupLabel = lookup(
  "GET /groups/:group/labels/:labelId",
  z.object({ group: groupRef, labelId: z.union([serverId, z.string().min(1)]), includeAncestorGroups: flag, includeDescendantGroups: flag }),
  false,
);

/** Every broadcast message (no authentication needed). */
export const listBroadcastMessages = lookup("GET /broadcast_messages", z.object({}), true);

/** The cluster agents registered in a project. */
export const listClusterAgents = lookup("GET /projects/:project/cluster_agents", z.object({ project: projectRef }), true);

/** The active tokens of a cluster agent (without their secret values). */
export const listClusterAgentTokens = lookup(
  "GET /projects/:project/cluster_agents/:agentId/tokens",
  z.object({ project: projectRef, agentId: serverId }),
  true,
);

/** The projects on a project's CI/CD job token allowlist. */
export const listJobTokenScopeProjectAllowlist = lookup(
  "GET /projects/:project/job_token_scope/allowlist",
  z.object({ project: projectRef }),
  true,
);

/** The groups on a project's CI/CD job token allowlist. */
export const listJobTokenScopeGroupAllowlist = lookup(
  "GET /projects/:project/job_token_scope/groups_allowlist",
  z.object({ project: projectRef }),
  true,
);

/** The protected environments of a project. */
export const listProjectProtectedEnvironments = lookup(
  "GET /projects/:project/protected_environments",
  z.object({ project: projectRef }),
  true,
);

/** The protected deployment tiers of a group. */
export const listGroupProtectedEnvironments = lookup("GET /groups/:group/protected_environments", z.object({ group: groupRef }), true);
