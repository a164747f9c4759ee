import { file, ok, paged, routesOf } from "../../core/routes";
import type { GroupManagement } from "./model";

const route = routesOf<GroupManagement>();

/**
 * `PUT /groups/:id` (settings and avatar), the avatar download and the group's projects (both
 * anonymous for public groups, Document 1 rule 2), its releases, and LDAP sync (202).
 */
export const groupRoutes = [
  route("PUT", "/groups/:group", (r, groups) => ok(groups.update(r.actor, r.params.group, r.input))),
  route("GET", "/groups/:group/avatar", (r, groups) => file(groups.avatar(r.actor, r.params.group))),
  route("GET", "/groups/:group/projects", (r, groups) => paged(groups.projects(r.actor, r.params.group, r.input))),
  route("GET", "/groups/:group/releases", (r, groups) => paged(groups.groupReleases(r.actor, r.params.group, r.input))),
  route("POST", "/groups/:group/ldap_sync", (r, groups) => {
    groups.ldapSync(r.actor, r.params.group);
    return { status: 202, body: { message: "202 Accepted" } };
  }),
];
