import { ok, paged, routesOf } from "../../core/routes";
import { GROUP_KEYSET, PROJECT_KEYSET, type AccessReads } from "./model";

const route = routesOf<AccessReads>();

/**
 * The caller, the group and project records clients resolve paths with, and the listings of
 * groups, projects and users (with keyset pagination where Document 1 allows it). Of these, only
 * the group reads work without a token (Document 1, Authentication rule 2).
 */
export const accessRoutes = [
  route("GET", "/user", (r, access) => ok(access.currentUser(r.actor))),
  route("GET", "/groups", (r, access) => paged(access.groups(r.actor, r.input), GROUP_KEYSET)),
  route("GET", "/groups/:group", (r, access) => ok(access.group(r.actor, r.params.group, r.input))),
  route("GET", "/projects", (r, access) => paged(access.projects(r.actor, r.input), PROJECT_KEYSET)),
  route("GET", "/projects/:project", (r, access) => ok(access.project(r.actor, r.params.project))),
  route("GET", "/users", (r, access) => paged(access.users(r.actor, r.input), access.userKeyset)),
];
