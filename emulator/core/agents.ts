import { AccessLevel } from "../../spec";
import { Collection } from "./collection";
import type { Permissions } from "./permissions";
import type { Actor, ProjectRecord } from "./records";
import type { Database } from "./state";

/*
 * Cluster agents are a resource of their own, but two other resources (agent tokens and URL
 * configurations) live below them: the rule "the agent of this path, once the caller has a
 * role in its project" and the cascade on deletion are shared, so they live here. Core knows
 * only what those rules need of an agent: its id and its project.
 */

/** Reads of agents, tokens and URL configurations need Developer; writes Maintainer. */
export const AGENT_READ_LEVEL = AccessLevel.Developer;
export const AGENT_WRITE_LEVEL = AccessLevel.Maintainer;

/** State key of the cluster agents collection (declared by the cluster-agents resource). */
export const AGENTS_COLLECTION = "clusterAgents";

/** What the shared rules know of an agent registration. */
export interface AgentLink {
  id: number;
  project_id: number;
}

/** The agent scope: lookups by path, and removal with everything below the agent. */
export class Agents {
  private readonly records: Collection<AgentLink>;
  private readonly dependents: ((agentId: number) => void)[] = [];

  constructor(
    database: Database,
    private readonly permissions: Permissions,
  ) {
    this.records = new Collection(database, AGENTS_COLLECTION);
  }

  /** The agent behind `:agent_id` in this project, or `404 Not found`. */
  find(project: ProjectRecord, agentRef: string): AgentLink {
    return this.records.requirePathId("agent_id", agentRef, (agent) => agent.project_id === project.id);
  }

  /** The agent of a path, once the caller has `level` in its project (tokens, URL configurations). */
  require(actor: Actor, projectRef: string, agentRef: string, level: number): AgentLink {
    return this.find(this.permissions.requireProject(actor, projectRef, level), agentRef);
  }

  /** Registers the removal of a resource's records that belong to a deleted agent. */
  onRemove(removeDependents: (agentId: number) => void): void {
    this.dependents.push(removeDependents);
  }

  /** Removes the registration together with whatever lives below it. */
  remove(agent: AgentLink): void {
    this.records.remove(agent);
    for (const removeDependents of this.dependents) removeDependents(agent.id);
  }
}
