import { AgentTokens } from "./agent-tokens";
import { BroadcastMessages } from "./broadcast-messages";
import { ClusterAgents } from "./cluster-agents";
import { Groups } from "./groups";
import { JobTokenScopes } from "./job-token-scope";
import { Labels } from "./labels";
import { Permissions } from "./permissions";
import { Projects } from "./projects";
import { ProtectedEnvironments } from "./protected-environments";
import { emptyState, type StateData } from "./state";
import { UrlConfigurations } from "./url-configurations";
import { Users } from "./users";

/**
 * The emulated instance without HTTP: the state plus one service object per resource. Every
 * service reads and writes `store.state`, so replacing the state (reset, load) needs no
 * rewiring.
 */
export class Store {
  state: StateData;
  /** Base URL used for `web_url` and similar fields; set by the server once it listens. */
  baseUrl = "http://127.0.0.1";

  readonly users = new Users(this);
  readonly groups = new Groups(this);
  readonly projects = new Projects(this);
  readonly permissions = new Permissions(this);
  readonly labels = new Labels(this);
  readonly broadcastMessages = new BroadcastMessages(this);
  readonly clusterAgents = new ClusterAgents(this);
  readonly agentTokens = new AgentTokens(this);
  readonly urlConfigurations = new UrlConfigurations(this);
  readonly jobTokenScopes = new JobTokenScopes(this);
  readonly protectedEnvironments = new ProtectedEnvironments(this);

  constructor(state: StateData = emptyState()) {
    this.state = state;
  }

  /** Hands out the next id of `kind` (ids are per kind and start at 1). */
  nextId(kind: string): number {
    const next = (this.state.sequences[kind] ?? 0) + 1;
    this.state.sequences[kind] = next;
    return next;
  }

  /** A deep copy of the state, safe to persist or to restore later. */
  snapshot(): StateData {
    return structuredClone(this.state);
  }

  replaceState(state: StateData): void {
    this.state = structuredClone(state);
  }
}
