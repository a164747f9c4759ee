/**
 * A forge that a Terraform configuration of the GitLab provider made, and the state that
 * configuration left: the objects are made through the emulator's API (as the provider would),
 * then the state is written by hand in the provider's state format (v4), each instance with the
 * attributes the provider's documentation lists for its type, holding the ids the forge gave.
 * Used by test/cli/adopt-terraform.test.ts and test/e2e/adopt-terraform.test.ts.
 */
import type { World } from "../contract/world";

const PROVIDER = 'provider["registry.terraform.io/gitlabhq/gitlab"]';

/** The instance cluster's Kubernetes token, which the state holds and the forge never shows. */
export const KUBERNETES_TOKEN = "k8s-token-from-terraform";

interface Instance {
  index_key?: string | number;
  attributes: Record<string, unknown>;
  status?: string;
}

interface Resource {
  module?: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  provider: string;
  instances: Instance[];
}

export interface TerraformForge {
  /** The state file's content. */
  state: {
    version: 4;
    terraform_version: string;
    serial: number;
    lineage: string;
    outputs: Record<string, unknown>;
    resources: Resource[];
  };
  /** The agent tokens' values, which only the state holds. */
  tokens: string[];
  /** The forge objects the adoption must declare: `<type>\t<import id>\t<address>`, sorted. */
  expected: string[];
}

/** One instance as the state holds it: the provider's schema version and private data around the attributes. */
function instance(attributes: Record<string, unknown>, indexKey?: string | number, extra: Partial<Instance> = {}): Instance {
  return {
    ...(indexKey === undefined ? {} : { index_key: indexKey }),
    ...extra,
    attributes,
    sensitive_attributes: [],
    private: "bnVsbA==",
    schema_version: 0,
  } as Instance;
}

function managed(type: string, name: string, instances: Instance[], module?: string): Resource {
  return { ...(module ? { module } : {}), mode: "managed", type, name, provider: PROVIDER, instances };
}

