import type { Core } from "../core/core";
import type { Route } from "../core/routes";
import { Collection } from "../core/collection";
import { type GroupSettingsWriter, type OutsideSpec, ServiceEndpoints } from "./model";
import { type EnvironmentRecord, ProjectChanges } from "./projects";
import { outsideSpecRoutes } from "./routes";

/**
 * The service's endpoints outside the spec, kept apart from the spec's resources: they need one
 * thing of a resource (`PUT /groups/:id`'s settings, for `POST /groups`), which the registry hands
 * over once the resources exist.
 */
export const outsideSpec = {
  name: "outsideSpec",
  /** State of its own: projects' environments (the key is the state file's). */
  collections: { environments: [] as EnvironmentRecord[] },
  model: (core: Core, groupSettings: GroupSettingsWriter): OutsideSpec => ({
    endpoints: new ServiceEndpoints(core, groupSettings),
    projects: new ProjectChanges(core, new Collection<EnvironmentRecord>(core, "environments")),
    core,
  }),
  routes: outsideSpecRoutes as readonly Route<OutsideSpec>[],
} as const;
