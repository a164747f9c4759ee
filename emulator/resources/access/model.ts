import { z } from "zod";
import { AccessLevel } from "../../../api";
import { tierIncludes } from "../../../api/editions";
import type { Core } from "../../core/core";
import { type Actor, type GroupRecord, type ProjectRecord, type UserRecord, VISIBILITIES } from "../../core/records";
import type { KeysetRule } from "../../core/routes";
import { sortBy } from "../../core/sort";
import { paramBoolean, paramEnum, paramInteger, paramIntegerOf, paramString, validate } from "../../core/validation";

const SORTS = ["asc", "desc"] as const;
const MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;
type Params = Record<string, unknown>;

/** Parameters of `GET /groups/:id` (S3). */
const groupParams = z.object({
  with_custom_attributes: paramBoolean().optional(),
  with_projects: paramBoolean().optional(),
});

/** At most this many projects, and as many shared projects, in a group record (S3). */
const EMBEDDED_PROJECTS = 100;

/** `GET /groups`: every filter. */
const listGroupsParams = z.object({
  skip_groups: z
    .preprocess((value) => (typeof value === "string" ? value.split(",") : value), z.array(paramInteger(), { error: "is invalid" }))
    .optional(),
  statistics: paramBoolean().optional(),
  with_custom_attributes: paramBoolean().optional(),
  custom_attributes: z.record(z.string(), paramString(), { error: "is invalid" }).optional(),
  repository_storage: paramString().optional(),
  marked_for_deletion_on: paramString()
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is invalid" }))
    .optional(),
  active: paramBoolean().optional(),
  archived: paramBoolean().optional(),
  all_available: paramBoolean().optional(),
  search: paramString().optional(),
  order_by: paramEnum(["name", "path", "id", "similarity"]).optional(),
  sort: paramEnum(SORTS).optional(),
  visibility: paramEnum(VISIBILITIES).optional(),
  owned: paramBoolean().optional(),
  min_access_level: paramIntegerOf(MEMBER_LEVELS).optional(),
  top_level_only: paramBoolean().optional(),
});

/** `GET /projects`: the spec shows `repository_storage` (administrators); the rest are the service's. */
const listProjectsParams = z.object({
  search: paramString().optional(),
  visibility: paramEnum(VISIBILITIES).optional(),
  membership: paramBoolean().optional(),
  min_access_level: paramIntegerOf(MEMBER_LEVELS).optional(),
  repository_storage: paramString().optional(),
  id_after: paramInteger().optional(),
  id_before: paramInteger().optional(),
  order_by: paramEnum(["id", "name", "path", "created_at", "updated_at", "last_activity_at"]).optional(),
  sort: paramEnum(SORTS).optional(),
});

const USER_ORDERS = ["id", "name", "username", "created_at", "updated_at"] as const;

/** `GET /users`: lookups by username or search, and the orderings of the API's keyset pagination table. */
const listUsersParams = z.object({
  username: paramString().optional(),
  search: paramString().optional(),
  active: paramBoolean().optional(),
  blocked: paramBoolean().optional(),
  order_by: paramEnum(USER_ORDERS).optional(),
  sort: paramEnum(SORTS).optional(),
});

/** Groups: keyset only by name, ascending (the API's keyset pagination table); offset default name asc. */
export const GROUP_KEYSET: KeysetRule = { orders: { name: ["asc"] }, defaultOrder: { orderBy: "name", sort: "asc" } };

/** Projects: keyset only by id; the listing's own default (created_at desc) has none. */
export const PROJECT_KEYSET: KeysetRule = {
  orders: { id: ["asc", "desc"] },
  defaultOrder: { orderBy: "created_at", sort: "desc" },
};

/**
 * Reads of the access entities. Their state and rules live in core, because every resource
 * checks roles against them; only these reads are a resource of their own.
 */
export class AccessReads {
  /** Users: keyset by id, name, username, created_at or updated_at, either way; default id desc. */
  readonly userKeyset: KeysetRule;

