import { Collection } from "./collection";
import { tierIncludes } from "../../api/editions";
import { findByRef, type Groups } from "./groups";
import { projectSettings } from "./project-settings";
import type { GroupRecord, ProjectRecord, UserRecord } from "./records";
import type { Database } from "./state";
import type { Users } from "./users";

/** Where a project lives: a group, or a user's personal namespace. */
type ProjectNamespace = { group: GroupRecord; user?: undefined } | { user: UserRecord; group?: undefined };

/** Project lookups and serialization. */
export class Projects extends Collection<ProjectRecord> {
  constructor(
    database: Database,
    private readonly groups: Groups,
    private readonly users: Users,
  ) {
    super(database, "projects");
  }

  /** Resolves an `:id` path value: an id or a `path_with_namespace`. */
  byRef(ref: string): ProjectRecord | undefined {
    return findByRef(this, ref, (project) => this.pathWithNamespace(project));
  }

  /** The project that was at `ref` (a full path) before it moved, if one was. */
  movedFrom(ref: string): ProjectRecord | undefined {
    const wanted = ref.toLowerCase();
    return this.find((project) => (project.previous_paths ?? []).some((path) => path.toLowerCase() === wanted));
  }

  /**
   * Moves the project to a new path in its namespace; the old full path keeps answering with a
   * redirect, as the service keeps a redirect route, until another project takes it.
   */
  rename(project: ProjectRecord, path: string): void {
    const before = this.pathWithNamespace(project);
    project.path = path;
    project.previous_paths = [...(project.previous_paths ?? []), before];
  }

  /** The storage shard the project's repository is on. */
  storageOf(project: ProjectRecord): string {
    return project.repository_storage ?? "default";
  }

  /** The group or the user whose namespace holds the project. */
  namespaceOf(project: ProjectRecord): ProjectNamespace {
    const group = this.groups.byId(project.namespace_id);
    if (group) return { group };
    const user = this.users.byNamespace(project.namespace_id);
    if (!user) throw new Error(`project ${project.id} has no namespace ${project.namespace_id}`);
    return { user };
  }

  /** The project's group; undefined for a project in a personal namespace. */
  groupOf(project: ProjectRecord): GroupRecord | undefined {
    return this.groups.byId(project.namespace_id);
  }

  /** The project's group and the group's ancestors, nearest first; none for a personal project. */
  groupsAbove(project: ProjectRecord): GroupRecord[] {
    const group = this.groupOf(project);
    return group ? this.groups.selfAndAncestors(group) : [];
  }

  /** The full path of the namespace a project lives in: a group's, or the user's username. */
  namespacePath(project: ProjectRecord): string {
    const { group, user } = this.namespaceOf(project);
    return group ? this.groups.fullPath(group) : user.username;
  }

  pathWithNamespace(project: ProjectRecord): string {
    return `${this.namespacePath(project)}/${project.path}`;
  }

  nameWithNamespace(project: ProjectRecord): string {
    const { group, user } = this.namespaceOf(project);
    return `${group ? this.groups.fullName(group) : user.name} / ${project.name}`;
  }

  webUrl(project: ProjectRecord): string {
    return `${this.database.baseUrl}/${this.pathWithNamespace(project)}`;
  }

  /** The API's limited project record (allowlists and similar listings). */
  limited(project: ProjectRecord): Record<string, unknown> {
    const pathWithNamespace = this.pathWithNamespace(project);
    const host = new URL(this.database.baseUrl).host;
    return {
      ...this.configProject(project),
      default_branch: project.default_branch,
      tag_list: project.topics,
      topics: project.topics,
      ssh_url_to_repo: `git@${host.replace(/:\d+$/, "")}:${pathWithNamespace}.git`,
      http_url_to_repo: `${this.database.baseUrl}/${pathWithNamespace}.git`,
      web_url: this.webUrl(project),
      avatar_url: null,
      star_count: 0,
      last_activity_at: project.last_activity_at,
      namespace: this.namespaceRecord(project),
    };
  }

  /**
   * The record of `GET /projects/:id`: the limited record, the fields lookups use, and the
   * project's settings (core/project-settings.ts). On a Premium or Ultimate instance it says when
   * the project is to be deleted (`marked_for_deletion_at` and its newer name `_on`).
   */
  serialize(project: ProjectRecord): Record<string, unknown> {
    const settings = projectSettings(project);
    const { user: owner } = this.namespaceOf(project);
    const premium = tierIncludes(this.database.state.settings.tier, "premium");
    return {
      ...this.limited(project),
      ...settings,
      visibility: project.visibility,
      // A personal project's record names its namespace's user.
      ...(owner ? { owner: this.users.basic(owner) } : {}),
      creator_id: project.creator_id ?? null,
      archived: project.archived ?? false,
      // Made through the API, never imported: clients wait on an import unless it says `none`.
      import_status: "none",
      import_url: null,
      import_type: null,
      import_error: null,
      ...(premium
        ? { marked_for_deletion_at: project.marked_for_deletion_on ?? null, marked_for_deletion_on: project.marked_for_deletion_on ?? null }
        : {}),
      forks_count: 0,
      open_issues_count: 0,
      shared_with_groups: project.shared_with_groups.map((share) => {
        const group = this.groups.byId(share.group_id);
        return {
          group_id: share.group_id,
          group_name: group?.name ?? null,
          group_full_path: group ? this.groups.fullPath(group) : null,
          group_access_level: share.group_access_level,
          expires_at: share.expires_at ?? null,
        };
      }),
    };
  }

  /** The namespace object embedded in project records: a group's, or a user's (`kind: "user"`). */
  namespaceRecord(project: ProjectRecord): Record<string, unknown> {
    const { group, user } = this.namespaceOf(project);
    if (group) return this.groups.namespace(group);
    return {
      id: project.namespace_id,
      name: user.name,
      path: user.username,
      kind: "user",
      full_path: user.username,
      parent_id: null,
      avatar_url: null,
      web_url: `${this.database.baseUrl}/${user.username}`,
    };
  }

  /** The short config_project record embedded in cluster agents. */
  configProject(project: ProjectRecord): Record<string, unknown> {
    return {
      id: project.id,
      description: project.description,
      name: project.name,
      name_with_namespace: this.nameWithNamespace(project),
      path: project.path,
      path_with_namespace: this.pathWithNamespace(project),
      created_at: project.created_at,
    };
  }
}
