import { defineResource } from "../../core/resource";
import { ProjectMembers, type QueuedMembership } from "./model";
import { projectMemberRoutes } from "./routes";

/** Project members; the memberships themselves are core's (projects' `members`). */
export const projectMembers = defineResource({
  name: "projectMembers",
  collections: { queuedMemberships: [] as QueuedMembership[] },
  model: (core, collections) => new ProjectMembers(core, collections.queuedMemberships),
  routes: projectMemberRoutes,
});
