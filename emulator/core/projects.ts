import { Collection } from "./collection";
import { findByRef, type Groups } from "./groups";
import type { GroupRecord, ProjectRecord } from "./records";
import type { Database } from "./state";

/** Project lookups and serialization. */
export class Projects extends Collection<ProjectRecord> {
  constructor(
    database: Database,
    private readonly groups: Groups,
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

  namespaceOf(project: ProjectRecord): GroupRecord {
    const group = this.groups.byId(project.namespace_id);
    if (!group) throw new Error(`project ${project.id} has no namespace ${project.namespace_id}`);
    return group;
  }

  pathWithNamespace(project: ProjectRecord): string {
    return `${this.groups.fullPath(this.namespaceOf(project))}/${project.path}`;
  }

  nameWithNamespace(project: ProjectRecord): string {
    return `${this.groups.fullName(this.namespaceOf(project))} / ${project.name}`;
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
      namespace: this.groups.namespace(this.namespaceOf(project)),
    };
  }

  /** The record of `GET /projects/:id`: the limited record plus the fields lookups use. */
  serialize(project: ProjectRecord): Record<string, unknown> {
    return {
      ...this.limited(project),
      visibility: project.visibility,
      creator_id: project.creator_id ?? null,
      archived: false,
      forks_count: 0,
      open_issues_count: 0,
      shared_with_groups: project.shared_with_groups.map((share) => {
        const group = this.groups.byId(share.group_id);
        return {
          group_id: share.group_id,
          group_name: group?.name ?? null,
          group_full_path: group ? this.groups.fullPath(group) : null,
          group_access_level: share.group_access_level,
          expires_at: null,
        };
      }),
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
