import { created, noContent, ok, paged, type Route, routesOf } from "../../core/routes";
import type { AllowlistKind, JobTokenScopes } from "./model";

const route = routesOf<JobTokenScopes>();
const SCOPE = "/projects/:project/job_token_scope";

/** The allowlists' path segments. */
const ALLOWLISTS: readonly [segment: string, kind: AllowlistKind][] = [
  ["allowlist", "projects"],
  ["groups_allowlist", "groups"],
];

/** Job token scope settings and the project and group allowlists. */
export const jobTokenScopeRoutes: Route<JobTokenScopes>[] = [
  route("GET", SCOPE, (r, scopes) => ok(scopes.settings(r.actor, r.params.project))),
  route("PATCH", SCOPE, (r, scopes) => {
    scopes.update(r.actor, r.params.project, r.input);
    return noContent();
  }),
  ...ALLOWLISTS.flatMap(([segment, kind]) => [
    route("GET", `${SCOPE}/${segment}`, (r, scopes) => paged(scopes.allowlist(r.actor, r.params.project, kind))),
    route("POST", `${SCOPE}/${segment}`, (r, scopes) =>
      created(scopes.addToAllowlist(r.actor, r.params.project, kind, r.input)),
    ),
    route("DELETE", `${SCOPE}/${segment}/:target`, (r, scopes) => {
      scopes.removeFromAllowlist(r.actor, r.params.project, kind, r.params.target);
      return noContent();
    }),
  ]),
];
