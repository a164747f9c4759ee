import type { ForgeClient } from "../client";
import { routes } from "../../api/routes";

/**
 * Who is who on the forge, for the ownership rule (recovery.ts): a group or project by its id
 * however a program spells it (`acme/platform` and `3` are one parent), and the user the
 * provider acts as. Each answer is kept for the client's life: one request per spelling.
 */
const parents = new WeakMap<ForgeClient, Map<string, Promise<unknown>>>();
const users = new WeakMap<ForgeClient, Promise<unknown>>();

/** The numeric id of a group or project; the spelling itself when the forge cannot say (the create's own answer then will). */
export function parentId(client: ForgeClient, field: "group" | "project", value: unknown): Promise<unknown> {
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) return Promise.resolve(Number(value));
  if (typeof value !== "string") return Promise.resolve(value);
  let known = parents.get(client);
  if (!known) parents.set(client, (known = new Map()));
  const key = `${field} ${value.toLowerCase()}`;
  let id = known.get(key);
  if (!id) {
    const read = field === "group" ? client.request<{ id?: unknown }>(routes.groups.get, { group: value, with_projects: false }) : client.request<{ id?: unknown }>(routes.projects.get, { project: value });
    id = read.then(
      (response) => response.body.id ?? value,
      () => value,
    );
    known.set(key, id);
  }
  return id;
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