  constructor(private readonly core: Core) {
    this.userKeyset = {
      orders: Object.fromEntries(USER_ORDERS.map((order) => [order, SORTS])),
      defaultOrder: { orderBy: "id", sort: "desc" },
      // The listing's records of non-administrators lack the dates: order by the user's own.
      keyOf: (item, orderBy) => userField(this.core.users.byId((item as { id: number }).id), orderBy),
    };
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
    return this.core.projectRecordFor(this.core.permissions.requireProject(actor, projectRef), actor);
  }

  /**
   * `GET /groups`: anonymous callers get the public groups; users the groups they are members
   * of (or every visible one with `all_available`, the administrators' default).
   */
  groups(actor: Actor, params: Params): Record<string, unknown>[] {
    const query = validate(listGroupsParams, params);
    const { groups, permissions } = this.core;
    const level = (group: GroupRecord) => permissions.groupMemberLevel(actor?.id ?? 0, group);
    const minLevel = query.owned ? AccessLevel.Owner : query.min_access_level;
    const allAvailable = !actor || (minLevel === undefined && (query.all_available ?? actor.admin));
    const search = query.search?.toLowerCase();
    const admin = actor?.admin === true;
    const premium = tierIncludes(this.core.editions.current().tier, "premium");
    // Administrator-only and Premium filters are ignored where they do not apply, as the service does.
    const storage = admin && premium ? query.repository_storage : undefined;
    const deletionOn = premium ? query.marked_for_deletion_on : undefined;
    const attributes = admin ? Object.entries(query.custom_attributes ?? {}) : [];
    const skipped = new Set(query.skip_groups ?? []);
    const active = (group: GroupRecord) => !group.archived && !group.marked_for_deletion_on;
    const selected = groups.all().filter(
      (group) =>
        permissions.canSeeGroup(actor, group) &&
        !skipped.has(group.id) &&
        (allAvailable || level(group) >= (minLevel ?? AccessLevel.MinimalAccess)) &&
        (query.visibility === undefined || group.visibility === query.visibility) &&
        (!query.top_level_only || group.parent_id === null) &&
        (storage === undefined || (group.repository_storage ?? "default") === storage) &&
        (deletionOn === undefined || group.marked_for_deletion_on === deletionOn) &&
        (query.active === undefined || active(group) === query.active) &&
        // `archived` is an experiment: true lists only archived groups, false only the others.
        (query.archived === undefined || (group.archived ?? false) === query.archived) &&
        attributes.every(([key, value]) =>
          (group.custom_attributes ?? []).some((attribute) => attribute.key === key && attribute.value === value),
        ) &&
        (!search || group.name.toLowerCase().includes(search) || group.path.toLowerCase().includes(search)),
    );
    // `similarity` ranks search matches; without a score model, name order is the closest.
    const orderBy = query.order_by === "similarity" ? "name" : (query.order_by ?? "name");
    const fields = (group: GroupRecord) => ({ id: group.id, name: group.name, path: group.path });
    return sortBy(selected, (group) => fields(group)[orderBy], query.sort ?? "asc").map((group) => {
      const record = groups.serialize(group);
      if (query.with_custom_attributes && admin) record["custom_attributes"] = customAttributes(group);
      if (query.statistics && admin) Object.assign(record, this.statistics(group));
      return record;
    });
  }

