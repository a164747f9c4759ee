import { created, noContent, ok, routesOf } from "../../core/routes";
import type { CleanupPolicies } from "./model";

const route = routesOf<CleanupPolicies>();
const POLICY = "/groups/:group/-/virtual_registries/cleanup/policy";

/** The one cleanup policy of a top-level group: read, create, change, delete (Premium). */
export const cleanupPolicyRoutes = [
  route("GET", POLICY, (r, policies) => ok(policies.get(r.actor, r.params.group))),
  route("POST", POLICY, (r, policies) => created(policies.create(r.actor, r.params.group, r.input))),
  route("PATCH", POLICY, (r, policies) => ok(policies.update(r.actor, r.params.group, r.input))),
  route("DELETE", POLICY, (r, policies) => {
    policies.delete(r.actor, r.params.group);
    return noContent();
  }),
];
