/**
 * The example of each reference page: one set of values per resource and lookup, which
 * docs/reference/snippets.ts writes as a TypeScript program (the dynamic classes) and as a
 * Pulumi YAML program (the provider plugin). test/unit/reference-examples.test.ts parses every
 * example with the declaration's own zod schema, so that an example cannot drift from what the
 * resource takes; the integrations' examples come from their table (api/integrations.ts).
 */
import { INTEGRATIONS, integrationTypeSuffix, type IntegrationParameter } from "../../api/integrations";
import { toCamel } from "../../provider/engine/naming";

/** A value the program reads from its stack configuration as a secret: `config.requireSecret(key)`, `${key}` in YAML. */
export class SecretConfig {
  /** `sample` stands in for the value where the example is checked. */
  constructor(
    readonly key: string,
    readonly sample: string,
  ) {}
}

/** An output of another resource of the example: `agent.agentId`, `${agent.agentId}` in YAML. */
export class OutputOf {
  /** `sample` stands in for the value where the example is checked, and in the example import id. */
  constructor(
    readonly resource: string,
    readonly output: string,
    readonly sample: string | number,
  ) {}
}

/** One resource of an example: its type (a declaration's name), its name in the program and its inputs. */
export interface ExampleResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

export interface ResourceExample {
  /** Resources the page's resource takes an output of, declared before it. */
  before?: ExampleResource[];
  /** The page's resource's name in the program. */
  name: string;
  inputs: Record<string, unknown>;
  /** Values the forge assigns to id parts (`labelId: 17`), for the example import id. */
  assigned?: Record<string, string | number>;
}

const GROUP = "acme";
const PROJECT = "acme/platform/deployer";

/** The examples of the resources written by hand, by declaration name. */
const written: Record<string, ResourceExample> = {
  BroadcastMessage: {
    name: "maintenance",
    inputs: {
      message: "Upgrade to 18.2 on Saturday, 06:00 to 08:00 UTC",
      startsAt: "2026-12-05T06:00:00Z",
      endsAt: "2026-12-05T08:00:00Z",
      theme: "light-indigo",
    },
    assigned: { messageId: 3 },
  },
  ClusterAgent: { name: "production", inputs: { project: PROJECT, name: "production" }, assigned: { agentId: 42 } },
  ClusterAgentToken: {
    before: [{ type: "ClusterAgent", name: "agent", inputs: { project: PROJECT, name: "production" } }],
    name: "agentToken",
    inputs: {
      project: PROJECT,
      agentId: new OutputOf("agent", "agentId", 42),
      name: "primary",
      description: "Used by the production cluster",
    },
    assigned: { tokenId: 8 },
  },
  ClusterAgentUrlConfiguration: {
    before: [{ type: "ClusterAgent", name: "agent", inputs: { project: PROJECT, name: "edge" } }],
    name: "agentUrl",
    inputs: { project: PROJECT, agentId: new OutputOf("agent", "agentId", 42), url: "grpcs://agent.edge.example.com:8443" },
    assigned: { urlConfigurationId: 5 },
  },
  ErrorTrackingClientKey: { name: "sdkKey", inputs: { project: "acme/web", rotateOn: { quarter: "2026-Q4" } }, assigned: { keyId: 12 } },
  RotatingClusterAgentToken: {
    before: [{ type: "ClusterAgent", name: "agent", inputs: { project: PROJECT, name: "production" } }],
    name: "agentTokens",
    inputs: {
      project: PROJECT,
      agentId: new OutputOf("agent", "agentId", 42),
      name: "production",
      description: "The production cluster's agent",
      rotateAfter: "720h",
    },
  },
  RotatingErrorTrackingClientKey: {
    name: "sdkKeys",
    inputs: { project: "acme/web", rotateAfter: "2160h", keepers: { owner: "web-team" } },
  },
  ErrorTrackingSettings: { name: "errorTracking", inputs: { project: "acme/web", active: true, integrated: true } },
  Feature: { name: "newNavigation", inputs: { name: "new_navigation", percentageOfActors: 25 } },
  FeatureFlagUserList: {
    name: "betaTesters",
    inputs: { project: "acme/web", name: "beta-testers", userXids: ["jane", "omar"] },
    assigned: { iid: 2 },
  },
  GeoSite: { name: "euSecondary", inputs: { name: "eu-secondary", url: "https://eu.forge.example.com" }, assigned: { siteId: 2 } },
  GroupAvatar: { name: "avatar", inputs: { group: GROUP, avatar: "assets/acme.png" } },
  GroupLabel: {
    name: "bug",
    inputs: { group: GROUP, name: "type::bug", color: "#D9534F", description: "Something does not work as documented" },
    assigned: { labelId: 17 },
  },
  GroupLabelSubscription: {
    before: [{ type: "GroupLabel", name: "incident", inputs: { group: GROUP, name: "type::incident", color: "red" } }],
    name: "incidentSubscription",
    inputs: { group: GROUP, labelId: new OutputOf("incident", "labelId", 17) },
  },
  GroupSettings: {
    name: "acmeSettings",
    inputs: {
      group: GROUP,
      visibility: "internal",
      requireTwoFactorAuthentication: true,
      twoFactorGracePeriod: 48,
      projectCreationLevel: "maintainer",
    },
  },
  InstanceCluster: {
    name: "legacy",
    inputs: {
      name: "legacy-production",
      environmentScope: "production",
      platformVendorAttributes: {
        apiUrl: "https://k8s.example.com:6443",
        token: new SecretConfig("clusterToken", "cluster-token-sample"),
        namespace: "forge",
      },
    },
    assigned: { clusterId: 4 },
  },
  JobTokenScope: { name: "jobTokenScope", inputs: { project: PROJECT, enabled: true } },
  JobTokenScopeProjectAllowlistEntry: { name: "allowWeb", inputs: { project: PROJECT, targetProjectId: 31 } },
  JobTokenScopeGroupAllowlistEntry: { name: "allowPlatform", inputs: { project: PROJECT, targetGroupId: 9 } },
  ProjectMember: { name: "jane", inputs: { project: "acme/web", user: "jane", accessLevel: 40 }, assigned: { userId: 4 } },
  ProjectProtectedEnvironment: {
    name: "production",
    inputs: {
      project: PROJECT,
      name: "production",
      deployAccessLevels: [{ accessLevel: 40 }],
      approvalRules: [{ accessLevel: 40, requiredApprovals: 1 }],
    },
  },
  GroupProtectedEnvironment: {
    name: "productionTier",
    inputs: { group: GROUP, name: "production", deployAccessLevels: [{ accessLevel: 40 }], requiredApprovalCount: 1 },
  },
  RepositoryStorageMove: {
    name: "drainOld",
    inputs: { kind: "project", sourceStorageName: "default", destinationStorageName: "storage2" },
  },
  Snippet: {
    name: "onCall",
    inputs: {
      title: "On-call checklist",
      visibility: "internal",
      files: [{ filePath: "checklist.md", content: "1. Check the alerts\n2. Page the owner\n" }],
    },
    assigned: { snippetId: 7 },
  },
  VirtualRegistryCleanupPolicy: { name: "cleanup", inputs: { group: GROUP, cadence: 30, keepNDaysAfterDownload: 60, enabled: true } },
};

