import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { ProjectMembers } from "./model";

const route = routesOf<ProjectMembers>();

/** Project members: direct and effective listings and reads, add, change, remove. */
export const projectMemberRoutes = [
  route(routes.projectMembers.list, (r, members) => paged(members.direct(r.actor, r.params, r.input))),
  route(routes.projectMembers.listAll, (r, members) => paged(members.all(r.actor, r.params, r.input))),
  route(routes.projectMembers.getAll, (r, members) => ok(members.getAll(r.actor, r.params, r.params.userId))),
  route(routes.projectMembers.get, (r, members) => ok(members.getDirect(r.actor, r.params, r.params.userId))),
  route(routes.projectMembers.create, (r, members) => created(members.add(r.actor, r.params, r.input))),
  route(routes.projectMembers.update, (r, members) => ok(members.update(r.actor, r.params, r.params.userId, r.input))),
  route(routes.projectMembers.delete, (r, members) => {
    members.remove(r.actor, r.params, r.params.userId, r.input);
    return noContent();
  }),
];
