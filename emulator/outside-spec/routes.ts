import { routes } from "../../api/routes";
import { created, noContent, ok, paged, type RouteAnswer, routesOf } from "../core/routes";
import { answerGraphql } from "./graphql";
import type { OutsideSpec } from "./model";

const route = routesOf<OutsideSpec>();

/** The service's answer to a delete it carries out (or schedules) in the background. */
const accepted = (): RouteAnswer => ({ status: 202, body: { message: "202 Accepted" } });

/**
 * The service's endpoints outside the spec (each entry of api/routes.ts marked `outsideSpec`
 * that this folder serves): version, the caller, users, groups and projects made and deleted,
 * and GraphQL's current user.
 */
export const outsideSpecRoutes = [
  route(routes.version.get, (r, { endpoints }) => ok(endpoints.version(r.actor))),
  route(routes.version.metadata, (r, { endpoints }) => ok(endpoints.version(r.actor))),
  route(routes.user.get, (r, { endpoints }) => ok(endpoints.currentUser(r.actor))),
  route(routes.users.get, (r, { endpoints }) => ok(endpoints.user(r.actor, r.params.userId))),
  route(routes.users.create, (r, { endpoints }) => created(endpoints.createUser(r.actor, r.input))),
  route(routes.users.delete, (r, { endpoints }) => {
    endpoints.deleteUser(r.actor, r.params.userId);
    return noContent();
  }),
  route(routes.groups.create, (r, { endpoints }) => created(endpoints.createGroup(r.actor, r.input))),
  route(routes.groups.delete, (r, { endpoints }) => {
    endpoints.deleteGroup(r.actor, r.params.group, r.input);
    return accepted();
  }),
  route(routes.projects.create, (r, { endpoints }) => created(endpoints.createProject(r.actor, r.input))),
  route(routes.projects.delete, (r, { endpoints }) => {
    endpoints.deleteProject(r.actor, r.params.project, r.input);
    return accepted();
  }),
  route(routes.projects.update, (r, { core, projects }) =>
    ok(core.projectRecordFor(projects.update(r.actor, r.params.project, r.input), r.actor)),
  ),
  route(routes.projects.archive, (r, { core, projects }) =>
    created(core.projectRecordFor(projects.setArchived(r.actor, r.params.project, true), r.actor)),
  ),
  route(routes.projects.unarchive, (r, { core, projects }) =>
    created(core.projectRecordFor(projects.setArchived(r.actor, r.params.project, false), r.actor)),
  ),
  route(routes.projects.share, (r, { projects }) => created(projects.share(r.actor, r.params.project, r.input))),
  route(routes.projects.unshare, (r, { projects }) => {
    projects.unshare(r.actor, r.params.project, r.params.groupId);
    return noContent();
  }),
  route(routes.projectEnvironments.list, (r, { projects }) => paged(projects.listEnvironments(r.actor, r.params.project))),
  route(routes.projectEnvironments.get, (r, { projects }) =>
    ok(projects.getEnvironment(r.actor, r.params.project, r.params.environmentId)),
  ),
  route(routes.projectEnvironments.create, (r, { projects }) => created(projects.createEnvironment(r.actor, r.params.project, r.input))),
  route(routes.projectEnvironments.stop, (r, { projects }) =>
    ok(projects.stopEnvironment(r.actor, r.params.project, r.params.environmentId)),
  ),
  route(routes.projectEnvironments.delete, (r, { projects }) => {
    projects.deleteEnvironment(r.actor, r.params.project, r.params.environmentId);
    return noContent();
  }),
  route(routes.applicationSettings.get, (r, { endpoints }) => ok(endpoints.applicationSettings(r.actor))),
  route(routes.graphql.query, (r, { core }) => answerGraphql(core, r.actor, r.input)),
];
