import { paginate } from "../pagination";
import type { RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

/** Broadcast messages: reads are public, writes need an administrator. */
export const broadcastMessageRoutes: RouteDefinition[] = [
  { method: "GET", path: "/broadcast_messages", handler: (r, store) => paginate(r, store.broadcastMessages.list()) },
  {
    method: "GET",
    path: "/broadcast_messages/:id",
    handler: (r, store) => ok(store.broadcastMessages.get(pathParam(r, "id"))),
  },
  {
    method: "POST",
    path: "/broadcast_messages",
    handler: (r, store) => created(store.broadcastMessages.create(r.actor, r.params)),
  },
  {
    method: "PUT",
    path: "/broadcast_messages/:id",
    handler: (r, store) => ok(store.broadcastMessages.update(r.actor, pathParam(r, "id"), r.params)),
  },
  {
    method: "DELETE",
    path: "/broadcast_messages/:id",
    handler: (r, store) => {
      store.broadcastMessages.delete(r.actor, pathParam(r, "id"));
      return noContent();
    },
  },
];
