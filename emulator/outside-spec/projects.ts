import { z } from "zod";
import { AccessLevel } from "../../api";
import type { Collection } from "../core/collection";
import type { Core } from "../core/core";
import { ApiError, conflict, forbidden, modelValidationError, thingNotFound } from "../core/errors";
import { checkNamespacePath, refuseProjectClashes } from "../core/lifecycle";
import { projectSettingParams, projectSettingsOf, writeProjectSettings } from "../core/project-settings";
import { type Actor, type ProjectRecord, VISIBILITIES } from "../core/records";
import { integerPathParam, paramEnum, paramInteger, paramIntegerOf, paramString, validate } from "../core/validation";

/*
 * What the service does to a project besides making and deleting it, as far as clients' set-up
 * goes: edit its settings, archive it, share it with a group (the project members' rule: "a
 * separate share operation"), and its environments, the names protected environments protect.
 */

/** An environment of a project (the service's record, without deployments). */
export interface EnvironmentRecord {
  id: number;
  project_id: number;
  name: string;
  slug: string;
  external_url: string | null;
  tier: (typeof ENVIRONMENT_TIERS)[number];
  state: "available" | "stopped";
  created_at: string;
  updated_at: string;
}

/** The service's deployment tiers; an environment's tier is guessed from its name when none is given. */
const ENVIRONMENT_TIERS = ["production", "staging", "testing", "development", "other"] as const;

const updateProjectParams = z.object({
  name: paramString().optional(),
  path: paramString().optional(),
  description: paramString().nullable().optional(),
  visibility: paramEnum(VISIBILITIES).optional(),
  default_branch: paramString().optional(),
  topics: z.array(paramString()).optional(),
  tag_list: z.array(paramString()).optional(),
  ...projectSettingParams,
});

const shareParams = z.object({
  group_id: paramInteger(),
  group_access: paramIntegerOf([
    AccessLevel.Guest,
    AccessLevel.Planner,
    AccessLevel.Reporter,
    AccessLevel.Developer,
    AccessLevel.Maintainer,
    AccessLevel.Owner,
  ]),
  expires_at: paramString()
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is invalid" }))
    .nullable()
    .optional(),
});

const environmentParams = z.object({
  name: paramString(),
  external_url: paramString().nullable().optional(),
  tier: paramEnum(ENVIRONMENT_TIERS).optional(),
});

/** The tier the service gives an environment by its name (`production`, `prod-eu` → production; `review/x` → development ...). */
function tierOf(name: string): EnvironmentRecord["tier"] {
  const word = name.toLowerCase();
  if (/^(production|prod)($|[^a-z])/.test(word)) return "production";
  if (/^(staging|stage|pre-prod|preprod|model|demo)($|[^a-z])/.test(word)) return "staging";
  if (/^(testing|test|qa|uat|acc|acceptance)($|[^a-z])/.test(word)) return "testing";
  if (/^(development|dev|review|trunk)($|[^a-z])/.test(word)) return "development";
  return "other";
}

/** An environment's URL slug: lower-case letters, digits and `-`, at most 24 characters. */
function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 24);
}

export class ProjectChanges {
  constructor(
    private readonly core: Core,
    private readonly environments: Collection<EnvironmentRecord>,
  ) {}

