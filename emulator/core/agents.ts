import { AccessLevel } from "../../api";
import { Collection } from "./collection";
import { recordNotFound } from "./errors";
import type { Permissions } from "./permissions";
import type { Actor } from "./records";
import type { Database } from "./state";

/*
 * Cluster agents are a resource of their own, but two other resources (agent tokens and URL
 * configurations) live below them: the rule "the agent of this path, once the caller has a
 * role in its project" and the cascade on deletion are shared, so they live here. Core knows
 * only what those rules need of an agent: its id and its project.
 */

/** Reads of agents, tokens and URL configurations need Developer. */
export const AGENT_READ_LEVEL = AccessLevel.Developer;
/** Writes of agents, tokens and URL configurations need Maintainer. */
export const AGENT_WRITE_LEVEL = AccessLevel.Maintainer;

/** State key of the cluster agents collection (declared by the cluster-agents resource). */
export const AGENTS_COLLECTION = "clusterAgents";

/** What the shared rules know of an agent registration. */
export interface AgentLink {
  id: number;
  project_id: number;
}

/** What the shared rules know of a record that lives below an agent (a token, a URL configuration). */
interface AgentChild {
  id: number;
  agent_id: number;
}

/** The path parameters that lead to an agent: `/projects/:project/cluster_agents/:agentId`. */
export interface AgentPath {
  project: string;
  agentId: string;
}

/** A collection of records below agents, reached through their agent's path. */
export class AgentChildren<T extends AgentChild> extends Collection<T> {
  constructor(
    database: Database,
    key: string,
    private readonly agents: Agents,
    /** Name of the path parameter that addresses one record (`token_id`). */
    private readonly idParam: string,
  ) {
    super(database, key);
  }

  /** The agent of the path, once the caller has `level` in its project. Below the agent,
   *  The API types `agent_id` "integer or string". */
  agentOf(actor: Actor, path: AgentPath, level: number): AgentLink {
    return this.agents.require(actor, path.project, path.agentId, level, "integer or string");
  }

  /** The agent's records (that `match`), by id. */
  ofAgent(agentId: number, match: (record: T) => boolean = () => true): T[] {
    return this.list((record) => record.agent_id === agentId && match(record));
  }

  /** The records below the agent of the path (that `match`), by id. */
  listAt(actor: Actor, path: AgentPath, level: number, match?: (record: T) => boolean): T[] {
    return this.ofAgent(this.agentOf(actor, path, level).id, match);
  }

  /** The record behind `ref` below the agent of the path, or `404 Not found`. */
  findAt(actor: Actor, path: AgentPath, ref: string, level: number): T {
    const agentId = this.agentOf(actor, path, level).id;
    return this.requirePathId(this.idParam, ref, (record) => record.agent_id === agentId);
  }
}

/** The agent scope: lookups by path, and removal with everything below the agent. */
export class Agents {
  private readonly records: Collection<AgentLink>;
  private readonly dependents: ((agentId: number) => void)[] = [];

  constructor(
    private readonly database: Database,
    private readonly permissions: Permissions,
  ) {
    this.records = new Collection(database, AGENTS_COLLECTION);
  }

  /**
   * The agent behind `:agent_id` in the project, once the caller has `level` there: the
   * project's errors first (401, 404, 403), then `agent_id is invalid` (an integer parameter
   * that is not one) or `404 Not found`. An "integer or string" parameter is looked up as given:
   * text that is no agent's id is a missing agent, as the service's find by id answers.
   */
  require(actor: Actor, projectRef: string, agentRef: string, level: number, type: "integer" | "integer or string" = "integer"): AgentLink {
    const project = this.permissions.requireProject(actor, projectRef, level);
    if (type === "integer or string" && !/^\d+$/.test(agentRef)) throw recordNotFound();
    return this.records.requirePathId("agent_id", agentRef, (agent) => agent.project_id === project.id);
  }

  /** A resource's collection of records below agents; deleting an agent removes its records there. */
  children<T extends AgentChild>(records: Collection<T>, idParam: string): AgentChildren<T> {
    const children = new AgentChildren<T>(this.database, records.key, this, idParam);
    this.dependents.push((agentId) => children.removeWhere((record) => record.agent_id === agentId));
    return children;
  }

  /** Removes every agent of a project (the project is gone) with whatever lives below them. */
  removeOfProject(projectId: number): void {
    for (const agent of this.records.list((candidate) => candidate.project_id === projectId)) this.remove(agent);
  }

  /** Removes the registration together with whatever lives below it. */
  remove(agent: AgentLink): void {
    this.records.remove(agent);
    for (const removeDependents of this.dependents) removeDependents(agent.id);
  }
}
