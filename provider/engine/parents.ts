import type { ForgeClient } from "../client";
import { routes } from "../../api/routes";

/**
 * Who is who on the forge, for the ownership rule (recovery.ts): a group or project by its id
 * however a program spells it (`acme/platform` and `3` are one parent), and the user the
 * provider acts as, and a group's ancestors (engine/inherited.ts). Each answer is kept for the
 * client's life: one request per spelling.
 */
const parents = new WeakMap<ForgeClient, Map<string, Promise<{ id?: unknown; full_path?: unknown } | undefined>>>();
const users = new WeakMap<ForgeClient, Promise<unknown>>();

/** The numeric id of a group or project; the spelling itself when the forge cannot say (the create's own answer then will). */
export function parentId(client: ForgeClient, field: "group" | "project", value: unknown): Promise<unknown> {
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) return Promise.resolve(Number(value));
  if (typeof value !== "string") return Promise.resolve(value);
  return parentRecord(client, field, value).then((record) => record?.id ?? value);
}

/**
 * The full paths of a group's ancestors, nearest first (`acme/platform/team`: `acme/platform`,
 * `acme`). A group named by its path says them itself; one named by its id is read once (its
 * `full_path`); none when the forge cannot say.
 */
export async function groupAncestors(client: ForgeClient, group: unknown): Promise<string[]> {
  const numeric = typeof group === "number" || (typeof group === "string" && /^\d+$/.test(group));
  const fullPath = numeric ? (await parentRecord(client, "group", String(group)))?.full_path : group;
  if (typeof fullPath !== "string") return [];
  const segments = fullPath.split("/").filter((segment) => segment !== "");
  return segments.slice(1).map((_, index) => segments.slice(0, segments.length - 1 - index).join("/"));
}

/** The group or project record of one spelling, read once per client; undefined when the forge refuses it. */
function parentRecord(
  client: ForgeClient,
  field: "group" | "project",
  value: string,
): Promise<{ id?: unknown; full_path?: unknown } | undefined> {
  let known = parents.get(client);
  if (!known) parents.set(client, (known = new Map()));
  const key = `${field} ${value.toLowerCase()}`;
  let record = known.get(key);
  if (!record) {
    const read =
      field === "group"
        ? client.request<{ id?: unknown }>(routes.groups.get, { group: value, with_projects: false })
        : client.request<{ id?: unknown }>(routes.projects.get, { project: value });
    record = read.then(
      (response) => response.body,
      () => undefined,
    );
    known.set(key, record);
  }
  return record;
}

/** The id of the user whose token the client sends; undefined when the forge does not say. */
export function currentUserId(client: ForgeClient): Promise<unknown> {
  let id = users.get(client);
  if (!id) {
    id = client.request<{ id?: unknown }>(routes.user.get).then(
      (response) => response.body.id,
      () => undefined,
    );
    users.set(client, id);
  }
  return id;
}
