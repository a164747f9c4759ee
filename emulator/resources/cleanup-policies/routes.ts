import { routes } from "../../../api/routes";
import { created, noContent, ok, routesOf } from "../../core/routes";
import type { CleanupPolicies } from "./model";

const route = routesOf<CleanupPolicies>();

/** The one cleanup policy of a top-level group: read, create, change, delete (Premium). */
export const cleanupPolicyRoutes = [
  route(routes.virtualRegistryCleanupPolicy.get, (r, policies) => ok(policies.get(r.actor, r.params.group))),
  route(routes.virtualRegistryCleanupPolicy.create, (r, policies) => created(policies.create(r.actor, r.params.group, r.input))),
  route(routes.virtualRegistryCleanupPolicy.update, (r, policies) => ok(policies.update(r.actor, r.params.group, r.input))),
  route(routes.virtualRegistryCleanupPolicy.delete, (r, policies) => {
    policies.delete(r.actor, r.params.group);
    return noContent();
  }),
];