  /**
   * `statistics=true` (administrators): the emulator stores no content, so every size is 0; the
   * shape is the API's group record (`root_storage_statistics` for top-level groups only).
   */
  private statistics(group: GroupRecord): Record<string, unknown> {
    const sizes = (names: string[]) => Object.fromEntries(names.map((name) => [name, 0]));
    const statistics = sizes([
      "storage_size",
      "repository_size",
      "wiki_size",
      "lfs_objects_size",
      "job_artifacts_size",
      "pipeline_artifacts_size",
      "packages_size",
      "snippets_size",
      "uploads_size",
    ]);
    if (group.parent_id !== null) return { statistics };
    const root = sizes([
      "build_artifacts_size",
      "container_registry_size",
      "dependency_proxy_size",
      "lfs_objects_size",
      "packages_size",
      "pipeline_artifacts_size",
      "repository_size",
      "snippets_size",
      "storage_size",
      "uploads_size",
      "wiki_size",
    ]);
    return { statistics, root_storage_statistics: { ...root, container_registry_size_is_estimated: false } };
  }

  /** `GET /projects`: the projects the caller can see; `repository_storage` for administrators only. */
  projects(actor: Actor, params: Params): Record<string, unknown>[] {
    const query = validate(listProjectsParams, params);
    const { projects, permissions } = this.core;
    const level = (project: ProjectRecord) => permissions.projectMemberLevel(actor?.id ?? 0, project);
    const minLevel = query.min_access_level ?? (query.membership ? AccessLevel.Guest : undefined);
    // Others' `repository_storage` is ignored, as the service ignores admin-only filters.
    const storage = actor?.admin ? query.repository_storage : undefined;
    const search = query.search?.toLowerCase();
    const selected = projects
      .all()
      .filter(
        (project) =>
          permissions.canSeeProject(actor, project) &&
          (minLevel === undefined || level(project) >= minLevel) &&
          (query.visibility === undefined || project.visibility === query.visibility) &&
          (storage === undefined || projects.storageOf(project) === storage) &&
          (query.id_after === undefined || project.id > query.id_after) &&
          (query.id_before === undefined || project.id < query.id_before) &&
          (!search || project.name.toLowerCase().includes(search) || project.path.toLowerCase().includes(search)),
      );
    const orderBy = query.order_by ?? "created_at";
    const value = (project: ProjectRecord): string | number =>
      orderBy === "id" ? project.id : orderBy === "updated_at" ? project.last_activity_at : project[orderBy];
    return sortBy(selected, value, query.sort ?? "desc").map((project) => this.core.projectRecordFor(project, actor));
  }

  /** `GET /users`: signed-in callers only; administrators see email and role as well. */
  users(actor: Actor, params: Params): Record<string, unknown>[] {
    const caller = this.core.permissions.requireUser(actor);
    const query = validate(listUsersParams, params);
    const { users } = this.core;
    const search = query.search?.toLowerCase();
    const selected = users
      .all()
      .filter(
        (user) =>
          (query.username === undefined || user.username.toLowerCase() === query.username.toLowerCase()) &&
          (!query.active || user.state === "active") &&
          (!query.blocked || user.state === "blocked") &&
          (!search || [user.username, user.name, user.email].some((text) => text.toLowerCase().includes(search))),
      );
    const orderBy = query.order_by ?? "id";
    return sortBy(selected, (user) => userField(user, orderBy), query.sort ?? "desc").map((user) =>
      caller.admin ? users.current(user) : users.basic(user),
    );
  }

  /** The embedded project records of the projects the caller can see, oldest first. */
  private embedded(actor: Actor, belongs: (project: ProjectRecord) => boolean): Record<string, unknown>[] {
    return this.core.projects
      .list((project) => belongs(project) && this.core.permissions.canSeeProject(actor, project))
      .slice(0, EMBEDDED_PROJECTS)
      .map((project) => this.core.projects.serialize(project));
  }
}

function customAttributes(group: GroupRecord): { key: string; value: string }[] {
  return (group.custom_attributes ?? []).map((attribute) => ({ ...attribute }));
}

/** A user's value of an ordering field (users are not updated here: created_at stands in). */
function userField(user: UserRecord | undefined, orderBy: string): string | number {
  if (!user) return 0;
  if (orderBy === "id") return user.id;
  if (orderBy === "updated_at") return user.created_at;
  return user[orderBy as "name" | "username" | "created_at"];
}
