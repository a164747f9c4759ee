import { z } from "zod";
import { AGENT_NAME, AGENT_NAME_MAX } from "../../../api";
import { AGENT_READ_LEVEL, AGENT_WRITE_LEVEL, type AgentLink } from "../../core/agents";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { badRequest } from "../../core/errors";
import type { Actor } from "../../core/records";
import { paramString, validate } from "../../core/validation";

/** A stored agent registration (its id and project are what the shared agent rules use). */
export interface ClusterAgentRecord extends AgentLink {
  name: string;
  created_at: string;
  created_by_user_id: number;
}

/** The path parameters of `/projects/:project/cluster_agents`. */
interface ProjectPath {
  project: string;
}

/** Body of `POST /projects/:id/cluster_agents`. */
const createAgentParams = z.object({ name: paramString() });

/** Cluster agent registrations of a project. */
export class ClusterAgents {
  constructor(
    private readonly core: Core,
    private readonly agents: Collection<ClusterAgentRecord>,
  ) {}

  list(actor: Actor, path: ProjectPath): Record<string, unknown>[] {
    const project = this.core.permissions.requireProject(actor, path.project, AGENT_READ_LEVEL);
    return this.agents.list((agent) => agent.project_id === project.id).map((agent) => this.serialize(agent));
  }

  get(actor: Actor, path: ProjectPath, agentRef: string): Record<string, unknown> {
    return this.serialize(this.require(actor, path.project, agentRef, AGENT_READ_LEVEL));
  }

  create(actor: Actor, path: ProjectPath, params: Record<string, unknown>): Record<string, unknown> {
    const user = this.core.permissions.requireUser(actor);
    const project = this.core.permissions.requireProject(user, path.project, AGENT_WRITE_LEVEL);
    const { name } = validate(createAgentParams, params);
    const problems = nameProblems(name);
    const taken = this.agents.find((a) => a.project_id === project.id && a.name === name) !== undefined;
    if (taken) problems.push("Name has already been taken");
    // The service reports model errors of agents as a JSON array inside the reason.
    if (problems.length > 0) throw badRequest(JSON.stringify(problems));
    const agent: ClusterAgentRecord = {
      id: this.core.nextId("cluster_agent"),
      project_id: project.id,
      name,
      created_at: this.core.clock.iso(),
      created_by_user_id: user.id,
    };
    this.agents.insert(agent);
    return this.serialize(agent);
  }

  /** Removes the registration together with its tokens and URL configuration. */
  delete(actor: Actor, path: ProjectPath, agentRef: string): void {
    this.core.agents.remove(this.require(actor, path.project, agentRef, AGENT_WRITE_LEVEL));
  }

  /** The agent of a path through the shared agent rule, as this resource's record. */
  private require(actor: Actor, projectRef: string, agentRef: string, level: number): ClusterAgentRecord {
    return this.core.agents.require(actor, projectRef, agentRef, level) as ClusterAgentRecord;
  }

  private serialize(agent: ClusterAgentRecord): Record<string, unknown> {
    const project = this.core.projects.byId(agent.project_id);
    return {
      id: agent.id,
      name: agent.name,
      config_project: project ? this.core.projects.configProject(project) : null,
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
