import { AccessLevel } from "../../api";
import { forbidden, ProjectMoved, thingNotFound, unauthorized } from "./errors";
import type { Groups } from "./groups";
import type { Projects } from "./projects";
import type { Actor, GroupRecord, ProjectRecord, UserRecord } from "./records";

/** Administrators pass every role check: they rank above Owner. */
const ADMIN_EFFECTIVE_LEVEL = AccessLevel.Admin;

/**
 * Effective access and visibility. Effective access is the maximum over the direct
 * membership and the memberships in every ancestor group (the API's members rule 1).
 */
export class Permissions {
  constructor(
    private readonly groups: Groups,
    private readonly projects: Projects,
  ) {}

  /** Membership-derived level in a group (ignores the administrator flag). */
  groupMemberLevel(userId: number, group: GroupRecord): number {
    let level: number = AccessLevel.NoAccess;
    for (const g of this.groups.selfAndAncestors(group)) {
      for (const m of g.members) if (m.user_id === userId) level = Math.max(level, m.access_level);
    }
    return level;
  }

  /**
   * Membership-derived level in a project: project members, its group and the group's ancestors,
   * and shares. A personal namespace's user owns its projects.
   */
  projectMemberLevel(userId: number, project: ProjectRecord): number {
    const { group, user } = this.projects.namespaceOf(project);
    let level = group ? this.groupMemberLevel(userId, group) : user.id === userId ? AccessLevel.Owner : AccessLevel.NoAccess;
    for (const m of project.members) if (m.user_id === userId) level = Math.max(level, m.access_level);
    for (const share of project.shared_with_groups) {
      const group = this.groups.byId(share.group_id);
      if (!group) continue;
      const viaShare = Math.min(this.groupMemberLevel(userId, group), share.group_access_level);
      level = Math.max(level, viaShare);
    }
    return level;
  }

  groupLevel(actor: Actor, group: GroupRecord): number {
    if (!actor) return AccessLevel.NoAccess;
    return actor.admin ? ADMIN_EFFECTIVE_LEVEL : this.groupMemberLevel(actor.id, group);
  }

  projectLevel(actor: Actor, project: ProjectRecord): number {
    if (!actor) return AccessLevel.NoAccess;
    return actor.admin ? ADMIN_EFFECTIVE_LEVEL : this.projectMemberLevel(actor.id, project);
  }

  /**
   * A group is visible when public, internal to a signed-in user, or when the user is a member
   * of it, of an ancestor, or of anything below it (members of a subgroup see its parents).
   */
  canSeeGroup(actor: Actor, group: GroupRecord): boolean {
    if (group.visibility === "public") return true;
    if (!actor) return false;
    if (actor.admin || group.visibility === "internal") return true;
    if (this.groupMemberLevel(actor.id, group) > AccessLevel.NoAccess) return true;
    const below = this.groups.descendants(group);
    if (below.some((g) => g.members.some((m) => m.user_id === actor.id))) return true;
    const belowIds = new Set([group.id, ...below.map((g) => g.id)]);
    return this.projects.all().some((p) => belowIds.has(p.namespace_id) && p.members.some((m) => m.user_id === actor.id));
  }

  /** Minimal access grants no project visibility; Guest and above do. */
  canSeeProject(actor: Actor, project: ProjectRecord): boolean {
    if (project.visibility === "public") return true;
    if (!actor) return false;
    if (actor.admin || project.visibility === "internal") return true;
    return this.projectMemberLevel(actor.id, project) >= AccessLevel.Guest;
  }

  /**
   * The group behind `:id` if the actor may see it, else `404 Group Not Found` (never 403, so
   * that private groups do not leak). With `minLevel`, an anonymous actor gets 401 and a member
   * below the level 403.
   */
  requireGroup(actor: Actor, ref: string, minLevel?: number): GroupRecord {
    const group = this.groups.byRef(ref);
    const visible = group && this.canSeeGroup(actor, group) ? group : undefined;
    return this.checked(actor, minLevel, "Group", visible, visible && this.groupLevel(actor, visible));
  }

  /** Same as {@link requireGroup} for projects (`404 Project Not Found`). */
  requireProject(actor: Actor, ref: string, minLevel?: number): ProjectRecord {
    const project = this.projects.byRef(ref);
    // An old path of a project the caller may see redirects (the HTTP layer answers it).
    const moved = project ? undefined : this.projects.movedFrom(ref);
    if (moved && this.canSeeProject(actor, moved)) throw new ProjectMoved(ref, this.projects.pathWithNamespace(moved));
    const visible = project && this.canSeeProject(actor, project) ? project : undefined;
    return this.checked(actor, minLevel, "Project", visible, visible && this.projectLevel(actor, visible));
  }

  /**
   * The `permissions` of a project record (the caller's): their direct membership of the project
   * (`project_access`) and their membership of its group or the nearest group above it where they
   * have one (`group_access`), each `{access_level, notification_level}` or null.
   */
  projectPermissions(actor: Actor, project: ProjectRecord): Record<string, unknown> {
    const access = (level: number | undefined) => (level ? { access_level: level, notification_level: 3 } : null);
    const direct = actor ? project.members.find((member) => member.user_id === actor.id)?.access_level : undefined;
    const group = this.projects.groupOf(project);
    const inGroup = actor && group ? this.groupMemberLevel(actor.id, group) : 0;
    return { project_access: access(direct), group_access: access(inGroup) };
  }

  /** Any signed-in user; 401 otherwise. */
  requireUser(actor: Actor): UserRecord {
    if (!actor) throw unauthorized();
    return actor;
  }

  /** Administrators only: 401 when anonymous, 403 for everyone else. */
  requireAdmin(actor: Actor): UserRecord {
    const user = this.requireUser(actor);
    if (!user.admin) throw forbidden();
    return user;
  }

  /** The order of checks both lookups share: credentials, then visibility, then the role. */
  private checked<T>(actor: Actor, minLevel: number | undefined, thing: string, visible: T | undefined, level = 0): T {
    if (minLevel !== undefined && !actor) throw unauthorized();
    if (!visible) throw thingNotFound(thing);
    if (minLevel !== undefined && level < minLevel) throw forbidden();
    return visible;
  }
}
