import { z } from "zod";
import { AccessLevel } from "../../../spec";
import type { Core } from "../../core/core";
import type { Actor, GroupRecord, ProjectRecord } from "../../core/records";
import { paramBoolean, validate } from "../../core/validation";

/** Parameters of `GET /groups/:id` (S3). */
const groupParams = z.object({
  with_custom_attributes: paramBoolean().optional(),
  with_projects: paramBoolean().optional(),
});

/** At most this many projects, and as many shared projects, in a group record (S3). */
const EMBEDDED_PROJECTS = 100;

/**
 * Reads of the access entities. Their state and rules live in core, because every resource
 * checks roles against them; only these three reads are a resource of their own.
 */
export class AccessReads {
  constructor(private readonly core: Core) {}

  /** `GET /user`: the caller, so that clients can check their credentials. */
  currentUser(actor: Actor): Record<string, unknown> {
    return this.core.users.current(this.core.permissions.requireUser(actor));
  }

  /**
   * `GET /groups/:id` (no auth for public groups): the group record, with its projects and the
   * projects shared with it unless `with_projects=false`, and its custom attributes for an
   * administrator who asks (the service ignores the parameter for anyone else).
   */
  group(actor: Actor, groupRef: string, params: Record<string, unknown>): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef);
    const query = validate(groupParams, params);
    const privileged = this.core.permissions.groupLevel(actor, group) >= AccessLevel.Owner;
    const record = this.core.groups.serialize(group, { privileged });
    if (query.with_projects ?? true) {
      record["projects"] = this.embedded(actor, (p) => p.namespace_id === group.id);
      record["shared_projects"] = this.embedded(actor, (p) => p.shared_with_groups.some((share) => share.group_id === group.id));
    }
    if (query.with_custom_attributes && actor?.admin) record["custom_attributes"] = customAttributes(group);
    return record;
  }

  /** `GET /projects/:id`: the project record lookups need. */
  project(actor: Actor, projectRef: string): Record<string, unknown> {
    return this.core.projects.serialize(this.core.permissions.requireProject(actor, projectRef));
  }

  /** The embedded project records (Document 1) of the projects the caller can see, oldest first. */
  private embedded(actor: Actor, belongs: (project: ProjectRecord) => boolean): Record<string, unknown>[] {
    return this.core.projects
      .list((project) => belongs(project) && this.core.permissions.canSeeProject(actor, project))
      .slice(0, EMBEDDED_PROJECTS)
      .map((project) => ({
        ...this.core.projects.serialize(project),
        // Features the emulator does not switch off: all on, as on a new project.
        issues_enabled: true,
        merge_requests_enabled: true,
        wiki_enabled: true,
        jobs_enabled: true,
        snippets_enabled: true,
        container_registry_enabled: true,
        shared_runners_enabled: true,
        public_jobs: true,
        request_access_enabled: true,
        // The emulator records no creator.
        creator_id: null,
      }));
  }
}

function customAttributes(group: GroupRecord): { key: string; value: string }[] {
  return (group.custom_attributes ?? []).map((attribute) => ({ ...attribute }));
}