/** Makes the objects on the forge, and returns the state Terraform would have written for them. */
export async function seedTerraformForge(world: World): Promise<TerraformForge> {
  const api = world.api;
  const post = async <T = Record<string, unknown>>(route: string, params: Record<string, unknown>) =>
    (await api.request<T>("POST", route, params)).body;
  const acme = world.groupId("acme");
  const platform = world.groupId("acme/platform");
  const web = world.projectId("acme/web");
  const apiProject = world.projectId("acme/api");
  const expected: string[] = [];
  const expect = (type: string, importId: string, address: string) => expected.push(`${type}\t${importId}\t${address}`);

  // gitlab_group_label: three through for_each in acme (the configuration names the group by path),
  // one through count in acme/platform (by id), and one whose state predates label_id (the id was the name).
  const labels: Instance[] = [];
  for (const [name, color] of [
    ["bug", "#FF0000"],
    ["feature", "#00AA00"],
    ["team::backend", "#336699"],
  ] as const) {
    const label = await post<{ id: number }>("/groups/:group/labels", { group: "acme", name, color, description: `${name} issues` });
    labels.push(
      instance(
        { id: `${acme}:${label.id}`, group: "acme", label_id: label.id, name, color, color_hex: color, description: `${name} issues` },
        name,
      ),
    );
    expect("GroupLabel", `acme:${label.id}`, `gitlab_group_label.area["${name}"]`);
  }
  const platformLabel = await post<{ id: number }>("/groups/:group/labels", {
    group: "acme/platform",
    name: "team::platform",
    color: "#123456",
  });
  const oldLabel = await post<{ id: number }>("/groups/:group/labels", { group: "acme", name: "legacy", color: "#999999" });
  expect("GroupLabel", `acme/platform:${platformLabel.id}`, "gitlab_group_label.platform[0]");
  expect("GroupLabel", `acme:${oldLabel.id}`, "gitlab_group_label.legacy");

  // gitlab_group: acme's settings differ from the defaults; acme/platform's do not (nothing to declare).
  await api.request("PUT", "/groups/:group", {
    group: "acme",
    description: "Acme's platform",
    project_creation_level: "maintainer",
    require_two_factor_authentication: true,
  });
  const group = (id: number, name: string, path: string, fullPath: string, extra: Record<string, unknown>) => ({
    id: String(id),
    name,
    path,
    full_path: fullPath,
    full_name: name,
    web_url: `${world.emulator.url}/groups/${fullPath}`,
    description: "",
    visibility_level: "private",
    parent_id: 0,
    avatar: null,
    avatar_hash: null,
    avatar_url: "",
    auto_devops_enabled: false,
    default_branch: "",
    default_branch_protection_defaults: [],
    emails_enabled: true,
    lfs_enabled: true,
    mentions_disabled: false,
    project_creation_level: "developer",
    push_rules: [],
    request_access_enabled: true,
    require_two_factor_authentication: false,
    runners_token: "GR1348941runners-token-of-the-group",
    share_with_group_lock: false,
    subgroup_creation_level: "maintainer",
    two_factor_grace_period: 48,
    permanently_remove_on_delete: false,
    ...extra,
  });
  expect("GroupSettings", "acme", "gitlab_group.acme");

  // module.agents: an agent and a token per cluster, through for_each over the clusters.
  const agents: Instance[] = [];
  const tokenInstances: Instance[] = [];
  const tokens: string[] = [];
  for (const [project, projectId, cluster] of [
    ["acme/web", web, "production"],
    ["acme/api", apiProject, "edge"],
  ] as const) {
    const agent = await post<{ id: number; created_at: string; created_by_user_id: number }>("/projects/:project/cluster_agents", {
      project,
      name: cluster,
    });
    agents.push(
      instance(
        {
          id: `${projectId}:${agent.id}`,
          project: String(projectId),
          name: cluster,
          agent_id: agent.id,
          created_at: agent.created_at,
          created_by_user_id: agent.created_by_user_id,
        },
        cluster,
      ),
    );
    expect("ClusterAgent", `${project}:${agent.id}`, `module.agents.gitlab_cluster_agent.this["${cluster}"]`);
    const token = await post<{ id: number; token: string; created_at: string }>("/projects/:project/cluster_agents/:agentId/tokens", {
      project,
      agentId: agent.id,
      name: `${cluster}-token`,
      description: `Token of ${cluster}`,
    });
    tokens.push(token.token);
    tokenInstances.push(
      instance(
        {
          id: `${projectId}:${agent.id}:${token.id}`,
          project: String(projectId),
          agent_id: agent.id,
          token_id: token.id,
          name: `${cluster}-token`,
          description: `Token of ${cluster}`,
          token: token.token,
          status: "active",
          created_at: token.created_at,
          created_by_user_id: 1,
          last_used_at: null,
        },
        cluster,
      ),
    );
    expect("ClusterAgentToken", `${project}:${agent.id}:${token.id}`, `module.agents.gitlab_cluster_agent_token.this["${cluster}"]`);
  }

  // gitlab_project_membership: one project named by path, the other by id.
  await post("/projects/:project/members", { project: "acme/web", username: "nomad", access_level: 30 });
  await post("/projects/:project/members", { project: "acme/api", username: "gus", access_level: 20 });
  const nomad = world.user("nomad").id;
  const gus = world.user("gus").id;
  expect("ProjectMember", `acme/web:${nomad}`, "gitlab_project_membership.nomad");
  expect("ProjectMember", `acme/api:${gus}`, "gitlab_project_membership.gus");

  // Protected environments of two projects and of a group.
  const olivia = world.user("olivia").id;
  await post("/projects/:project/protected_environments", {
    project: "acme/web",
    name: "production",
    deploy_access_levels: [{ access_level: 40 }],
    approval_rules: [{ user_id: olivia, required_approvals: 1 }],
  });
  await post("/projects/:project/protected_environments", {
    project: "acme/api",
    name: "staging",
    deploy_access_levels: [{ access_level: 30 }],
  });
  await post("/groups/:group/protected_environments", { group: "acme", name: "production", deploy_access_levels: [{ access_level: 40 }] });
  expect("ProjectProtectedEnvironment", "acme/web:production", "gitlab_project_protected_environment.web_production");
  expect("ProjectProtectedEnvironment", "acme/api:staging", "gitlab_project_protected_environment.api_staging");
  expect("GroupProtectedEnvironment", "acme:production", "gitlab_group_protected_environment.production");

  // The instance's cluster, its token only in the state.
  const cluster = await post<{ id: number; created_at: string }>("/admin/clusters/add", {
    name: "main",
    platform_vendor_attributes: { api_url: "https://k8s.example.com", token: KUBERNETES_TOKEN },
  });
  expect("InstanceCluster", String(cluster.id), "gitlab_instance_cluster.main");

  // The job token allowlist of acme/api, an entry at a time; the whole of acme/platform/deployer's.
  await post("/projects/:project/job_token_scope/allowlist", { project: "acme/api", target_project_id: web });
  await post("/projects/:project/job_token_scope/groups_allowlist", { project: "acme/api", target_group_id: platform });
  await api.request("PATCH", "/projects/:project/job_token_scope", { project: "acme/platform/deployer", enabled: true });
  await post("/projects/:project/job_token_scope/allowlist", { project: "acme/platform/deployer", target_project_id: apiProject });
  expect("JobTokenScopeProjectAllowlistEntry", `acme/api:${web}`, "gitlab_project_job_token_scope.api_from_web");
  expect("JobTokenScopeGroupAllowlistEntry", `acme/api:${platform}`, "gitlab_project_job_token_scope.api_from_platform");
  expect("JobTokenScope", "acme/platform/deployer", "gitlab_project_job_token_scopes.deployer");
  expect("JobTokenScopeProjectAllowlistEntry", `acme/platform/deployer:${apiProject}`, "gitlab_project_job_token_scopes.deployer");

  // A feature flag user list and the error tracking settings of acme/web.
  const userList = await post<{ id: number; iid: number; created_at: string; updated_at: string }>(
    "/projects/:project/feature_flags_user_lists",
    { project: "acme/web", name: "beta", user_xids: "user-1,user-2" },
  );
  await api.request("PUT", "/projects/:project/error_tracking/settings", { project: "acme/web", active: true, integrated: true });
  expect("FeatureFlagUserList", `acme/web:${userList.iid}`, "gitlab_project_feature_flag_user_list.beta");
  expect("ErrorTrackingSettings", "acme/web", "gitlab_project_error_tracking_settings.web");

  const resources: Resource[] = [
    {
      mode: "data",
      type: "gitlab_project",
      name: "web",
      provider: PROVIDER,
      instances: [instance({ id: String(web), path_with_namespace: "acme/web" })],
    },
    managed("gitlab_group", "acme", [
      instance(
        group(acme, "Acme", "acme", "acme", {
          description: "Acme's platform",
          project_creation_level: "maintainer",
          require_two_factor_authentication: true,
        }),
      ),
    ]),
    managed("gitlab_group", "platform", [instance(group(platform, "Platform", "platform", "acme/platform", { parent_id: acme }))]),
    managed("gitlab_group_label", "area", labels),
    managed("gitlab_group_label", "platform", [
      instance(
        {
          id: `${platform}:${platformLabel.id}`,
          group: String(platform),
          label_id: platformLabel.id,
          name: "team::platform",
          color: "#123456",
          color_hex: "#123456",
          description: "",
        },
        0,
      ),
    ]),
    // Written by a provider release before 16.0: the id was the label's name, and there was no label_id.
    managed("gitlab_group_label", "legacy", [instance({ id: "legacy", group: "acme", name: "legacy", color: "#999999", description: "" })]),
    managed("gitlab_group_label", "gone", [
      instance({
        id: `${acme}:999999`,
        group: "acme",
        label_id: 999_999,
        name: "gone",
        color: "#000000",
        color_hex: "#000000",
        description: "",
      }),
    ]),
    managed("gitlab_cluster_agent", "this", agents, "module.agents"),
    managed("gitlab_cluster_agent_token", "this", tokenInstances, "module.agents"),
    managed("gitlab_project_membership", "nomad", [
      instance({
        id: `acme/web:${nomad}`,
        project: "acme/web",
        user_id: nomad,
        access_level: "developer",
        expires_at: "",
        member_role_id: null,
      }),
    ]),
    managed("gitlab_project_membership", "gus", [
      instance({
        id: `${apiProject}:${gus}`,
        project: String(apiProject),
        user_id: gus,
        access_level: "reporter",
        expires_at: "",
        member_role_id: 3,
      }),
    ]),
    managed("gitlab_project_protected_environment", "web_production", [
      instance({
        id: "acme/web:production",
        project: "acme/web",
        environment: "production",
        deploy_access_levels_attribute: [
          {
            access_level: "maintainer",
            access_level_description: "Maintainers",
            group_id: null,
            group_inheritance_type: 0,
            id: 1,
            user_id: null,
          },
        ],
        approval_rules: [
          {
            access_level: null,
            access_level_description: "Olivia Owner",
            group_id: null,
            group_inheritance_type: 0,
            id: 1,
            required_approvals: 1,
            user_id: olivia,
          },
        ],
      }),
    ]),
    managed("gitlab_project_protected_environment", "api_staging", [
      instance({
        id: `${apiProject}:staging`,
        project: String(apiProject),
        environment: "staging",
        deploy_access_levels_attribute: [
          {
            access_level: "developer",
            access_level_description: "Developers + Maintainers",
            group_id: null,
            group_inheritance_type: 0,
            id: 2,
            user_id: null,
          },
        ],
        approval_rules: [],
      }),
    ]),
    managed("gitlab_group_protected_environment", "production", [
      instance({
        id: `${acme}:production`,
        group: String(acme),
        environment: "production",
        deploy_access_levels: [
          {
            access_level: "maintainer",
            access_level_description: "Maintainers",
            group_id: null,
            group_inheritance_type: 0,
            id: 3,
            user_id: null,
          },
        ],
        approval_rules: [],
      }),
    ]),
    managed("gitlab_instance_cluster", "main", [
      instance({
        id: String(cluster.id),
        name: "main",
        domain: "",
        enabled: true,
        environment_scope: "*",
        kubernetes_api_url: "https://k8s.example.com",
        kubernetes_token: KUBERNETES_TOKEN,
        kubernetes_ca_cert: "",
        kubernetes_namespace: "",
        kubernetes_authorization_type: "rbac",
        managed: true,
        management_project_id: "",
        cluster_type: "instance_type",
        platform_type: "kubernetes",
        provider_type: "user",
        created_at: cluster.created_at,
      }),
    ]),
    managed("gitlab_project_job_token_scope", "api_from_web", [
      instance({ id: `acme/api:project:${web}`, project: "acme/api", target_project_id: web, target_group_id: null }),
    ]),
    managed("gitlab_project_job_token_scope", "api_from_platform", [
      instance({ id: `acme/api:group:${platform}`, project: "acme/api", target_project_id: null, target_group_id: platform }),
    ]),
    managed("gitlab_project_job_token_scopes", "deployer", [
      instance({
        id: "acme/platform/deployer",
        project: "acme/platform/deployer",
        enabled: true,
        target_project_ids: [apiProject],
        target_group_ids: [],
      }),
    ]),
    managed("gitlab_project_feature_flag_user_list", "beta", [
      instance({
        id: `acme/web:${userList.iid}`,
        project: "acme/web",
        name: "beta",
        user_xids: "user-1,user-2",
        iid: userList.iid,
        list_id: userList.id,
        created_at: userList.created_at,
        updated_at: userList.updated_at,
      }),
    ]),
    managed("gitlab_project_error_tracking_settings", "web", [
      instance({
        id: String(web),
        project_id: String(web),
        active: true,
        integrated: true,
        api_url: null,
        project_name: null,
        sentry_external_url: null,
      }),
    ]),
    // Types no forge resource declares, and another provider's.
    managed("gitlab_project_variable", "deploy_key", [
      instance({
        id: "acme/web:DEPLOY_KEY:*",
        project: "acme/web",
        key: "DEPLOY_KEY",
        value: "secret-value",
        protected: true,
        masked: true,
      }),
    ]),
    managed("gitlab_group_badge", "docs", [
      instance({
        id: `${acme}:1`,
        group: String(acme),
        link_url: "https://docs.example.com",
        image_url: "https://docs.example.com/badge.svg",
      }),
    ]),
    {
      mode: "managed",
      type: "random_password",
      name: "webhook",
      provider: 'provider["registry.terraform.io/hashicorp/random"]',
      instances: [instance({ id: "none", result: "p4ssw0rd", length: 16 })],
    },
  ];
  expected.sort();
  return {
    state: { version: 4, terraform_version: "1.9.8", serial: 42, lineage: "4b1d2c43-6a52-4c8e-9a55-0d1d9f7e2f10", outputs: {}, resources },
    tokens,
    expected,
  };
}

