import type { AgentTokenRecord } from "./agent-tokens";
import type { BroadcastMessageRecord } from "./broadcast-messages";
import type { ClusterAgentRecord } from "./cluster-agents";
import type { GroupRecord } from "./groups";
import type { JobTokenScopeRecord } from "./job-token-scope";
import type { LabelRecord } from "./labels";
import type { ProjectRecord } from "./projects";
import type { ProtectedEnvironmentRecord } from "./protected-environments";
import { defaultSettings, type InstanceSettings } from "./settings";
import type { UrlConfigurationRecord } from "./url-configurations";
import type { UserRecord } from "./users";

/** Marks state files so that a file of another shape is refused rather than misread. */
export const STATE_FORMAT = "forge-emulator-state/1";

/**
 * The whole state of the emulated instance: plain JSON, so that it can be persisted and
 * restored as is. `sequences` holds the last id handed out per kind.
 */
export interface StateData {
  format: typeof STATE_FORMAT;
  sequences: Record<string, number>;
  settings: InstanceSettings;
  users: UserRecord[];
  groups: GroupRecord[];
  projects: ProjectRecord[];
  labels: LabelRecord[];
  broadcastMessages: BroadcastMessageRecord[];
  clusterAgents: ClusterAgentRecord[];
  agentTokens: AgentTokenRecord[];
  urlConfigurations: UrlConfigurationRecord[];
  jobTokenScopes: JobTokenScopeRecord[];
  protectedEnvironments: ProtectedEnvironmentRecord[];
}

/** A state with nothing in it. */
export function emptyState(): StateData {
  return {
    format: STATE_FORMAT,
    sequences: {},
    settings: defaultSettings(),
    users: [],
    groups: [],
    projects: [],
    labels: [],
    broadcastMessages: [],
    clusterAgents: [],
    agentTokens: [],
    urlConfigurations: [],
    jobTokenScopes: [],
    protectedEnvironments: [],
  };
}

/** Parses a persisted state, filling collections added since it was written. */
export function parseState(text: string): StateData {
  const data = JSON.parse(text) as Partial<StateData>;
  if (data.format !== STATE_FORMAT) throw new Error(`not an emulator state file (format ${String(data.format)})`);
  return { ...emptyState(), ...data, settings: { ...defaultSettings(), ...data.settings } };
}
