import { defineResource } from "../../core/resource";
import { type IntegrationRecord, Integrations } from "./model";
import { integrationRoutes } from "./routes";

/** Group integrations, one route set per slug of the API's table of group integrations. */
export const integrations = defineResource({
  name: "integrations",
  collections: { integrations: [] as IntegrationRecord[] },
  model: (core, collections) => new Integrations(core, collections.integrations),
  routes: integrationRoutes,
});
