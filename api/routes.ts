/**
 * The API's endpoints as data: method, path template, the editions that have it (Document 1's
 * availability table), whether it answers anonymous callers, and deprecation. The emulator
 * serves exactly these (emulator/registry.ts refuses a route that is not here and takes each
 * route's gates from here), the provider sends only these (test/unit/routes.test.ts matches every
 * route string of provider/ and cli/ against the table), and the policy pack warns about the
 * deprecated ones.
 *
 * Templates are relative to `/api/v4`; a `:name` segment is a parameter, and two templates of
 * the same shape (`/groups/:group` and `/groups/:id`) are the same endpoint: sides name their
 * parameters after their own fields.
 */
import { HTTP_METHODS, type HttpMethod } from "./index";
import { AVAILABILITY, type Availability } from "./editions";
import { INTEGRATIONS } from "./integrations";

export interface Endpoint {
  method: HttpMethod;
  path: string;
  /** The editions that have it; absent: every edition. */
  availability?: Availability;
  /** Answers anonymous callers too (Document 1, Authentication rule 2). */
  anonymous?: true;
  /** Deprecated by the forge: what to use instead. */
  deprecated?: string;
}

const CLUSTERS_DEPRECATED = "certificate-based clusters are deprecated by the forge: connect clusters with cluster agents instead";

