import type { RouteDefinition } from "../types";
import { ok, pathParam } from "../types";

/** `GET /projects/:id`: the project record lookups need. */
export const projectRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/projects/:id",
    handler: (request, store) =>
      ok(store.projects.serialize(store.permissions.requireProject(request.actor, pathParam(request, "id")))),
  },
];
