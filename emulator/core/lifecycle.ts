import { randomBytes } from "node:crypto";
import { AccessLevel } from "../../api";
import { NAMESPACE_PATH, NAMESPACE_PATH_RULE } from "../../api/names";
import type { Agents } from "./agents";
import { ApiError, conflict, modelValidationError } from "./errors";
import type { Groups } from "./groups";
import type { Projects } from "./projects";
import type { GroupRecord, Membership, ProjectRecord, UserRecord } from "./records";
import type { Clock } from "./time";
import { DEFAULT_PROJECTS_LIMIT, type Users } from "./users";

/*
 * Making and removing the access entities: what `POST /users`, `/groups` and `/projects` (the
 * service's endpoints outside the spec) and the admin endpoints' out-of-band makers share, so
 * that an object made either way is like a seeded one. Removal takes what lives inside with it,
 * as the service does: a group's subgroups and projects, a project's agents, a user's personal
 * projects and memberships. Records of the resources that name a removed object by id stay,
 * unreachable through it (ids are never given twice).
 */

/** The parts of core making and removing need (core's class itself would be an import cycle). */
interface Entities {
  users: Users;
  groups: Groups;
  projects: Projects;
  agents: Agents;
  clock: Clock;
  nextId(kind: string): number;
}

/** The kind whose sequence namespaces draw their ids from: groups and personal namespaces share it, as on the service. */
export const NAMESPACE_SEQUENCE = "group";

type Visibility = GroupRecord["visibility"];

/** A direct membership made with the object, at the same moment, for its creator. */
function ownerMembership(creator: UserRecord, at: string): Membership {
  return { user_id: creator.id, access_level: AccessLevel.Owner, created_at: at, created_by_id: creator.id };
}

/** True when `path` names a top-level namespace already: a top-level group's (other than `except`) or a user's. */
function topLevelTaken(core: Pick<Entities, "users" | "groups">, path: string, except?: GroupRecord): boolean {
  const wanted = path.toLowerCase();
  return (
    core.groups.all().some((group) => group !== except && group.parent_id === null && group.path.toLowerCase() === wanted) ||
    core.users.all().some((user) => user.username.toLowerCase() === wanted)
  );
}

/**
 * The rule of every group's and project's path, whoever sets it (`POST /groups`, `PUT /groups/:id`,
 * `POST /projects`, `PUT /projects/:id`, the admin endpoints): 400 `{"path": [<the service's
 * wording>]}` otherwise.
 */
export function checkNamespacePath(path: string): void {
  if (!NAMESPACE_PATH.test(path)) throw modelValidationError("path", NAMESPACE_PATH_RULE);
}

/**
 * True when a group of `parentId` may not have `path` (case-insensitive): a sibling has it, or,
 * for a top-level group, any top-level namespace, users' included. `except` is the group itself
 * when it is renamed.
 */
export function groupPathTaken(
  core: Pick<Entities, "users" | "groups">,
  parentId: number | null,
  path: string,
  except?: GroupRecord,
): boolean {
  if (parentId === null) return topLevelTaken(core, path, except);
  const wanted = path.toLowerCase();
  return core.groups.all().some((group) => group !== except && group.parent_id === parentId && group.path.toLowerCase() === wanted);
}

/**
 * Refuses a project's name or path another project of the namespace has (case-insensitive; `except`
 * is the project itself when it is renamed): 400 `{"name": [...], "path": ["has already been taken"]}`
 * names each that clashes.
 */
export function refuseProjectClashes(
  core: Pick<Entities, "projects">,
  namespaceId: number,
  wanted: { name?: string | undefined; path?: string | undefined },
  except?: ProjectRecord,
): void {
  const others = core.projects.all().filter((project) => project !== except && project.namespace_id === namespaceId);
  const clashes: Record<string, string[]> = {};
  for (const field of ["name", "path"] as const) {
    const value = wanted[field]?.toLowerCase();
    if (value !== undefined && others.some((project) => project[field].toLowerCase() === value))
      clashes[field] = ["has already been taken"];
  }
  if (Object.keys(clashes).length > 0) throw new ApiError(400, { message: clashes });
}

export interface NewUser {
  username: string;
  name: string;
  email: string;
  admin: boolean;
  projectsLimit?: number | undefined;
  canCreateGroup?: boolean | undefined;
  external?: boolean | undefined;
  note?: string | null | undefined;
}

/**
 * A user and their personal namespace. The username and e-mail are unique (case-insensitive):
 * `409 {"message":"Username has already been taken"}` / `Email has already been taken`, the
 * service's answers. The token is random: a user made through the API has no token anyone knows.
 */
