import { defineResource } from "../../core/resource";
import { type ProtectedEnvironmentRecord, ProtectedEnvironments } from "./model";
import { protectedEnvironmentRoutes } from "./routes";

/** Protected environments of projects and groups, with deploy access levels and approval rules. */
export const protectedEnvironments = defineResource({
  name: "protectedEnvironments",
  collections: { protectedEnvironments: [] as ProtectedEnvironmentRecord[] },
  model: (core, collections) => new ProtectedEnvironments(core, collections.protectedEnvironments),
  routes: protectedEnvironmentRoutes,
});
