import { Agents } from "./agents";
import { Editions } from "./editions";
import { Groups } from "./groups";
import { Permissions } from "./permissions";
import { Projects } from "./projects";
import type { Actor, ProjectRecord } from "./records";
import { Database, type StateData } from "./state";
import { Clock } from "./time";
import { Users } from "./users";

/**
 * What every model may use: the state and its ids (inherited), the access entities and rules,
 * the agent scope and the edition gate. Models receive it as a constructor argument; core imports no resource.
 */
export class Core extends Database {
  readonly users: Users;
  readonly groups: Groups;
  readonly projects: Projects;
  readonly permissions: Permissions;
  readonly agents: Agents;
  readonly editions: Editions;
  /** The forge's time: every timestamp it writes (core/time.ts). */
  readonly clock = new Clock();

  constructor(state: StateData) {
    super(state);
    this.users = new Users(this);
    this.groups = new Groups(this);
    this.projects = new Projects(this, this.groups, this.users);
    this.permissions = new Permissions(this.groups, this.projects);
    this.agents = new Agents(this, this.permissions);
    this.editions = new Editions(this);
  }

  /**
   * The project record `GET /projects/:id` answers `actor` with: the record, the caller's
   * `permissions`, and for administrators where the repository is stored (storage moves poll by it).
   */
  projectRecordFor(project: ProjectRecord, actor: Actor): Record<string, unknown> {
    const record = { ...this.projects.serialize(project), permissions: this.permissions.projectPermissions(actor, project) };
    return actor?.admin ? { ...record, repository_storage: this.projects.storageOf(project) } : record;
  }
}
