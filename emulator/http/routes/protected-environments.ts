import type { ProtectionScope } from "../../store/protected-environments";
import { paginate } from "../pagination";
import type { RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

/** The same five operations at project and at group level; only the group DELETE answers 200. */
function protectedEnvironmentRoutes(scope: ProtectionScope): RouteDefinition[] {
  const base = `/${scope === "project" ? "projects" : "groups"}/:id/protected_environments`;
  return [
    {
      method: "GET",
      path: base,
      handler: (r, store) => paginate(r, store.protectedEnvironments.list(r.actor, scope, pathParam(r, "id"))),
    },
    {
      method: "GET",
      path: `${base}/:name`,
      handler: (r, store) =>
        ok(store.protectedEnvironments.get(r.actor, scope, pathParam(r, "id"), pathParam(r, "name"))),
    },
    {
      method: "POST",
      path: base,
      handler: (r, store) => created(store.protectedEnvironments.create(r.actor, scope, pathParam(r, "id"), r.params)),
    },
    {
      method: "PUT",
      path: `${base}/:name`,
      handler: (r, store) =>
        ok(store.protectedEnvironments.update(r.actor, scope, pathParam(r, "id"), pathParam(r, "name"), r.params)),
    },
    {
      method: "DELETE",
      path: `${base}/:name`,
      handler: (r, store) => {
        store.protectedEnvironments.delete(r.actor, scope, pathParam(r, "id"), pathParam(r, "name"));
        // Document 2: the group-level DELETE answers 200 (no body is documented, none is sent).
        return scope === "group" ? { status: 200 } : noContent();
      },
    },
  ];
}

/** `/projects/:id/protected_environments` (free-text names). */
export const projectProtectedEnvironmentRoutes = protectedEnvironmentRoutes("project");
/** `/groups/:id/protected_environments` (tiers). */
export const groupProtectedEnvironmentRoutes = protectedEnvironmentRoutes("group");
