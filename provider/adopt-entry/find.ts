/**
 * What the adopt entries of the resources (each beside its declaration, in provider/resources/)
 * share: listing through the lookups, and naming users, groups and projects in comments.
 */
import { isNotFound, type ForgeClient } from "../client";
import type { State } from "../engine/declaration";
import { runLookup, type ForgeRecord } from "../lookups/lookup";
import type { lookupDeclarations } from "../lookups/registry";
import { settledListing } from "../engine/shared-listings";
import { defineAdopt, type AdoptEntry } from "./entry";
import { routes } from "../../api/routes";

/** What the runs under way ({@link sharingListings}) read once, by client: listings by lookup and arguments, project records by path or id. */
const sharedReads = new WeakMap<
  ForgeClient,
  { listings: Map<string, Promise<ForgeRecord[]>>; projects: Map<string, Promise<Record<string, unknown> | undefined>> }
>();

/**
 * Runs `run` with each listing its entries read done once for all of them: a group's
 * integrations are one listing for the sixteen integration kinds, its labels one for labels and
 * their subscriptions. A run reads a place's kinds within seconds, so they see one reading of the
 * forge, not sixteen. Nested runs share the outer one's listings.
 */
export async function sharingListings<T>(client: ForgeClient, run: () => Promise<T>): Promise<T> {
  if (sharedReads.has(client)) return run();
  sharedReads.set(client, { listings: new Map(), projects: new Map() });
  try {
    return await run();
  } finally {
    sharedReads.delete(client);
  }
}

/** A lookup of the registry, by name. */
export type LookupName = keyof typeof lookupDeclarations;

/** The lookup of that name. The registry loads at the first adoption that lists, not with the
 *  resource files that name its lookups: a provider process that never adopts never loads it. */
async function lookupNamed(name: LookupName) {
  return (await import("../lookups/registry.js")).lookupDeclarations[name];
}

/**
 * Every record of a listing lookup, read until two readings agree: an offset-paginated listing
 * read while someone deletes on a page already read shifts, and an object that slides onto that
 * page would be left out of the adoption without a word (docs/ownership.md, "A listing is not
 * proof of absence"). Within {@link sharingListings}, once for the whole run.
 */
export function list(name: LookupName, args: Record<string, unknown>, client: ForgeClient): Promise<ForgeRecord[]> {
  const shared = sharedReads.get(client)?.listings;
  const key = `${name} ${JSON.stringify(args)}`;
  const known = shared?.get(key);
  if (known) return known;
  const read = lookupNamed(name).then(
    (lookup) =>
      settledListing(lookup.name, async () => (await runLookup(lookup, args, client)) as ForgeRecord[], recordKey) as Promise<
        ForgeRecord[]
      >,
  );
  shared?.set(key, read);
  return read;
}

/** What tells records of a listing apart: their id, else the name listings without ids key by. */
function recordKey(record: ForgeRecord): string {
  return JSON.stringify(record["id"] ?? record["iid"] ?? record["slug"] ?? record["name"] ?? record);
}

