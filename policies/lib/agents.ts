/** Grouping the resources of a stack by the cluster agent they belong to. */
import { pluginToken, typeToken } from "../../provider/type-tokens";
import { clusterAgent } from "../../provider/resources/cluster-agent";
import type { StackResource } from "./define";
import { isKnown, refKey, show } from "./values";

export interface AgentGroup {
  /** How messages name the agent: `agent 7 of project "acme/web"`. */
  label: string;
  members: StackResource[];
}

/**
 * The agent a resource (`project` + `agentId`) belongs to. When `agentId` is not known yet (at
 * preview, it usually comes from a ClusterAgent created in the same run), the ClusterAgent it
 * was taken from stands for it. Undefined when neither tells: such resources are not judged.
 */
function agentOf(member: StackResource): { key: string; label: string } | undefined {
  const { props, resource } = member;
  const project = props["project"];
  const agentId = props["agentId"];
  if (isKnown(agentId)) {
    if (!isKnown(project)) return undefined;
    return { key: `${refKey(project)}#${String(agentId)}`, label: `agent ${show(agentId)} of project ${show(project)}` };
  }
  const sources = (resource.propertyDependencies?.["agentId"] ?? []).filter(
    (dependency) => dependency.type === typeToken(clusterAgent) || dependency.type === pluginToken(clusterAgent.name),
  );
  const [source] = sources;
  if (sources.length !== 1 || !source) return undefined;
  return { key: `urn:${source.urn}`, label: `the agent of ClusterAgent "${source.name}"` };
}

/**
 * Resources grouped by agent, each group ordered by resource name (the engine hands resources
 * over in no fixed order, and messages must not change from run to run); resources whose agent
 * is unknown are left out.
 */
export function byAgent(members: StackResource[]): AgentGroup[] {
  const groups = new Map<string, AgentGroup>();
  const ordered = [...members].sort(
    (a, b) => a.resource.name.localeCompare(b.resource.name) || a.resource.urn.localeCompare(b.resource.urn),
  );
  for (const member of ordered) {
    const agent = agentOf(member);
    if (!agent) continue;
    const group = groups.get(agent.key) ?? { label: agent.label, members: [] };
    group.members.push(member);
    groups.set(agent.key, group);
  }
  return [...groups.values()];
}
