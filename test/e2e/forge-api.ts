/**
 * The emulator seen through its API (as the seed's administrator): what the e2e tests change
 * behind Pulumi's back and what they assert on.
 */
import { isNotFound, type ForgeClient } from "../../provider/client";

export type Rec = Record<string, unknown>;

export const AGENT_PROJECT = "acme/platform/deployer";
export const SCOPE_PROJECT = "acme/api";
export const ENV_PROJECT = "acme/web";

export class ForgeApi {
  constructor(readonly client: ForgeClient) {}

  async get(path: string, params: Rec = {}): Promise<Rec | undefined> {
    try {
      return (await this.client.request<Rec>("GET", path, params)).body;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async send(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, params: Rec = {}): Promise<Rec> {
    return (await this.client.request<Rec>(method, path, params)).body;
  }

  list(path: string, params: Rec = {}): Promise<Rec[]> {
    return this.client.list<Rec>(path, params);
  }

  labels(group: string) {
    return this.list("/groups/:group/labels", { group, include_ancestor_groups: false });
  }
  label(group: string, labelId: unknown) {
    return this.get("/groups/:group/labels/:labelId", { group, labelId });
  }
  messages() {
    return this.list("/broadcast_messages");
  }
  agents() {
    return this.list("/projects/:project/cluster_agents", { project: AGENT_PROJECT });
  }
  tokens(agentId: unknown) {
    return this.list("/projects/:project/cluster_agents/:agentId/tokens", { project: AGENT_PROJECT, agentId });
  }
  async urlConfigurations(agentId: unknown): Promise<Rec[]> {
    try {
      return (await this.client.request<Rec[]>("GET", "/projects/:project/cluster_agents/:agentId/url_configurations", { project: AGENT_PROJECT, agentId })).body;
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }
  async scopeEnabled(project: string): Promise<boolean> {
    const scope = await this.get("/projects/:project/job_token_scope", { project });
    return scope?.["inbound_enabled"] === true;
  }
  /** Allowlisted projects, without the source project (always listed first, as the service does). */
  async allowedProjects(project: string): Promise<number[]> {
    const source = (await this.get("/projects/:project", { project }))?.["id"];
    return (await this.list("/projects/:project/job_token_scope/allowlist", { project })).map((p) => p["id"] as number).filter((id) => id !== source);
  }
  async allowedGroups(project: string): Promise<number[]> {
    return (await this.list("/projects/:project/job_token_scope/groups_allowlist", { project })).map((g) => g["id"] as number);
  }
  projectEnvironments(project: string) {
    return this.list("/projects/:project/protected_environments", { project });
  }
  groupEnvironments(group: string) {
    return this.list("/groups/:group/protected_environments", { group });
  }

  /** How many objects of each kind the tests manage exist now. */
  async census(): Promise<Record<string, number>> {
    const agents = await this.agents();
    let tokens = 0;
    let urlConfigurations = 0;
    for (const agent of agents) {
      tokens += (await this.tokens(agent["id"])).length;
      urlConfigurations += (await this.urlConfigurations(agent["id"])).length;
    }
    const labels = (await this.labels("acme")).length + (await this.labels("acme/platform")).length;
    const subscribed = [...(await this.labels("acme")), ...(await this.labels("acme/platform"))].filter((l) => l["subscribed"] === true).length;
    let allowedProjects = 0;
    let allowedGroups = 0;
    for (const project of ["acme/web", "acme/api", "acme/platform/deployer"]) {
      allowedProjects += (await this.allowedProjects(project)).length;
      allowedGroups += (await this.allowedGroups(project)).length;
    }
    return {
      labels,
      subscriptions: subscribed,
      messages: (await this.messages()).length,
      agents: agents.length,
      tokens,
      urlConfigurations,
      allowedProjects,
      allowedGroups,
      projectEnvironments: (await this.projectEnvironments("acme/web")).length + (await this.projectEnvironments("acme/api")).length,
      groupEnvironments: (await this.groupEnvironments("acme")).length,
    };
  }
}

/** The census of the e2e stack as declared (defaults of test/e2e/programs/all). */
export const DECLARED_CENSUS = {
  labels: 1,
  subscriptions: 1,
  messages: 1,
  agents: 2,
  tokens: 2,
  urlConfigurations: 2,
  allowedProjects: 1,
  allowedGroups: 1,
  projectEnvironments: 1,
  groupEnvironments: 1,
};

export const EMPTY_CENSUS = Object.fromEntries(Object.keys(DECLARED_CENSUS).map((key) => [key, 0]));
