import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { ProjectMembers } from "./model";

const route = routesOf<ProjectMembers>();
const MEMBERS = "/projects/:project/members";

/** Project members: direct and effective listings and reads, add, change, remove. */
export const projectMemberRoutes = [
  route("GET", MEMBERS, (r, members) => paged(members.direct(r.actor, r.params, r.input))),
  route("GET", `${MEMBERS}/all`, (r, members) => paged(members.all(r.actor, r.params, r.input))),
  route("GET", `${MEMBERS}/all/:userId`, (r, members) => ok(members.getAll(r.actor, r.params, r.params.userId))),
  route("GET", `${MEMBERS}/:userId`, (r, members) => ok(members.getDirect(r.actor, r.params, r.params.userId))),
  route("POST", MEMBERS, (r, members) => created(members.add(r.actor, r.params, r.input))),
  route("PUT", `${MEMBERS}/:userId`, (r, members) => ok(members.update(r.actor, r.params, r.params.userId, r.input))),
  route("DELETE", `${MEMBERS}/:userId`, (r, members) => {
    members.remove(r.actor, r.params, r.params.userId, r.input);
    return noContent();
  }),
];
