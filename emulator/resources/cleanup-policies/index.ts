import { defineResource } from "../../core/resource";
import { CleanupPolicies, type CleanupPolicyRecord } from "./model";
import { cleanupPolicyRoutes } from "./routes";

/** Virtual registry cleanup policies of top-level groups. */
export const cleanupPolicies = defineResource({
  name: "cleanupPolicies",
  collections: { cleanupPolicies: [] as CleanupPolicyRecord[] },
  model: (core, collections) => new CleanupPolicies(core, collections.cleanupPolicies),
  routes: cleanupPolicyRoutes,
});
