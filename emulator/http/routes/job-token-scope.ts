import { paginate } from "../pagination";
import type { RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

const SCOPE = "/projects/:id/job_token_scope";

/** Job token scope settings and the project and group allowlists. */
export const jobTokenScopeRoutes: RouteDefinition[] = [
  { method: "GET", path: SCOPE, handler: (r, store) => ok(store.jobTokenScopes.settings(r.actor, pathParam(r, "id"))) },
  {
    method: "PATCH",
    path: SCOPE,
    handler: (r, store) => {
      store.jobTokenScopes.update(r.actor, pathParam(r, "id"), r.params);
      return noContent();
    },
  },
  {
    method: "GET",
    path: `${SCOPE}/allowlist`,
    handler: (r, store) => paginate(r, store.jobTokenScopes.projects(r.actor, pathParam(r, "id"))),
  },
  {
    method: "POST",
    path: `${SCOPE}/allowlist`,
    handler: (r, store) => created(store.jobTokenScopes.addProject(r.actor, pathParam(r, "id"), r.params)),
  },
  {
    method: "DELETE",
    path: `${SCOPE}/allowlist/:target_project_id`,
    handler: (r, store) => {
      store.jobTokenScopes.removeProject(r.actor, pathParam(r, "id"), pathParam(r, "target_project_id"));
      return noContent();
    },
  },
  {
    method: "GET",
    path: `${SCOPE}/groups_allowlist`,
    handler: (r, store) => paginate(r, store.jobTokenScopes.groups(r.actor, pathParam(r, "id"))),
  },
  {
    method: "POST",
    path: `${SCOPE}/groups_allowlist`,
    handler: (r, store) => created(store.jobTokenScopes.addGroup(r.actor, pathParam(r, "id"), r.params)),
  },
  {
    method: "DELETE",
    path: `${SCOPE}/groups_allowlist/:target_group_id`,
    handler: (r, store) => {
      store.jobTokenScopes.removeGroup(r.actor, pathParam(r, "id"), pathParam(r, "target_group_id"));
      return noContent();
    },
  },
];