/** The record of a single-object lookup, or undefined when the forge has none (404). */
export async function one(name: LookupName, args: Record<string, unknown>, client: ForgeClient): Promise<ForgeRecord | undefined> {
  try {
    return (await runLookup(await lookupNamed(name), args, client)) as ForgeRecord;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

/** The agents of a project with, for each, the ids of what hangs below it. */
export async function agentChildren(project: string, client: ForgeClient, lookup: LookupName, idField: string): Promise<State[]> {
  const agents = await list("listClusterAgents", { project }, client);
  const found: State[] = [];
  for (const agent of agents) {
    for (const record of await list(lookup, { project, agentId: agent["id"] }, client)) {
      found.push({ project, agentId: agent["id"], [idField]: record["id"] });
    }
  }
  return found;
}

/** Protected environments of a project or a group: the same listing and entries at both levels. */
export function protectedEnvironments(scope: "group" | "project", lookup: LookupName): AdoptEntry {
  return defineAdopt({
    scope,
    find: async ({ path, client }) =>
      (await list(lookup, { [scope]: path }, client)).map((environment) => ({ [scope]: path, name: environment["name"] })),
    name: (inputs) => `protected ${text(inputs["name"])}`,
    describe: describeGrantees,
  });
}

/** Where the forge serves a group's avatar, or undefined when it has none. */
export async function groupAvatarUrl(client: ForgeClient, group: string): Promise<string | undefined> {
  const url = (await client.request<Record<string, unknown>>(routes.groups.get, { group })).body["avatar_url"];
  return typeof url === "string" && url !== "" ? url : undefined;
}

/** A project's record (`GET /projects/:project`), undefined when the forge has none; within {@link sharingListings}, asked once per project. */
export function projectRecord(client: ForgeClient, project: string | number): Promise<Record<string, unknown> | undefined> {
  const known = sharedReads.get(client)?.projects;
  const asked = known?.get(String(project));
  if (asked) return asked;
  const record = client.request<Record<string, unknown>>(routes.projects.get, { project }).then(
    (response) => response.body,
    (error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    },
  );
  known?.set(String(project), record);
  return record;
}

const tokenUsers = new WeakMap<ForgeClient, Promise<unknown>>();

/** The id of the token's own user, asked once per client. */
export function tokenUserId(client: ForgeClient): Promise<unknown> {
  let id = tokenUsers.get(client);
  if (!id) {
    id = client.request<Record<string, unknown>>(routes.user.get).then((response) => response.body["id"]);
    tokenUsers.set(client, id);
  }
  return id;
}

/** Who the entries of a protected environment name: user ids as usernames, group ids as paths. */
export async function describeGrantees(
  inputs: State,
  _outputs: State,
  { client }: { client: ForgeClient },
): Promise<Record<string, string>> {
  const comments: Record<string, string> = {};
  for (const list of ["deployAccessLevels", "approvalRules"]) {
    const entries = inputs[list];
    if (!Array.isArray(entries)) continue;
    for (const [index, entry] of (entries as State[]).entries()) {
      if (typeof entry["userId"] === "number") comments[`${list}.${index}.userId`] = (await username(client, entry["userId"])) ?? "";
      if (typeof entry["groupId"] === "number")
        comments[`${list}.${index}.groupId`] = (await field(client, routes.groups.get, { group: entry["groupId"] }, "full_path")) ?? "";
    }
  }
  return comments;
}

/** The actor kinds of a feature gate: input, the prefix of the forge's ids, and how to name one. */
const ACTORS: { input: string; prefix: string; name: (id: number, client: ForgeClient) => Promise<string | undefined> }[] = [
  { input: "users", prefix: "User", name: (id, client) => username(client, id) },
  { input: "groups", prefix: "Group", name: (id, client) => field(client, routes.groups.get, { group: id }, "full_path") },
  {
    input: "namespaces",
    prefix: "Namespace",
    name: async (id, client) => (await field(client, routes.groups.get, { group: id }, "full_path")) ?? (await username(client, id)),
  },
  {
    input: "projects",
    prefix: "Project",
    name: (id, client) => field(client, routes.projects.get, { project: id }, "path_with_namespace"),
  },
  {
    input: "repositories",
    prefix: "Repository",
    name: (id, client) => field(client, routes.projects.get, { project: id }, "path_with_namespace"),
  },
];

export async function username(client: ForgeClient, id: number): Promise<string | undefined> {
  const users = await client.list<Record<string, unknown>>(routes.users.list, {});
  const name = users.find((user) => user["id"] === id)?.["username"];
  return typeof name === "string" ? name : undefined;
}

/** A text field of the record a read answers (a group's `full_path`), or undefined when the forge has no such record. */
export async function field(
  client: ForgeClient,
  route: typeof routes.groups.get | typeof routes.projects.get,
  params: Record<string, unknown>,
  key: string,
): Promise<string | undefined> {
  try {
    const value = (await client.request<Record<string, unknown>>(route, params)).body[key];
    return typeof value === "string" ? value : undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** A feature's actor gates by name (`dev`, `acme/web`), as a program writes them; an actor that
 *  no longer resolves keeps the forge's id. A feature without a definition was set with `force`,
 *  which a change of its gates needs again. */
export async function presentFeatureActors(inputs: State, outputs: State, { client }: { client: ForgeClient }): Promise<State> {
  // The read state leaves a null definition out.
  const forced = outputs["definition"] === undefined || outputs["definition"] === null;
  const presented: State = { ...inputs, ...(forced ? { force: true } : {}) };
  for (const actor of ACTORS) {
    const values = inputs[actor.input];
    if (!Array.isArray(values)) continue;
    const names: string[] = [];
    for (const value of values) {
      const match = new RegExp(`^${actor.prefix}:(\\d+)$`).exec(String(value));
      names.push((match ? await actor.name(Number(match[1]), client) : undefined) ?? String(value));
    }
    presented[actor.input] = names;
  }
  return presented;
}
