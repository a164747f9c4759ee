import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, type Route, routesOf } from "../../core/routes";
import type { ProtectedEnvironments, ProtectionScope } from "./model";

const route = routesOf<ProtectedEnvironments>();

/**
 * The same five operations at project level (free-text names) and at group level (tiers);
 * only the group DELETE answers 200. The owner is the project or the group (`:project`,
 * `:group`), the environment `:name`.
 */
function routesAt(
  scope: ProtectionScope,
  endpoints: typeof routes.projectProtectedEnvironments | typeof routes.groupProtectedEnvironments,
): Route<ProtectedEnvironments>[] {
  const owner = (r: { params: Record<string, string> }) => r.params[scope] as string;
  return [
    route(endpoints.list, (r, environments) => paged(environments.list(r.actor, scope, owner(r)))),
    route(endpoints.get, (r, environments) => ok(environments.get(r.actor, scope, owner(r), r.params.name))),
    route(endpoints.create, (r, environments) => created(environments.create(r.actor, scope, owner(r), r.input))),
    route(endpoints.update, (r, environments) => ok(environments.update(r.actor, scope, owner(r), r.params.name, r.input))),
    route(endpoints.delete, (r, environments) => {
      environments.delete(r.actor, scope, owner(r), r.params.name);
      // The group-level DELETE answers 200 (no body is documented, none is sent).
      return scope === "group" ? { status: 200 } : noContent();
    }),
  ];
}

/** `/projects/:project/protected_environments` and `/groups/:group/protected_environments`. */
export const protectedEnvironmentRoutes = [
  ...routesAt("project", routes.projectProtectedEnvironments),
  ...routesAt("group", routes.groupProtectedEnvironments),
];