/** Every endpoint of the spec (and the documented extras the library relies on, such as the moves listing). */
export const ENDPOINTS: readonly Endpoint[] = [
  { method: "GET", path: "/user" },
  { method: "GET", path: "/groups", anonymous: true },
  { method: "GET", path: "/groups/:group", anonymous: true },
  { method: "GET", path: "/projects" },
  { method: "GET", path: "/projects/:project" },
  { method: "GET", path: "/users" },
  { method: "GET", path: "/groups/:group/labels" },
  { method: "POST", path: "/groups/:group/labels" },
  { method: "PUT", path: "/groups/:group/labels", deprecated: "address the label by its id: /groups/:id/labels/:label_id" },
  { method: "DELETE", path: "/groups/:group/labels", deprecated: "address the label by its id: /groups/:id/labels/:label_id" },
  { method: "GET", path: "/groups/:group/labels/:labelId" },
  { method: "PUT", path: "/groups/:group/labels/:labelId" },
  { method: "DELETE", path: "/groups/:group/labels/:labelId" },
  { method: "POST", path: "/groups/:group/labels/:labelId/subscribe" },
  { method: "POST", path: "/groups/:group/labels/:labelId/unsubscribe" },
  { method: "GET", path: "/broadcast_messages", anonymous: true },
  { method: "GET", path: "/broadcast_messages/:messageId", anonymous: true },
  { method: "POST", path: "/broadcast_messages", availability: AVAILABILITY.broadcastMessageWrites },
  { method: "PUT", path: "/broadcast_messages/:messageId", availability: AVAILABILITY.broadcastMessageWrites },
  { method: "DELETE", path: "/broadcast_messages/:messageId", availability: AVAILABILITY.broadcastMessageWrites },
  { method: "GET", path: "/projects/:project/cluster_agents" },
  { method: "GET", path: "/projects/:project/cluster_agents/:agentId" },
  { method: "POST", path: "/projects/:project/cluster_agents" },
  { method: "DELETE", path: "/projects/:project/cluster_agents/:agentId" },
  { method: "GET", path: "/projects/:project/cluster_agents/:agentId/tokens" },
  { method: "GET", path: "/projects/:project/cluster_agents/:agentId/tokens/:tokenId" },
  { method: "POST", path: "/projects/:project/cluster_agents/:agentId/tokens" },
  { method: "DELETE", path: "/projects/:project/cluster_agents/:agentId/tokens/:tokenId" },
  { method: "GET", path: "/projects/:project/cluster_agents/:agentId/url_configurations", availability: AVAILABILITY.agentUrlConfigurations },
  { method: "GET", path: "/projects/:project/cluster_agents/:agentId/url_configurations/:configurationId", availability: AVAILABILITY.agentUrlConfigurations },
  { method: "POST", path: "/projects/:project/cluster_agents/:agentId/url_configurations", availability: AVAILABILITY.agentUrlConfigurations },
  { method: "DELETE", path: "/projects/:project/cluster_agents/:agentId/url_configurations/:configurationId", availability: AVAILABILITY.agentUrlConfigurations },
  { method: "GET", path: "/projects/:project/job_token_scope" },
  { method: "PATCH", path: "/projects/:project/job_token_scope" },
  { method: "GET", path: "/projects/:project/job_token_scope/allowlist" },
  { method: "POST", path: "/projects/:project/job_token_scope/allowlist" },
  { method: "DELETE", path: "/projects/:project/job_token_scope/allowlist/:target" },
  { method: "GET", path: "/projects/:project/job_token_scope/groups_allowlist" },
  { method: "POST", path: "/projects/:project/job_token_scope/groups_allowlist" },
  { method: "DELETE", path: "/projects/:project/job_token_scope/groups_allowlist/:target" },
  { method: "GET", path: "/projects/:owner/protected_environments", availability: AVAILABILITY.protectedEnvironments },
  { method: "GET", path: "/projects/:owner/protected_environments/:environment", availability: AVAILABILITY.protectedEnvironments },
  { method: "POST", path: "/projects/:owner/protected_environments", availability: AVAILABILITY.protectedEnvironments },
  { method: "PUT", path: "/projects/:owner/protected_environments/:environment", availability: AVAILABILITY.protectedEnvironments },
  { method: "DELETE", path: "/projects/:owner/protected_environments/:environment", availability: AVAILABILITY.protectedEnvironments },
  { method: "GET", path: "/groups/:owner/protected_environments", availability: AVAILABILITY.protectedEnvironments },
  { method: "GET", path: "/groups/:owner/protected_environments/:environment", availability: AVAILABILITY.protectedEnvironments },
  { method: "POST", path: "/groups/:owner/protected_environments", availability: AVAILABILITY.protectedEnvironments },
  { method: "PUT", path: "/groups/:owner/protected_environments/:environment", availability: AVAILABILITY.protectedEnvironments },
  { method: "DELETE", path: "/groups/:owner/protected_environments/:environment", availability: AVAILABILITY.protectedEnvironments },
  { method: "GET", path: "/projects/:project/feature_flags_user_lists" },
  { method: "POST", path: "/projects/:project/feature_flags_user_lists" },
  { method: "GET", path: "/projects/:project/feature_flags_user_lists/:iid" },
  { method: "PUT", path: "/projects/:project/feature_flags_user_lists/:iid" },
  { method: "DELETE", path: "/projects/:project/feature_flags_user_lists/:iid" },
  { method: "GET", path: "/groups/:group/-/virtual_registries/cleanup/policy", availability: AVAILABILITY.cleanupPolicies },
  { method: "POST", path: "/groups/:group/-/virtual_registries/cleanup/policy", availability: AVAILABILITY.cleanupPolicies },
  { method: "PATCH", path: "/groups/:group/-/virtual_registries/cleanup/policy", availability: AVAILABILITY.cleanupPolicies },
  { method: "DELETE", path: "/groups/:group/-/virtual_registries/cleanup/policy", availability: AVAILABILITY.cleanupPolicies },
  { method: "GET", path: "/projects/:project/error_tracking/settings" },
  { method: "PUT", path: "/projects/:project/error_tracking/settings" },
  { method: "PATCH", path: "/projects/:project/error_tracking/settings" },
  { method: "GET", path: "/projects/:project/error_tracking/client_keys" },
  { method: "POST", path: "/projects/:project/error_tracking/client_keys" },
  { method: "DELETE", path: "/projects/:project/error_tracking/client_keys/:keyId" },
  { method: "POST", path: "/project_repository_storage_moves", availability: AVAILABILITY.projectStorageMoves },
  { method: "GET", path: "/project_repository_storage_moves", availability: AVAILABILITY.projectStorageMoves },
  { method: "GET", path: "/project_repository_storage_moves/:moveId", availability: AVAILABILITY.projectStorageMoves },
  { method: "POST", path: "/snippet_repository_storage_moves", availability: AVAILABILITY.projectStorageMoves },
  { method: "GET", path: "/snippet_repository_storage_moves", availability: AVAILABILITY.projectStorageMoves },
  { method: "GET", path: "/snippet_repository_storage_moves/:moveId", availability: AVAILABILITY.projectStorageMoves },
  { method: "POST", path: "/group_repository_storage_moves", availability: AVAILABILITY.groupStorageMoves },
  { method: "GET", path: "/group_repository_storage_moves", availability: AVAILABILITY.groupStorageMoves },
  { method: "GET", path: "/group_repository_storage_moves/:moveId", availability: AVAILABILITY.groupStorageMoves },
  { method: "GET", path: "/admin/clusters", availability: AVAILABILITY.instanceClusters, deprecated: CLUSTERS_DEPRECATED },
  { method: "POST", path: "/admin/clusters/add", availability: AVAILABILITY.instanceClusters, deprecated: CLUSTERS_DEPRECATED },
  { method: "GET", path: "/admin/clusters/:clusterId", availability: AVAILABILITY.instanceClusters, deprecated: CLUSTERS_DEPRECATED },
  { method: "PUT", path: "/admin/clusters/:clusterId", availability: AVAILABILITY.instanceClusters, deprecated: CLUSTERS_DEPRECATED },
  { method: "DELETE", path: "/admin/clusters/:clusterId", availability: AVAILABILITY.instanceClusters, deprecated: CLUSTERS_DEPRECATED },
  { method: "GET", path: "/features", availability: AVAILABILITY.featureGates },
  { method: "GET", path: "/features/definitions", availability: AVAILABILITY.featureGates },
  { method: "POST", path: "/features/:name", availability: AVAILABILITY.featureGates },
  { method: "DELETE", path: "/features/:name", availability: AVAILABILITY.featureGates },
  { method: "PUT", path: "/groups/:group" },
  { method: "GET", path: "/groups/:group/avatar", anonymous: true },
  { method: "GET", path: "/groups/:group/projects", anonymous: true },
  { method: "GET", path: "/groups/:group/releases" },
  { method: "POST", path: "/groups/:group/ldap_sync", availability: AVAILABILITY.ldapGroupSync },
  { method: "POST", path: "/groups/:group/tokens/revoke" },
  { method: "GET", path: "/groups/:group/manage/personal_access_tokens", availability: AVAILABILITY.credentialsInventory },
  { method: "GET", path: "/groups/:group/manage/resource_access_tokens", availability: AVAILABILITY.credentialsInventory },
  { method: "GET", path: "/groups/:group/integrations" },
  { method: "GET", path: "/projects/:project/members" },
  { method: "GET", path: "/projects/:project/members/all" },
  { method: "GET", path: "/projects/:project/members/all/:userId" },
  { method: "GET", path: "/projects/:project/members/:userId" },
  { method: "POST", path: "/projects/:project/members" },
  { method: "PUT", path: "/projects/:project/members/:userId" },
  { method: "DELETE", path: "/projects/:project/members/:userId" },
  { method: "GET", path: "/snippets" },
  { method: "GET", path: "/snippets/public", anonymous: true },
  { method: "GET", path: "/snippets/all" },
  { method: "GET", path: "/snippets/:snippetId" },
  { method: "GET", path: "/snippets/:snippetId/raw" },
  { method: "GET", path: "/snippets/:snippetId/files/:ref/:filePath/raw" },
  { method: "POST", path: "/snippets" },
  { method: "PUT", path: "/snippets/:snippetId" },
  { method: "DELETE", path: "/snippets/:snippetId" },
  { method: "GET", path: "/geo_sites", availability: AVAILABILITY.geoSites },
  { method: "GET", path: "/geo_sites/status", availability: AVAILABILITY.geoSites },
  { method: "POST", path: "/geo_sites", availability: AVAILABILITY.geoSites },
  { method: "GET", path: "/geo_sites/:siteId", availability: AVAILABILITY.geoSites },
  { method: "PUT", path: "/geo_sites/:siteId", availability: AVAILABILITY.geoSites },
  { method: "DELETE", path: "/geo_sites/:siteId", availability: AVAILABILITY.geoSites },
  { method: "POST", path: "/geo_sites/:siteId/repair", availability: AVAILABILITY.geoSites },
  // One set-up, read and disable per slug of Document 3's table.
  ...Object.keys(INTEGRATIONS).flatMap((slug) =>
    (["GET", "PUT", "DELETE"] as const).map((method): Endpoint => ({ method, path: `/groups/:group/integrations/${slug}` })),
  ),
];

/** A template's shape: its parameters as `:`, so that names do not matter. */
export function templateShape(path: string): string {
  return path.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, ":");
}

const byShape = new Map(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${templateShape(endpoint.path)}`, endpoint]));

/** The endpoint a method and template address, or undefined when the API has none. */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  return HTTP_METHODS.includes(method as HttpMethod) ? byShape.get(`${method} ${templateShape(path)}`) : undefined;
}
