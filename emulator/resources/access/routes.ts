import { ok, routesOf } from "../../core/routes";
import type { AccessReads } from "./model";

const route = routesOf<AccessReads>();

/** The caller, and the group and project records clients resolve paths with. */
export const accessRoutes = [
  route("GET", "/user", (r, access) => ok(access.currentUser(r.actor))),
  route("GET", "/groups/:group", (r, access) => ok(access.group(r.actor, r.params.group, r.input))),
  route("GET", "/projects/:project", (r, access) => ok(access.project(r.actor, r.params.project))),
];
