import type { Core } from "../core/core";
import type { Route } from "../core/routes";
import { type GroupSettingsWriter, type OutsideSpec, ServiceEndpoints } from "./model";
import { outsideSpecRoutes } from "./routes";

/**
 * The service's endpoints outside the spec, kept apart from the spec's resources: they need one
 * thing of a resource (`PUT /groups/:id`'s settings, for `POST /groups`), which the registry hands
 * over once the resources exist.
 */
export const outsideSpec = {
  name: "outsideSpec",
  model: (core: Core, groupSettings: GroupSettingsWriter): OutsideSpec => ({ endpoints: new ServiceEndpoints(core, groupSettings), core }),
  routes: outsideSpecRoutes as readonly Route<OutsideSpec>[],
} as const;