export function makeUser(core: Entities, spec: NewUser): UserRecord {
  const taken = (field: "username" | "email", value: string) =>
    core.users.all().some((user) => user[field].toLowerCase() === value.toLowerCase());
  if (taken("username", spec.username) || topLevelTaken(core, spec.username)) throw conflict("Username has already been taken");
  if (taken("email", spec.email)) throw conflict("Email has already been taken");
  return core.users.insert({
    id: core.nextId("user"),
    username: spec.username,
    name: spec.name,
    email: spec.email,
    state: "active",
    admin: spec.admin,
    token: `forge-${randomBytes(16).toString("hex")}`,
    created_at: core.clock.iso(),
    namespace_id: core.nextId(NAMESPACE_SEQUENCE),
    projects_limit: spec.projectsLimit ?? DEFAULT_PROJECTS_LIMIT,
    can_create_group: spec.canCreateGroup ?? true,
    external: spec.external ?? false,
    note: spec.note ?? null,
  });
}

export interface NewGroup {
  name: string;
  path: string;
  parentId: number | null;
  visibility: Visibility;
  description: string;
  creator: UserRecord;
}

/**
 * A group, its creator its Owner (a direct membership made with it, as on the service). Its path
 * follows {@link checkNamespacePath} and is free ({@link groupPathTaken}):
 * `{"path": ["has already been taken"]}` otherwise.
 */
export function makeGroup(core: Entities, spec: NewGroup): GroupRecord {
  checkNamespacePath(spec.path);
  if (groupPathTaken(core, spec.parentId, spec.path)) throw modelValidationError("path", "has already been taken");
  const created = core.clock.iso();
  return core.groups.insert({
    id: core.nextId(NAMESPACE_SEQUENCE),
    name: spec.name,
    path: spec.path,
    description: spec.description,
    visibility: spec.visibility,
    parent_id: spec.parentId,
    created_at: created,
    members: [ownerMembership(spec.creator, created)],
  });
}

export interface NewProject {
  name: string;
  path: string;
  /** A group's id or a personal namespace's. */
  namespaceId: number;
  visibility: Visibility;
  description: string | null;
  creator: UserRecord;
  /** Null: an empty repository. */
  defaultBranch: string | null;
  topics?: string[];
  settings?: Record<string, unknown>;
}

/**
 * A project. Its creator is recorded (`creator_id`) and becomes its Owner, a direct membership
 * made with it. Its path follows {@link checkNamespacePath}; name and path are unique in the
 * namespace ({@link refuseProjectClashes}).
 */
export function makeProject(core: Entities, spec: NewProject): ProjectRecord {
  checkNamespacePath(spec.path);
  refuseProjectClashes(core, spec.namespaceId, spec);
  const created = core.clock.iso();
  return core.projects.insert({
    id: core.nextId("project"),
    name: spec.name,
    path: spec.path,
    description: spec.description,
    namespace_id: spec.namespaceId,
    visibility: spec.visibility,
    default_branch: spec.defaultBranch,
    topics: spec.topics ?? [],
    created_at: created,
    last_activity_at: created,
    members: [{ ...ownerMembership(spec.creator, created), expires_at: null, member_role_id: null }],
    shared_with_groups: [],
    creator_id: spec.creator.id,
    ...(spec.settings && Object.keys(spec.settings).length > 0 ? { settings: spec.settings } : {}),
  });
}

/** Removes a project with its agents (and what lives below them). */
export function removeProject(core: Entities, project: ProjectRecord): void {
  core.agents.removeOfProject(project.id);
  core.projects.remove(project);
}

/** Removes a group, its subgroups and their projects; projects shared with any of them lose the share. */
export function removeGroup(core: Entities, group: GroupRecord): void {
  const removed = new Set([group.id, ...core.groups.descendants(group).map((child) => child.id)]);
  for (const project of core.projects.all().filter((candidate) => removed.has(candidate.namespace_id))) removeProject(core, project);
  for (const project of core.projects.all()) {
    project.shared_with_groups = project.shared_with_groups.filter((share) => !removed.has(share.group_id));
  }
  core.groups.removeWhere((candidate) => removed.has(candidate.id));
}

/** Removes a user: their personal projects and namespace, and their memberships everywhere. */
export function removeUser(core: Entities, user: UserRecord): void {
  for (const project of core.projects.all().filter((candidate) => candidate.namespace_id === user.namespace_id)) {
    removeProject(core, project);
  }
  const others = (members: Membership[]) => members.filter((member) => member.user_id !== user.id);
  for (const group of core.groups.all()) group.members = others(group.members);
  for (const project of core.projects.all()) project.members = others(project.members);
  core.users.remove(user);
}
