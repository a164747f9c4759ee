/**
 * The API's endpoints as data, each written once and named (octokit's endpoint methods are the
 * model: `routes.groupLabels.create` names `POST /groups/:group/labels` as `rest.issues.create`
 * names `POST /repos/{owner}/{repo}/issues`): method, path template, the editions that have it
 * (the API's availability table), whether it answers anonymous callers, and deprecation.
 *
 * Nothing else writes a route: declarations, hooks, lookups, actions, forge-adopt and the CLIs
 * send `routes.<area>.<name>`, and the emulator registers its handlers under the same entries
 * (emulator/core/routes.ts), so a route the API does not have is a type error. No other file
 * holds a route string (test/unit/routes.test.ts reads every source file to make sure).
 *
 * Templates are relative to `/api/v4`; a `:name` segment is a parameter, named after the field
 * that fills it on every side: the provider's state field or lookup argument, the emulator's
 * `r.params.<name>` (typed from the template, {@link PathParams}).
 */
import type { HttpMethod } from "./index";
import { AVAILABILITY, type Availability } from "./editions";
import { INTEGRATIONS, type IntegrationSlug } from "./integrations";

/** What the table says of an endpoint besides its method and template. */
interface EndpointFacts {
  /** The editions that have it; absent: every edition. */
  readonly availability?: Availability;
  /** Answers anonymous callers too (the API's rule on reads without a token). */
  readonly anonymous?: true;
  /** Deprecated by the forge: what to use instead. */
  readonly deprecated?: string;
  /**
   * Not an endpoint of the spec: the service has it and clients rely on it (a version check, the
   * caller's record, a test suite's fixtures), so the emulator serves it as the service does.
   * What it is there for.
   */
  readonly outsideSpec?: string;
  /** What the template is relative to when it is not `/api/v4`: the service's GraphQL endpoint is `/api/graphql`. */
  readonly base?: "/api";
}

/** One endpoint of the API: an entry of {@link routes}. As text (`${endpoint}`): `GET /groups/:group`. */
export interface Endpoint<M extends HttpMethod = HttpMethod, P extends string = string> extends EndpointFacts {
  readonly method: M;
  readonly path: P;
}

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a template, by name: `{ group: string; labelId: string }`. */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string };

function endpoint<const M extends HttpMethod, const P extends string>(method: M, path: P, facts: EndpointFacts = {}): Endpoint<M, P> {
  const entry = { method, path, ...facts };
  // Messages, docs and keys print an endpoint as the API's docs write it.
  Object.defineProperty(entry, "toString", { value: () => `${method} ${path}` });
  return Object.freeze(entry);
}

const GET = <const P extends string>(path: P, facts?: EndpointFacts) => endpoint("GET", path, facts);
const POST = <const P extends string>(path: P, facts?: EndpointFacts) => endpoint("POST", path, facts);
const PUT = <const P extends string>(path: P, facts?: EndpointFacts) => endpoint("PUT", path, facts);
const PATCH = <const P extends string>(path: P, facts?: EndpointFacts) => endpoint("PATCH", path, facts);
const DELETE = <const P extends string>(path: P, facts?: EndpointFacts) => endpoint("DELETE", path, facts);

const CLUSTERS: EndpointFacts = {
  availability: AVAILABILITY.instanceClusters,
  deprecated: "certificate-based clusters are deprecated by the forge: connect clusters with cluster agents instead",
};
const ANONYMOUS: EndpointFacts = { anonymous: true };
const BY_LABEL_ID: EndpointFacts = { deprecated: "address the label by its id: /groups/:id/labels/:label_id" };
/** The service's endpoints that clients and test suites call before the spec's (emulator/outside-spec/). */
const SET_UP: EndpointFacts = { outsideSpec: "the service's set-up endpoint: clients and test suites call it before the spec's endpoints" };
/** Reads the library itself needs that the spec does not list. */
const LIBRARY_READ: EndpointFacts = { outsideSpec: "the service's read the library relies on (the spec shows no such endpoint)" };

/** The set-up, read and disable of one integration slug of the API's table of group integrations. */
interface IntegrationRoutes<S extends string> {
  get: Endpoint<"GET", `/groups/:group/integrations/${S}`>;
  set: Endpoint<"PUT", `/groups/:group/integrations/${S}`>;
  disable: Endpoint<"DELETE", `/groups/:group/integrations/${S}`>;
}

function integrationRoutes<S extends string>(slug: S): IntegrationRoutes<S> {
  const path = `/groups/:group/integrations/${slug}` as const;
  return { get: GET(path), set: PUT(path), disable: DELETE(path) };
}

