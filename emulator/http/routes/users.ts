import type { RouteDefinition } from "../types";
import { ok } from "../types";

/** `GET /user`: the caller, so that clients can check their credentials. */
export const userRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/user",
    handler: (request, store) => ok(store.users.current(store.permissions.requireUser(request.actor))),
  },
];
