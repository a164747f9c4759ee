import { z } from "zod";
import { AccessLevel } from "../../api";
import { tierIncludes } from "../../api/editions";
import { USERNAME, USERNAME_RULE } from "../../api/names";
import type { Core } from "../core/core";
import { ApiError, badRequest, forbidden, modelValidationError, thingNotFound } from "../core/errors";
import { makeGroup, makeProject, makeUser, NAMESPACE_SEQUENCE, removeGroup, removeProject, removeUser } from "../core/lifecycle";
import { DEFAULT_PROJECTS_LIMIT } from "../core/users";
import { projectSettingParams, projectSettingsOf } from "../core/project-settings";
import { type Actor, type GroupRecord, type UserRecord, VISIBILITIES } from "../core/records";
import type { ProjectChanges } from "./projects";
import { integerPathParam, paramBoolean, paramInteger, paramString, requireAtLeastOne, validate } from "../core/validation";

/*
 * The service's endpoints outside the spec that clients and test suites call before the spec's:
 * the version, users (read, and for administrators make and delete), groups and projects (make
 * and delete). Each follows the service's permission rules and answers; what they make is a
 * record of core like a seeded one, so every endpoint of the spec serves it.
 */

/** What `PUT /groups/:id` does, which `POST /groups` reuses for the settings it is given (the groups resource's model). */
export interface GroupSettingsWriter {
  update(actor: Actor, groupRef: string, input: Record<string, unknown>): Record<string, unknown>;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;
const MIN_PASSWORD = 8;

const createUserParams = z.object({
  email: paramString(),
  name: paramString(),
  username: paramString(),
  password: paramString().optional(),
  reset_password: paramBoolean().optional(),
  force_random_password: paramBoolean().optional(),
  admin: paramBoolean().optional(),
  projects_limit: paramInteger().optional(),
  can_create_group: paramBoolean().optional(),
  external: paramBoolean().optional(),
  note: paramString().nullable().optional(),
  skip_confirmation: paramBoolean().optional(),
});

const createGroupParams = z.object({
  name: paramString(),
  path: paramString(),
  parent_id: paramInteger().nullable().optional(),
  visibility: z.enum(VISIBILITIES, { error: "does not have a valid value" }).optional(),
  description: paramString().optional(),
});

const createProjectParams = z.object({
  name: paramString().optional(),
  path: paramString().optional(),
  namespace_id: z.union([paramInteger(), paramString()]).nullable().optional(),
  description: paramString().nullable().optional(),
  visibility: z.enum(VISIBILITIES, { error: "does not have a valid value" }).optional(),
  initialize_with_readme: paramBoolean().optional(),
  default_branch: paramString().optional(),
  topics: z.array(paramString()).optional(),
  tag_list: z.array(paramString()).optional(),
  ...projectSettingParams,
});

const deleteParams = z.object({ permanently_remove: paramBoolean().optional(), full_path: paramString().optional() });

/** The name a path is made from when only a name is given (lower-case, other characters as `-`). */
function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, "-")
    .replace(/^[-.]+|-+$/g, "");
}

/**
 * A model error of a group create as the service's API words it: `400 {"message": "Failed to save
 * group {:path=>[\"has already been taken\"]}"}` (the model's messages in Ruby's hash notation).
 */
function groupSaveError(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  const message = (error.body as { message?: unknown }).message;
  if (typeof message !== "object" || message === null || Array.isArray(message)) return error;
  const fields = Object.entries(message as Record<string, string[]>).map(([field, messages]) => `:${field}=>${JSON.stringify(messages)}`);
  return new ApiError(400, { message: `Failed to save group {${fields.join(", ")}}` });
}

/** What the routes of this folder are handed: the endpoints' models, and core for GraphQL's reads. */
export interface OutsideSpec {
  endpoints: ServiceEndpoints;
  projects: ProjectChanges;
  core: Core;
}

export class ServiceEndpoints {
  constructor(
    private readonly core: Core,
    private readonly groupSettings: GroupSettingsWriter,
  ) {}

  /**
   * `GET /version` (and `/metadata`): any signed-in caller. The edition decides the suffix: an
   * instance on a paid tier runs the enterprise edition (`17.11.0-ee`, `enterprise: true`), a Free
   * one the community edition, as a client's edition checks read it.
   */
  version(actor: Actor): Record<string, unknown> {
    this.core.permissions.requireUser(actor);
    const { version, tier } = this.core.state.settings;
    const enterprise = tierIncludes(tier, "premium");
    return {
      version: `${version}${enterprise ? "-ee" : ""}`,
      revision: "emulator",
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise,
    };
  }