/** A value of a required integration parameter: a URL on the vendor's host, a credential from secret config, a sample text. */
function integrationValue(slug: string, wire: string, parameter: IntegrationParameter): unknown {
  const name = toCamel(wire);
  if (parameter.secret === "write-only") {
    const key = `${toCamel(slug.replace(/-/g, "_"))}${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    return new SecretConfig(key, parameter.format === "url" ? `https://hooks.${slug}.example.com/T0/B0/secret` : `${slug}-secret`);
  }
  if (parameter.type === "boolean") return true;
  if (parameter.values) return parameter.values[0];
  switch (parameter.format) {
    case "url":
      return `https://${slug}.example.com/${wire === "issues_url" ? "issues/:id" : wire === "new_issue_url" ? "issues/new" : "acme"}`;
    case "recipients":
      return "ops@example.com dev@example.com";
    default:
      return wire === "username" ? "forge-bot" : `acme-${wire.replace(/_/g, "-")}`;
  }
}

/** The examples of the group integrations: their required parameters, from the table. */
const integrations: Record<string, ResourceExample> = Object.fromEntries(
  Object.values(INTEGRATIONS).map((kind) => {
    const required = Object.entries(kind.parameters as Record<string, IntegrationParameter>).filter(([, parameter]) => parameter.required);
    const inputs = {
      group: GROUP,
      ...Object.fromEntries(required.map(([wire, parameter]) => [toCamel(wire), integrationValue(kind.slug, wire, parameter)])),
    };
    return [`GroupIntegration${integrationTypeSuffix(kind.slug)}`, { name: toCamel(kind.slug.replace(/-/g, "_")), inputs }];
  }),
);

/** The example of every resource, by declaration name. */
export const resourceExamples: Record<string, ResourceExample> = { ...written, ...integrations };

/**
 * Sample arguments of the lookups, by argument name: each lookup's example passes its required
 * arguments with these values (a lookup with a required argument not named here fails the
 * generation).
 */
export const lookupArgumentSamples: Record<string, unknown> = {
  group: GROUP,
  project: PROJECT,
  labelId: "type::bug",
  agentId: 42,
  repositoryStorage: "default",
  moveId: 3,
  snippetId: 7,
  filePath: "checklist.md",
  ref: "main",
};
