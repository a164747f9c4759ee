import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, type Route, routesOf } from "../../core/routes";
import type { AllowlistKind, JobTokenScopes } from "./model";

const route = routesOf<JobTokenScopes>();

/** The allowlists' endpoints, and the parameter their DELETE names the entry by. */
const ALLOWLISTS = [
  [routes.jobTokenScopeProjectAllowlist, "targetProjectId", "projects"],
  [routes.jobTokenScopeGroupAllowlist, "targetGroupId", "groups"],
] as const satisfies readonly [endpoints: unknown, target: string, kind: AllowlistKind][];

/** Job token scope settings and the project and group allowlists. */
export const jobTokenScopeRoutes: Route<JobTokenScopes>[] = [
  route(routes.jobTokenScope.get, (r, scopes) => ok(scopes.settings(r.actor, r.params.project))),
  route(routes.jobTokenScope.update, (r, scopes) => {
    scopes.update(r.actor, r.params.project, r.input);
    return noContent();
  }),
  ...ALLOWLISTS.flatMap(([allowlist, target, kind]) => [
    route(allowlist.list, (r, scopes) => paged(scopes.allowlist(r.actor, r.params.project, kind))),
    route(allowlist.create, (r, scopes) => created(scopes.addToAllowlist(r.actor, r.params.project, kind, r.input))),
    route(allowlist.delete, (r, scopes) => {
      scopes.removeFromAllowlist(r.actor, r.params.project, kind, (r.params as Record<typeof target, string>)[target]);
      return noContent();
    }),
  ]),
];
