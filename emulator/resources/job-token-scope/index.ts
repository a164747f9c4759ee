import { defineResource } from "../../core/resource";
import { type JobTokenScopeRecord, JobTokenScopes } from "./model";
import { jobTokenScopeRoutes } from "./routes";

/** Per-project job token scope: the inbound switch and the project and group allowlists. */
export const jobTokenScope = defineResource({
  name: "jobTokenScopes",
  collections: { jobTokenScopes: [] as JobTokenScopeRecord[] },
  model: (core, collections) => new JobTokenScopes(core, collections.jobTokenScopes),
  routes: jobTokenScopeRoutes,
});