  /**
   * `GET /application/settings`: administrators. The defaults clients read before making a
   * project or a group (the service's record has many more settings; these are the ones the
   * emulator's projects and groups follow).
   */
  applicationSettings(actor: Actor): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    return {
      default_branch_protection: 2,
      default_branch_protection_defaults: {
        allowed_to_push: [{ access_level: AccessLevel.Maintainer }],
        allow_force_push: false,
        allowed_to_merge: [{ access_level: AccessLevel.Maintainer }],
      },
      default_project_creation: 2,
      default_project_visibility: "private",
      default_group_visibility: "private",
      default_snippet_visibility: "private",
      default_projects_limit: DEFAULT_PROJECTS_LIMIT,
      default_branch_name: "main",
      signup_enabled: false,
      require_two_factor_authentication: false,
      restricted_visibility_levels: [],
      delayed_project_deletion: this.delayedDeletion(),
      delayed_group_deletion: this.delayedDeletion(),
      deletion_adjourned_period: 7,
    };
  }

  /** `GET /user`: the caller, so that clients can check their credentials. */
  currentUser(actor: Actor): Record<string, unknown> {
    return this.core.users.current(this.core.permissions.requireUser(actor));
  }

  /** `GET /users/:id`: anyone (a public profile); an administrator sees the account's fields too. */
  user(actor: Actor, userRef: string): Record<string, unknown> {
    const user = this.core.users.byId(integerPathParam("id", userRef));
    if (!user) throw thingNotFound("User");
    return actor?.admin ? this.core.users.current(user) : this.core.users.profile(user);
  }

  /**
   * `POST /users`: administrators. A password of at least 8 characters, or `reset_password` /
   * `force_random_password` (no e-mail leaves the emulator); unique username and e-mail (409).
   */
  createUser(actor: Actor, input: Record<string, unknown>): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const params = validate(createUserParams, input);
    requireAtLeastOne(params, ["password", "reset_password", "force_random_password"]);
    if (params.password !== undefined && params.password.length < MIN_PASSWORD) {
      throw modelValidationError("password", `is too short (minimum is ${MIN_PASSWORD} characters)`);
    }
    if (!EMAIL.test(params.email)) throw modelValidationError("email", "is invalid");
    if (!USERNAME.test(params.username)) throw modelValidationError("username", USERNAME_RULE);
    const user = makeUser(this.core, {
      username: params.username,
      name: params.name,
      email: params.email,
      admin: params.admin ?? false,
      projectsLimit: params.projects_limit,
      canCreateGroup: params.can_create_group,
      external: params.external,
      note: params.note,
    });
    return this.core.users.current(user);
  }

  /** `DELETE /users/:id`: administrators; the user goes with their personal projects and memberships (the service does it in the background). */
  deleteUser(actor: Actor, userRef: string): void {
    this.core.permissions.requireAdmin(actor);
    const user = this.core.users.byId(integerPathParam("id", userRef));
    if (!user) throw thingNotFound("User");
    removeUser(this.core, user);
  }

  /**
   * `POST /groups`: a top-level group for a user allowed to make groups (administrators always),
   * a subgroup for an Owner of the parent (or a Maintainer where the parent lets Maintainers make
   * subgroups). The creator becomes its Owner; the other parameters are `PUT /groups/:id`'s
   * settings, written as that endpoint writes them (nothing is made when one is refused).
   */
  createGroup(actor: Actor, input: Record<string, unknown>): Record<string, unknown> {
    const creator = this.core.permissions.requireUser(actor);
    const { name, path, parent_id: parentId, visibility, description } = validate(createGroupParams, input);
    const parent = parentId === undefined || parentId === null ? undefined : this.core.permissions.requireGroup(actor, String(parentId));
    if (parent) {
      const maintainersMay = this.core.groups.settingsOf(parent)["subgroup_creation_level"] === "maintainer";
      const needed = maintainersMay ? AccessLevel.Maintainer : AccessLevel.Owner;
      if (this.core.permissions.groupLevel(actor, parent) < needed) throw forbidden();
    } else if (!creator.admin && creator.can_create_group === false) {
      throw forbidden();
    }
    let group: GroupRecord;
    try {
      group = makeGroup(this.core, {
        name,
        path,
        parentId: parent?.id ?? null,
        visibility: visibility ?? "private",
        description: description ?? "",
        creator,
      });
    } catch (error) {
      throw groupSaveError(error);
    }
    const { name: _n, path: _p, parent_id: _parent, visibility: _v, description: _d, ...settings } = input;
    try {
      this.groupSettings.update(creator, String(group.id), settings);
    } catch (error) {
      removeGroup(this.core, group);
      throw error;
    }
    return { ...this.core.groups.serialize(group, { privileged: true }), projects: [], shared_projects: [] };
  }

  /**
   * `DELETE /groups/:id`: Owners and administrators; 202. On a Premium or Ultimate instance the
   * group is marked for deletion (`marked_for_deletion_on`, today) and stays until a second call
   * with `permanently_remove=true` and its `full_path`; a second call without them is
   * `400 Group has been already marked for deletion`. On Free it goes at once with its subgroups
   * and projects.
   */
  deleteGroup(actor: Actor, groupRef: string, input: Record<string, unknown>): void {
    const group = this.core.permissions.requireGroup(actor, groupRef, AccessLevel.Owner);
    const params = validate(deleteParams, input);
    if (this.delayedDeletion() && !this.removesNow(group.marked_for_deletion_on, params, this.core.groups.fullPath(group), "Group")) {
      group.marked_for_deletion_on = this.today();
      return;
    }
    removeGroup(this.core, group);
  }

  /**
   * `POST /projects`: in the caller's personal namespace unless `namespace_id` (an id or a full
   * path) names a group where the caller may make projects (the group's `project_creation_level`:
   * Developers on the service's default, Maintainers or no one when it says so; administrators
   * always); elsewhere 400 `{"namespace": ["is not valid"]}`.
   * `initialize_with_readme` gives the repository its first branch (`default_branch`, `main`
   * by default); without it the repository is empty (`default_branch` null).
   */
  createProject(actor: Actor, input: Record<string, unknown>): Record<string, unknown> {
    const creator = this.core.permissions.requireUser(actor);
    const params = validate(createProjectParams, input);
    requireAtLeastOne(params, ["name", "path"]);
    const name = (params.name ?? params.path)!;
    const path = params.path ?? pathFromName(name);
    const namespaceId = this.namespaceFor(creator, params.namespace_id);
    const project = makeProject(this.core, {
      name,
      path,
      namespaceId,
      visibility: params.visibility ?? "private",
      description: params.description ?? null,
      creator,
      defaultBranch: params.initialize_with_readme ? (params.default_branch ?? "main") : null,
      topics: params.topics ?? params.tag_list ?? [],
      settings: projectSettingsOf(params),
    });
    return this.core.projectRecordFor(project, actor);
  }

  /**
   * `DELETE /projects/:id`: Owners and administrators; 202. A group's project on a Premium or
   * Ultimate instance is marked for deletion as a group is (`marked_for_deletion_on`); a second
   * call removes it only with `permanently_remove=true` and its `full_path`. Otherwise, and for a
   * personal project, it goes at once.
   */
  deleteProject(actor: Actor, projectRef: string, input: Record<string, unknown>): void {
    const project = this.core.permissions.requireProject(actor, projectRef, AccessLevel.Owner);
    const params = validate(deleteParams, input);
    const delayed = this.delayedDeletion() && this.core.projects.groupOf(project) !== undefined;
    const fullPath = this.core.projects.pathWithNamespace(project);
    if (delayed && !this.removesNow(project.marked_for_deletion_on, params, fullPath, "Project")) {
      project.marked_for_deletion_on = this.today();
      return;
    }
    removeProject(this.core, project);
  }

  /** The namespace a new project goes to: the creator's own, or a group they may make projects in. */
  private namespaceFor(creator: UserRecord, requested: number | string | null | undefined): number {
    const personal = this.personalNamespace(creator);
    if (requested === undefined || requested === null || requested === personal || requested === creator.username) return personal;
    const group = this.core.groups.byRef(String(requested));
    const level = group && this.core.permissions.canSeeGroup(creator, group) ? this.core.permissions.groupLevel(creator, group) : 0;
    const creationLevel = group ? this.core.groups.settingsOf(group)["project_creation_level"] : undefined;
    const needed = creationLevel === "developer" ? AccessLevel.Developer : creationLevel === "noone" ? Infinity : AccessLevel.Maintainer;
    if (!group || (!creator.admin && level < needed)) throw modelValidationError("namespace", "is not valid");
    return group.id;
  }

  /** The user's personal namespace id, given now to a user of an older state file that has none. */
  private personalNamespace(user: UserRecord): number {
    user.namespace_id ??= this.core.nextId(NAMESPACE_SEQUENCE);
    return user.namespace_id;
  }

  /** Delayed deletion: Premium's and Ultimate's (the service's `adjourned_deletion_for_projects_and_groups`). */
  private delayedDeletion(): boolean {
    return tierIncludes(this.core.editions.current().tier, "premium");
  }

  /** Whether a delete of an object under delayed deletion removes it now: it was marked, and the call says so with its full path. */
  private removesNow(
    markedOn: string | null | undefined,
    params: z.output<typeof deleteParams>,
    fullPath: string,
    thing: "Group" | "Project",
  ): boolean {
    if (!markedOn) return false;
    if (params.permanently_remove && params.full_path === fullPath) return true;
    if (params.permanently_remove) throw badRequest("full_path does not match");
    throw new ApiError(400, { message: `${thing} has been already marked for deletion` });
  }

  private today(): string {
    return this.core.clock.iso().slice(0, 10);
  }
}
