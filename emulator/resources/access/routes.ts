import { routes } from "../../../api/routes";
import { ok, paged, routesOf } from "../../core/routes";
import { GROUP_KEYSET, PROJECT_KEYSET, type AccessReads } from "./model";

const route = routesOf<AccessReads>();

/**
 * The group and project records clients resolve paths with, and the listings of
 * groups, projects and users (with keyset pagination where the API allows it). Of these, only
 * the group reads work without a token (the API's rule on reads without a token).
 */
export const accessRoutes = [
  route(routes.groups.list, (r, access) => paged(access.groups(r.actor, r.input), GROUP_KEYSET)),
  route(routes.groups.get, (r, access) => ok(access.group(r.actor, r.params.group, r.input))),
  route(routes.projects.list, (r, access) => paged(access.projects(r.actor, r.input), PROJECT_KEYSET)),
  route(routes.projects.get, (r, access) => ok(access.project(r.actor, r.params.project))),
  route(routes.users.list, (r, access) => paged(access.users(r.actor, r.input), access.userKeyset)),
];
