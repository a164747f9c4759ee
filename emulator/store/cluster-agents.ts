import { z } from "zod";
import { AccessLevel, AGENT_NAME, AGENT_NAME_MAX } from "../../spec";
import { badRequest, recordNotFound } from "./errors";
import type { ProjectRecord } from "./projects";
import type { Store } from "./store";
import { isoTimestamp } from "./time";
import type { Actor } from "./users";
import { integerPathParam, paramString, validate } from "./validation";

/** Reads of agents, tokens and URL configurations need Developer; writes Maintainer. */
export const AGENT_READ_LEVEL = AccessLevel.Developer;
export const AGENT_WRITE_LEVEL = AccessLevel.Maintainer;


/** A stored agent registration. */
export interface ClusterAgentRecord {
  id: number;
  project_id: number;
  name: string;
  created_at: string;
  created_by_user_id: number;
}

/** Body of `POST /projects/:id/cluster_agents`. */
export const createAgentParams = z.object({ name: paramString() });

/** Cluster agent registrations of a project. */
export class ClusterAgents {
  constructor(private readonly store: Store) {}

  list(actor: Actor, projectRef: string): Record<string, unknown>[] {
    const project = this.store.permissions.requireProject(actor, projectRef, AGENT_READ_LEVEL);
    return this.store.state.clusterAgents
      .filter((agent) => agent.project_id === project.id)
      .sort((a, b) => a.id - b.id)
      .map((agent) => this.serialize(agent));
  }

  get(actor: Actor, projectRef: string, agentRef: string): Record<string, unknown> {
    const project = this.store.permissions.requireProject(actor, projectRef, AGENT_READ_LEVEL);
    return this.serialize(this.find(project, agentRef));
  }

  create(actor: Actor, projectRef: string, params: Record<string, unknown>): Record<string, unknown> {
    const user = this.store.permissions.requireUser(actor);
    const project = this.store.permissions.requireProject(user, projectRef, AGENT_WRITE_LEVEL);
    const { name } = validate(createAgentParams, params);
    const problems = nameProblems(name);
    const taken = this.store.state.clusterAgents.some((a) => a.project_id === project.id && a.name === name);
    if (taken) problems.push("Name has already been taken");
    // The service reports model errors of agents as a JSON array inside the reason.
    if (problems.length > 0) throw badRequest(JSON.stringify(problems));
    const agent: ClusterAgentRecord = {
      id: this.store.nextId("cluster_agent"),
      project_id: project.id,
      name,
      created_at: isoTimestamp(),
      created_by_user_id: user.id,
    };
    this.store.state.clusterAgents.push(agent);
    return this.serialize(agent);
  }

  /** Removes the registration together with its tokens and URL configuration. */
  delete(actor: Actor, projectRef: string, agentRef: string): void {
    const project = this.store.permissions.requireProject(actor, projectRef, AGENT_WRITE_LEVEL);
    const agent = this.find(project, agentRef);
    const state = this.store.state;
    state.clusterAgents = state.clusterAgents.filter((a) => a.id !== agent.id);
    state.agentTokens = state.agentTokens.filter((t) => t.agent_id !== agent.id);
    state.urlConfigurations = state.urlConfigurations.filter((c) => c.agent_id !== agent.id);
  }

  /** The agent behind `:agent_id` in this project, or `404 Not found`. */
  /** The agent of a path, once the caller has `level` in its project (tokens, URL configurations). */
  requireAgent(actor: Actor, projectRef: string, agentRef: string, level: number): ClusterAgentRecord {
    return this.find(this.store.permissions.requireProject(actor, projectRef, level), agentRef);
  }

  find(project: ProjectRecord, agentRef: string): ClusterAgentRecord {
    const id = integerPathParam("agent_id", agentRef);
    const agent = this.store.state.clusterAgents.find((a) => a.id === id && a.project_id === project.id);
    if (!agent) throw recordNotFound();
    return agent;
  }

  serialize(agent: ClusterAgentRecord): Record<string, unknown> {
    const project = this.store.projects.byId(agent.project_id);
    return {
      id: agent.id,
      name: agent.name,
      config_project: project ? this.store.projects.configProject(project) : null,
      created_at: agent.created_at,
      created_by_user_id: agent.created_by_user_id,
    };
  }
}

function nameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length === 0) problems.push("Name can't be blank");
  if (name.length > AGENT_NAME_MAX) problems.push(`Name is too long (maximum is ${AGENT_NAME_MAX} characters)`);
  if (!AGENT_NAME.test(name)) {
    problems.push("Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'");
  }
  return problems;
}