/** Only the named attributes of `attributes` (those it has). */
function only(attributes: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => name in attributes).map((name) => [name, attributes[name]]));
}

/**
 * Each mapped type's attributes as the oldest provider release that had the type wrote them, from
 * today's: the 3.x line's (v3.20.0's documentation: the state of a team that never upgraded), and
 * for gitlab_project_job_token_scopes, which came in 17.0, 17.0's. The types that came later
 * (group protected environments 16.5, job token scope entries 16.3) have today's shape.
 */
const OLDEST_SHAPES: Record<string, (attributes: Record<string, unknown>, projectId: (path: string) => number) => Record<string, unknown>> =
  {
    gitlab_group: (attributes) => ({
      ...only(attributes, [
        "id",
        "name",
        "path",
        "full_path",
        "full_name",
        "web_url",
        "description",
        "visibility_level",
        "parent_id",
        "auto_devops_enabled",
        "lfs_enabled",
      ]),
      ...only(attributes, [
        "mentions_disabled",
        "project_creation_level",
        "request_access_enabled",
        "require_two_factor_authentication",
        "runners_token",
        "share_with_group_lock",
      ]),
      ...only(attributes, ["subgroup_creation_level", "two_factor_grace_period"]),
      emails_disabled: attributes["emails_enabled"] === false,
      default_branch_protection: 2,
      prevent_forking_outside_group: false,
      membership_lock: false,
      extra_shared_runners_minutes_limit: 0,
      shared_runners_minutes_limit: 0,
    }),
    // The id was the label's name; there was no label_id (16.0) and no color_hex.
    gitlab_group_label: (attributes) => ({ id: attributes["name"], ...only(attributes, ["group", "name", "color", "description"]) }),
    // `project_id` until 16.0 renamed it `project`; no member_role_id (17.9).
    gitlab_project_membership: (attributes) => ({
      id: attributes["id"],
      project_id: attributes["project"],
      ...only(attributes, ["user_id", "access_level", "expires_at"]),
    }),
    gitlab_cluster_agent: (attributes) => only(attributes, ["id", "project", "name", "agent_id", "created_at", "created_by_user_id"]),
    gitlab_cluster_agent_token: (attributes) =>
      only(attributes, [
        "id",
        "project",
        "agent_id",
        "token_id",
        "name",
        "description",
        "token",
        "status",
        "created_at",
        "created_by_user_id",
        "last_used_at",
      ]),
    gitlab_instance_cluster: (attributes) => ({ ...attributes }),
    // Nested `deploy_access_levels` blocks (`deploy_access_levels_attribute` came in 17.x) and a required approval count.
    gitlab_project_protected_environment: (attributes) => ({
      ...only(attributes, ["id", "project", "environment"]),
      deploy_access_levels: (attributes["deploy_access_levels_attribute"] as Record<string, unknown>[]).map((level) =>
        only(level, ["access_level", "access_level_description", "group_id", "user_id"]),
      ),
      required_approval_count: 0,
    }),
    // 17.0 to 17.2: the project's numeric `project_id`, no `project`, no `enabled`, no group entries.
    gitlab_project_job_token_scopes: (attributes, projectId) => ({
      id: String(projectId(String(attributes["project"]))),
      project_id: projectId(String(attributes["project"])),
      target_project_ids: attributes["target_project_ids"],
    }),
  };

/** The state as the oldest provider release that had each mapped type wrote it (schema_version 0 throughout). */
export function oldestProviderState(state: TerraformForge["state"], projectId: (path: string) => number): TerraformForge["state"] {
  return {
    ...state,
    resources: state.resources.map((resource) => {
      const shape = resource.mode === "managed" ? OLDEST_SHAPES[resource.type] : undefined;
      return shape
        ? {
            ...resource,
            instances: resource.instances.map((item) => ({ ...item, schema_version: 0, attributes: shape(item.attributes, projectId) })),
          }
        : resource;
    }),
  };
}