  /** `PUT /projects/:id`: Maintainers; the record's name, path, description, visibility, default branch, topics and settings. */
  update(actor: Actor, projectRef: string, input: Record<string, unknown>): ProjectRecord {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Maintainer);
    const params = validate(updateProjectParams, input);
    if (params.path !== undefined) checkNamespacePath(params.path);
    refuseProjectClashes(this.core, project.namespace_id, { name: params.name, path: params.path }, project);
    if (params.path !== undefined && params.path !== project.path) this.core.projects.rename(project, params.path);
    if (params.name !== undefined) project.name = params.name;
    if (params.description !== undefined) project.description = params.description;
    if (params.visibility !== undefined) project.visibility = params.visibility;
    if (params.default_branch !== undefined && project.default_branch !== null) project.default_branch = params.default_branch;
    const topics = params.topics ?? params.tag_list;
    if (topics !== undefined) project.topics = topics;
    writeProjectSettings(project, projectSettingsOf(params));
    project.last_activity_at = this.core.clock.iso();
    return project;
  }

  /** `POST /projects/:id/archive` and `/unarchive`: Owners; the project record (201 on the service). */
  setArchived(actor: Actor, projectRef: string, archived: boolean): ProjectRecord {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Owner);
    project.archived = archived;
    return project;
  }

  /**
   * `POST /projects/:id/share`: Maintainers of the project may give a group they can see access
   * up to `group_access` (members of the group get at most that level in the project).
   */
  share(actor: Actor, projectRef: string, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Maintainer);
    const params = validate(shareParams, input);
    const group = this.core.permissions.requireGroup(actor, String(params.group_id));
    if (project.namespace_id === group.id) throw badShare("the project's own group");
    if (project.shared_with_groups.some((share) => share.group_id === group.id)) throw conflict("Group already shared with this group");
    const share = { group_id: group.id, group_access_level: params.group_access, expires_at: params.expires_at ?? null };
    project.shared_with_groups.push(share);
    return {
      id: this.core.nextId("project_group_link"),
      project_id: project.id,
      group_id: group.id,
      group_access: share.group_access_level,
      expires_at: share.expires_at,
    };
  }

  /** `DELETE /projects/:id/share/:group_id`: Maintainers; 404 when the project is not shared with the group. */
  unshare(actor: Actor, projectRef: string, groupRef: string): void {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Maintainer);
    const groupId = integerPathParam("group_id", groupRef);
    if (!project.shared_with_groups.some((share) => share.group_id === groupId)) throw thingNotFound("Group Link");
    project.shared_with_groups = project.shared_with_groups.filter((share) => share.group_id !== groupId);
  }

  /** `GET /projects/:id/environments`: Reporters. */
  listEnvironments(actor: Actor, projectRef: string): Record<string, unknown>[] {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Reporter);
    return this.environments
      .list((environment) => environment.project_id === project.id)
      .map((environment) => this.environment(environment));
  }

  getEnvironment(actor: Actor, projectRef: string, ref: string): Record<string, unknown> {
    return this.environment(this.requireEnvironment(actor, projectRef, ref, AccessLevel.Reporter));
  }

  /** `POST /projects/:id/environments`: Developers; the name is unique in the project. */
  createEnvironment(actor: Actor, projectRef: string, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Developer);
    const params = validate(environmentParams, input);
    if (!params.name.trim()) throw modelValidationError("name", "can't be blank");
    if (this.environments.find((environment) => environment.project_id === project.id && environment.name === params.name)) {
      throw modelValidationError("name", "has already been taken");
    }
    const now = this.core.clock.iso();
    const record = this.environments.insert({
      id: this.core.nextId("environment"),
      project_id: project.id,
      name: params.name,
      slug: slugOf(params.name),
      external_url: params.external_url ?? null,
      tier: params.tier ?? tierOf(params.name),
      state: "available",
      created_at: now,
      updated_at: now,
    });
    return this.environment(record);
  }

  /** `POST .../environments/:id/stop`: Developers; the environment, stopped. */
  stopEnvironment(actor: Actor, projectRef: string, ref: string): Record<string, unknown> {
    const environment = this.requireEnvironment(actor, projectRef, ref, AccessLevel.Developer);
    environment.state = "stopped";
    environment.updated_at = this.core.clock.iso();
    return this.environment(environment);
  }

  /** `DELETE .../environments/:id`: Developers, and only a stopped environment (403 otherwise, as the service's policy says). */
  deleteEnvironment(actor: Actor, projectRef: string, ref: string): void {
    const environment = this.requireEnvironment(actor, projectRef, ref, AccessLevel.Developer);
    if (environment.state !== "stopped") throw forbidden();
    this.environments.remove(environment);
  }

  private requireEnvironment(actor: Actor, projectRef: string, ref: string, level: number): EnvironmentRecord {
    const project = this.core.permissions.requireProject(actor, projectRef, level);
    return this.environments.requirePathId("environment_id", ref, (environment) => environment.project_id === project.id);
  }

  private environment(record: EnvironmentRecord): Record<string, unknown> {
    const { project_id: projectId, ...fields } = record;
    const project = this.core.projects.byId(projectId) as ProjectRecord;
    return { ...fields, project: this.core.projects.limited(project) };
  }
}

function badShare(what: string): ApiError {
  return new ApiError(400, { message: `400 Bad request - the project cannot be shared with ${what}` });
}
