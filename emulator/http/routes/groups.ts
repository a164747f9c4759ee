import type { RouteDefinition } from "../types";
import { ok, pathParam } from "../types";

/** `GET /groups/:id`: enough of the group record to resolve paths (no auth for public groups). */
export const groupRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/groups/:id",
    handler: (request, store) =>
      ok(store.groups.serialize(store.permissions.requireGroup(request.actor, pathParam(request, "id")))),
  },
];