/** The bulk moves of one kind of repository (`/<kind>_repository_storage_moves`). */
function storageMoves<const P extends string>(path: P, availability: Availability) {
  // The spec shows the bulk schedule only ("the operation that lists or reads moves: not shown").
  return {
    schedule: POST(path, { availability }),
    list: GET(path, { availability, ...LIBRARY_READ }),
    get: GET(`${path}/:moveId`, { availability, ...LIBRARY_READ }),
  };
}

/**
 * Every endpoint of the spec, and the service's endpoints outside it that the library or a
 * client's set-up relies on (marked `outsideSpec`: the caller's record, the version, creating and
 * deleting users, groups and projects, GraphQL's current user, the moves listing), by area and name.
 */
export const routes = {
  /** `GET /version` and its newer name `GET /metadata`: the release and edition the instance runs. */
  version: { get: GET("/version", SET_UP), metadata: GET("/metadata", SET_UP) },
  user: { get: GET("/user", SET_UP) },
  users: {
    list: GET("/users"),
    get: GET("/users/:userId", { ...SET_UP, anonymous: true }),
    create: POST("/users", SET_UP),
    delete: DELETE("/users/:userId", SET_UP),
  },
  /** `POST /api/graphql`: the emulator answers the `currentUser` query alone. */
  graphql: { query: POST("/graphql", { ...SET_UP, base: "/api", anonymous: true }) },
  groups: {
    list: GET("/groups", ANONYMOUS),
    get: GET("/groups/:group", ANONYMOUS),
    create: POST("/groups", SET_UP),
    delete: DELETE("/groups/:group", SET_UP),
    update: PUT("/groups/:group"),
    avatar: GET("/groups/:group/avatar", ANONYMOUS),
    projects: GET("/groups/:group/projects", ANONYMOUS),
    releases: GET("/groups/:group/releases"),
    ldapSync: POST("/groups/:group/ldap_sync", { availability: AVAILABILITY.ldapGroupSync }),
    revokeToken: POST("/groups/:group/tokens/revoke"),
    personalAccessTokens: GET("/groups/:group/manage/personal_access_tokens", { availability: AVAILABILITY.credentialsInventory }),
    resourceAccessTokens: GET("/groups/:group/manage/resource_access_tokens", { availability: AVAILABILITY.credentialsInventory }),
  },
  projects: {
    list: GET("/projects"),
    get: GET("/projects/:project", LIBRARY_READ),
    create: POST("/projects", SET_UP),
    update: PUT("/projects/:project", SET_UP),
    delete: DELETE("/projects/:project", SET_UP),
    archive: POST("/projects/:project/archive", SET_UP),
    unarchive: POST("/projects/:project/unarchive", SET_UP),
    /** Gives a group access to the project (the project members' rule that a group is given access by "a separate share operation"). */
    share: POST("/projects/:project/share", SET_UP),
    unshare: DELETE("/projects/:project/share/:groupId", SET_UP),
  },
  /** A project's environments: what a protected environment's name is for (the spec protects environments by name and has no environment endpoints). */
  projectEnvironments: {
    list: GET("/projects/:project/environments", SET_UP),
    get: GET("/projects/:project/environments/:environmentId", SET_UP),
    create: POST("/projects/:project/environments", SET_UP),
    stop: POST("/projects/:project/environments/:environmentId/stop", SET_UP),
    delete: DELETE("/projects/:project/environments/:environmentId", SET_UP),
  },
  /** The instance's application settings (administrators): clients read defaults there before making a project. */
  applicationSettings: { get: GET("/application/settings", SET_UP) },
  groupLabels: {
    list: GET("/groups/:group/labels"),
    create: POST("/groups/:group/labels"),
    updateByName: PUT("/groups/:group/labels", BY_LABEL_ID),
    deleteByName: DELETE("/groups/:group/labels", BY_LABEL_ID),
    get: GET("/groups/:group/labels/:labelId"),
    update: PUT("/groups/:group/labels/:labelId"),
    delete: DELETE("/groups/:group/labels/:labelId"),
    subscribe: POST("/groups/:group/labels/:labelId/subscribe"),
    unsubscribe: POST("/groups/:group/labels/:labelId/unsubscribe"),
  },
  broadcastMessages: {
    list: GET("/broadcast_messages", ANONYMOUS),
    get: GET("/broadcast_messages/:messageId", ANONYMOUS),
    create: POST("/broadcast_messages", { availability: AVAILABILITY.broadcastMessageWrites }),
    update: PUT("/broadcast_messages/:messageId", { availability: AVAILABILITY.broadcastMessageWrites }),
    delete: DELETE("/broadcast_messages/:messageId", { availability: AVAILABILITY.broadcastMessageWrites }),
  },
  clusterAgents: {
    list: GET("/projects/:project/cluster_agents"),
    get: GET("/projects/:project/cluster_agents/:agentId"),
    create: POST("/projects/:project/cluster_agents"),
    delete: DELETE("/projects/:project/cluster_agents/:agentId"),
  },
  clusterAgentTokens: {
    list: GET("/projects/:project/cluster_agents/:agentId/tokens"),
    get: GET("/projects/:project/cluster_agents/:agentId/tokens/:tokenId"),
    create: POST("/projects/:project/cluster_agents/:agentId/tokens"),
    delete: DELETE("/projects/:project/cluster_agents/:agentId/tokens/:tokenId"),
  },
  clusterAgentUrlConfigurations: {
    list: GET("/projects/:project/cluster_agents/:agentId/url_configurations", { availability: AVAILABILITY.agentUrlConfigurations }),
    get: GET("/projects/:project/cluster_agents/:agentId/url_configurations/:urlConfigurationId", {
      availability: AVAILABILITY.agentUrlConfigurations,
    }),
    create: POST("/projects/:project/cluster_agents/:agentId/url_configurations", { availability: AVAILABILITY.agentUrlConfigurations }),
    delete: DELETE("/projects/:project/cluster_agents/:agentId/url_configurations/:urlConfigurationId", {
      availability: AVAILABILITY.agentUrlConfigurations,
    }),
  },
  jobTokenScope: {
    get: GET("/projects/:project/job_token_scope"),
    update: PATCH("/projects/:project/job_token_scope"),
  },
  jobTokenScopeProjectAllowlist: {
    list: GET("/projects/:project/job_token_scope/allowlist"),
    create: POST("/projects/:project/job_token_scope/allowlist"),
    delete: DELETE("/projects/:project/job_token_scope/allowlist/:targetProjectId"),
  },
  jobTokenScopeGroupAllowlist: {
    list: GET("/projects/:project/job_token_scope/groups_allowlist"),
    create: POST("/projects/:project/job_token_scope/groups_allowlist"),
    delete: DELETE("/projects/:project/job_token_scope/groups_allowlist/:targetGroupId"),
  },
  projectProtectedEnvironments: {
    list: GET("/projects/:project/protected_environments", { availability: AVAILABILITY.protectedEnvironments }),
    get: GET("/projects/:project/protected_environments/:name", { availability: AVAILABILITY.protectedEnvironments }),
    create: POST("/projects/:project/protected_environments", { availability: AVAILABILITY.protectedEnvironments }),
    update: PUT("/projects/:project/protected_environments/:name", { availability: AVAILABILITY.protectedEnvironments }),
    delete: DELETE("/projects/:project/protected_environments/:name", { availability: AVAILABILITY.protectedEnvironments }),
  },
  groupProtectedEnvironments: {
    list: GET("/groups/:group/protected_environments", { availability: AVAILABILITY.protectedEnvironments }),
    get: GET("/groups/:group/protected_environments/:name", { availability: AVAILABILITY.protectedEnvironments }),
    create: POST("/groups/:group/protected_environments", { availability: AVAILABILITY.protectedEnvironments }),
    update: PUT("/groups/:group/protected_environments/:name", { availability: AVAILABILITY.protectedEnvironments }),
    delete: DELETE("/groups/:group/protected_environments/:name", { availability: AVAILABILITY.protectedEnvironments }),
  },
  featureFlagUserLists: {
    list: GET("/projects/:project/feature_flags_user_lists"),
    create: POST("/projects/:project/feature_flags_user_lists"),
    get: GET("/projects/:project/feature_flags_user_lists/:iid"),
    update: PUT("/projects/:project/feature_flags_user_lists/:iid"),
    delete: DELETE("/projects/:project/feature_flags_user_lists/:iid"),
  },
  virtualRegistryCleanupPolicy: {
    get: GET("/groups/:group/-/virtual_registries/cleanup/policy", { availability: AVAILABILITY.cleanupPolicies }),
    create: POST("/groups/:group/-/virtual_registries/cleanup/policy", { availability: AVAILABILITY.cleanupPolicies }),
    update: PATCH("/groups/:group/-/virtual_registries/cleanup/policy", { availability: AVAILABILITY.cleanupPolicies }),
    delete: DELETE("/groups/:group/-/virtual_registries/cleanup/policy", { availability: AVAILABILITY.cleanupPolicies }),
  },
  errorTrackingSettings: {
    get: GET("/projects/:project/error_tracking/settings"),
    /** PUT: sets up the settings (a project without any) and configures the integrated backend. */
    set: PUT("/projects/:project/error_tracking/settings"),
    update: PATCH("/projects/:project/error_tracking/settings"),
  },
  errorTrackingClientKeys: {
    list: GET("/projects/:project/error_tracking/client_keys"),
    create: POST("/projects/:project/error_tracking/client_keys"),
    delete: DELETE("/projects/:project/error_tracking/client_keys/:keyId"),
  },
  /** By kind of repository, as `STORAGE_MOVE_KINDS` names them. */
  repositoryStorageMoves: {
    project: storageMoves("/project_repository_storage_moves", AVAILABILITY.projectStorageMoves),
    snippet: storageMoves("/snippet_repository_storage_moves", AVAILABILITY.projectStorageMoves),
    group: storageMoves("/group_repository_storage_moves", AVAILABILITY.groupStorageMoves),
  },
  instanceClusters: {
    list: GET("/admin/clusters", CLUSTERS),
    add: POST("/admin/clusters/add", CLUSTERS),
    get: GET("/admin/clusters/:clusterId", CLUSTERS),
    update: PUT("/admin/clusters/:clusterId", CLUSTERS),
    delete: DELETE("/admin/clusters/:clusterId", CLUSTERS),
  },
  features: {
    list: GET("/features", { availability: AVAILABILITY.featureGates }),
    definitions: GET("/features/definitions", { availability: AVAILABILITY.featureGates }),
    set: POST("/features/:name", { availability: AVAILABILITY.featureGates }),
    delete: DELETE("/features/:name", { availability: AVAILABILITY.featureGates }),
  },
  groupIntegrations: {
    list: GET("/groups/:group/integrations"),
    /** One set-up, read and disable per slug of the API's table of group integrations (api/integrations.ts). */
    bySlug: Object.fromEntries((Object.keys(INTEGRATIONS) as IntegrationSlug[]).map((slug) => [slug, integrationRoutes(slug)])) as {
      readonly [S in IntegrationSlug]: IntegrationRoutes<S>;
    },
  },
  projectMembers: {
    list: GET("/projects/:project/members"),
    /** Everyone with access, inherited and invited members included, at their effective levels. */
    listAll: GET("/projects/:project/members/all"),
    getAll: GET("/projects/:project/members/all/:userId"),
    get: GET("/projects/:project/members/:userId"),
    create: POST("/projects/:project/members"),
    update: PUT("/projects/:project/members/:userId"),
    delete: DELETE("/projects/:project/members/:userId"),
  },
  snippets: {
    list: GET("/snippets"),
    listPublic: GET("/snippets/public", ANONYMOUS),
    listAll: GET("/snippets/all"),
    get: GET("/snippets/:snippetId"),
    raw: GET("/snippets/:snippetId/raw"),
    fileRaw: GET("/snippets/:snippetId/files/:ref/:filePath/raw"),
    create: POST("/snippets"),
    update: PUT("/snippets/:snippetId"),
    delete: DELETE("/snippets/:snippetId"),
  },
  geoSites: {
    list: GET("/geo_sites", { availability: AVAILABILITY.geoSites }),
    statuses: GET("/geo_sites/status", { availability: AVAILABILITY.geoSites }),
    create: POST("/geo_sites", { availability: AVAILABILITY.geoSites }),
    get: GET("/geo_sites/:siteId", { availability: AVAILABILITY.geoSites }),
    update: PUT("/geo_sites/:siteId", { availability: AVAILABILITY.geoSites }),
    delete: DELETE("/geo_sites/:siteId", { availability: AVAILABILITY.geoSites }),
    repair: POST("/geo_sites/:siteId/repair", { availability: AVAILABILITY.geoSites }),
  },
} as const;

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === "object" && value !== null && "method" in value && "path" in value;
}

/** The entries below `node`, each with its name (`groupLabels.create`). */
function entries(node: object, prefix: string): [string, Endpoint][] {
  return Object.entries(node).flatMap(([key, value]: [string, unknown]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isEndpoint(value)) return [[name, value] as [string, Endpoint]];
    return typeof value === "object" && value !== null ? entries(value, name) : [];
  });
}

const named = new Map(entries(routes, "").map(([name, entry]) => [entry, name]));

/** Every endpoint of {@link routes}, in the table's order. */
export const ENDPOINTS: readonly Endpoint[] = [...named.keys()];

/** The entry's name in {@link routes} (`groupLabels.create`); undefined for an object that is not one of its entries. */
export function endpointName(entry: Endpoint): string | undefined {
  return named.get(entry);
}
