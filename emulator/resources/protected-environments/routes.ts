import { created, noContent, ok, paged, type Route, routesOf } from "../../core/routes";
import type { ProtectedEnvironments, ProtectionScope } from "./model";

const route = routesOf<ProtectedEnvironments>();

/**
 * The same five operations at project level (free-text names) and at group level (tiers);
 * only the group DELETE answers 200. `:owner` is the project or the group.
 */
function routesAt(scope: ProtectionScope, owners: "projects" | "groups"): Route<ProtectedEnvironments>[] {
  const base = `/${owners}/:owner/protected_environments` as const;
  const one = `/${owners}/:owner/protected_environments/:environment` as const;
  return [
    route("GET", base, (r, environments) => paged(environments.list(r.actor, scope, r.params.owner))),
    route("GET", one, (r, environments) => ok(environments.get(r.actor, scope, r.params.owner, r.params.environment))),
    route("POST", base, (r, environments) => created(environments.create(r.actor, scope, r.params.owner, r.input))),
    route("PUT", one, (r, environments) =>
      ok(environments.update(r.actor, scope, r.params.owner, r.params.environment, r.input)),
    ),
    route("DELETE", one, (r, environments) => {
      environments.delete(r.actor, scope, r.params.owner, r.params.environment);
      // Document 2: the group-level DELETE answers 200 (no body is documented, none is sent).
      return scope === "group" ? { status: 200 } : noContent();
    }),
  ];
}

/** `/projects/:owner/protected_environments` and `/groups/:owner/protected_environments`. */
export const protectedEnvironmentRoutes = [
  ...routesAt("project", "projects"),
  ...routesAt("group", "groups"),
];
