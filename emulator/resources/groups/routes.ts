import { routes } from "../../../api/routes";
import { file, ok, paged, routesOf } from "../../core/routes";
import type { GroupManagement } from "./model";

const route = routesOf<GroupManagement>();

/**
 * `PUT /groups/:id` (settings and avatar), the avatar download and the group's projects (both
 * anonymous for public groups, the API's rule on reads without a token), its releases, and LDAP sync (202).
 */
export const groupRoutes = [
  route(routes.groups.update, (r, groups) => ok(groups.update(r.actor, r.params.group, r.input))),
  route(routes.groups.avatar, (r, groups) => file(groups.avatar(r.actor, r.params.group))),
  route(routes.groups.projects, (r, groups) => paged(groups.projects(r.actor, r.params.group, r.input))),
  route(routes.groups.releases, (r, groups) => paged(groups.groupReleases(r.actor, r.params.group, r.input))),
  route(routes.groups.ldapSync, (r, groups) => {
    groups.ldapSync(r.actor, r.params.group);
    return { status: 202, body: { message: "202 Accepted" } };
  }),
];
