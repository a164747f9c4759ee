import { z } from "zod";
import { AccessLevel, isCalendarDate, PROJECT_MEMBER_ACCESS_LEVELS as MEMBER_ACCESS_LEVELS, roleName } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { conflict, forbidden, modelValidationError, parameterError, recordNotFound, thingNotFound } from "../../core/errors";
import type { Actor, Membership, ProjectRecord, UserRecord } from "../../core/records";
import { integerPathParam, paramBoolean, paramEnum, paramInteger, paramIntegerOf, paramString, validate } from "../../core/validation";

/** What the service answers for each user whose promotion it queued (rule 4). */
const QUEUED_NOTICE = "Request queued for administrator approval.";

/**
 * A request rule 4 queued: the membership it asks for, until an administrator decides
 * (`POST /__emulator/member_approvals/<project id>/<user id>/approve` or `/reject`).
 */
export interface QueuedMembership {
  project_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  member_role_id: number | null;
  created_at: string;
  created_by_id: number;
}

const expiresAt = () => paramString().nullable().optional();
const ids = () =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter((item) => item !== "") : typeof value === "number" ? [value] : value),
    z.array(paramInteger(), { error: "is invalid" }),
  );

const addParams = z.object({
  user_id: z.union([paramInteger(), paramString()]).optional(),
  username: paramString().optional(),
  access_level: paramIntegerOf(MEMBER_ACCESS_LEVELS).optional(),
  expires_at: expiresAt(),
  invite_source: paramString().optional(),
  member_role_id: paramInteger().nullable().optional(),
});
const updateParams = z.object({
  access_level: paramIntegerOf(MEMBER_ACCESS_LEVELS),
  expires_at: expiresAt(),
  member_role_id: paramInteger().nullable().optional(),
});
const removeParams = z.object({ skip_subresources: paramBoolean().optional(), unassign_issuables: paramBoolean().optional() });
const listParams = z.object({
  query: paramString().optional(),
  user_ids: ids().optional(),
  skip_users: ids().optional(),
  show_seat_info: paramBoolean().optional(),
  state: paramEnum(["awaiting", "active"]).optional(),
});

interface ProjectPath {
  project: string;
}

/** One row of a listing: a user's membership and where its level comes from. */
interface MemberRow {
  user: UserRecord;
  membership: Membership;
  state: "active" | "awaiting";
}

/**
 * Project members. Direct memberships live on the project record (core: every
 * resource checks roles against them); this model adds the rules of the members endpoints:
 * the effective level through ancestors and invited groups (rules 1 and 2), removal of direct
 * members only (rule 3) and the promotion queue (rule 4, kept in its own collection).
 */
export class ProjectMembers {
  constructor(
    private readonly core: Core,
    private readonly queued: Collection<QueuedMembership>,
  ) {}

  /** `GET /projects/:id/members`: direct members, filtered. Anyone who sees the project may list them. */
  direct(actor: Actor, path: ProjectPath, input: Record<string, unknown>): Record<string, unknown>[] {
    const project = this.core.permissions.requireProject(actor, path.project);
    const params = validate(listParams, input);
    const rows = project.members.flatMap((membership) => this.row(membership, "active"));
    return this.filtered(rows, params).map((row) => this.serialize(row, params.show_seat_info));
  }

  /** `GET /projects/:id/members/all`: effective members (rules 1 and 2) and, with Premium, queued ones. */
  all(actor: Actor, path: ProjectPath, input: Record<string, unknown>): Record<string, unknown>[] {
    const project = this.core.permissions.requireProject(actor, path.project);
    const params = validate(listParams, input);
    // `state` is a Premium and Ultimate filter; below, the parameter means nothing.
    const state = this.core.editions.current().tier === "free" ? undefined : params.state;
    const active = this.effective(actor, project);
    const activeIds = new Set(active.map((row) => row.user.id));
    const awaiting = this.queuedRows(project).filter((row) => state === "awaiting" || !activeIds.has(row.user.id));
    const rows = state === "active" ? active : state === "awaiting" ? awaiting : [...active, ...awaiting];
    return this.filtered(rows, params).map((row) => this.serialize(row, params.show_seat_info));
  }

  /** `GET /projects/:id/members/:user_id`: a direct member only. */
  getDirect(actor: Actor, path: ProjectPath, userId: string): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, path.project);
    return this.serialize(this.requireDirect(project, userId));
  }

  /** `GET /projects/:id/members/all/:user_id`: the effective membership (rules 1 and 2). */
  getAll(actor: Actor, path: ProjectPath, userId: string): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, path.project);
    const id = integerPathParam("user_id", userId);
    const row = this.effective(actor, project).find((candidate) => candidate.user.id === id);
    if (!row) throw recordNotFound();
    return this.serialize(row);
  }

  /**
   * `POST /projects/:id/members`: one user (answers the member) or several, comma-separated
   * (answers `{status: "success"}`). Promotions rule 4 queues answer the queued notices.
   */
  add(actor: Actor, path: ProjectPath, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, path.project, AccessLevel.Maintainer);
    const params = validate(addParams, input);
    if (params.user_id === undefined && params.username === undefined)
      throw parameterError("user_id, username are missing, exactly one parameter must be provided");
    if (params.user_id !== undefined && params.username !== undefined) throw parameterError("user_id, username are mutually exclusive");
    const level = params.access_level ?? AccessLevel.Developer;
    this.checkGrant(actor, project, level, params.member_role_id);
    const expires = this.expiry(params.expires_at);
    const users = this.usersOf(params.user_id, params.username);
    for (const user of users) {
      if (project.members.some((member) => member.user_id === user.id)) throw conflict("Member already exists");
      this.checkNotBelowInherited(project, user.id, level);
    }
    const queued: Record<string, string> = {};
    let last: Membership | undefined;
    for (const user of users) {
      const wanted = { access_level: level, expires_at: expires, member_role_id: params.member_role_id ?? null };
      if (this.promotionQueued(actor, user, level)) {
        this.queue(actor, project, user, wanted);
        queued[user.username] = QUEUED_NOTICE;
        continue;
      }
      last = { user_id: user.id, ...wanted, created_at: this.core.clock.iso(), created_by_id: (actor as UserRecord).id };
      project.members.push(last);
      // A request queued earlier is superseded by a membership the forge made.
      this.queued.removeWhere((entry) => entry.project_id === project.id && entry.user_id === user.id);
    }
    if (users.length === 1) {
      if (!last) return { message: queued };
      return this.serialize(this.row(last, "active")[0]!);
    }
    return Object.keys(queued).length > 0 ? { queued_users: queued, status: "success" } : { status: "success" };
  }

  /**
   * `PUT /projects/:id/members/:user_id`. `access_level` is required. `member_role_id` absent
   * removes every custom role, null removes the custom role: the same here, since
   * a membership has one role at most.
   */
  update(actor: Actor, path: ProjectPath, userId: string, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.core.permissions.requireProject(actor, path.project, AccessLevel.Maintainer);
    const member = this.requireDirect(project, userId);
    const params = validate(updateParams, input);
    this.checkGrant(actor, project, params.access_level, params.member_role_id);
    this.checkNotBelowInherited(project, member.user.id, params.access_level);
    // Only an Owner changes an Owner's membership.
    if (member.membership.access_level === AccessLevel.Owner && this.core.permissions.projectLevel(actor, project) < AccessLevel.Owner)
      throw forbidden();
    const expires = params.expires_at === undefined ? (member.membership.expires_at ?? null) : this.expiry(params.expires_at);
    const wanted = { access_level: params.access_level, expires_at: expires, member_role_id: params.member_role_id ?? null };
    if (params.access_level > member.membership.access_level && this.promotionQueued(actor, member.user, params.access_level)) {
      this.queue(actor, project, member.user, wanted);
      return { message: { [member.user.username]: QUEUED_NOTICE } };
    }
    Object.assign(member.membership, wanted);
    // A request the forge queued earlier is superseded by a change it applied.
    this.queued.removeWhere((entry) => entry.project_id === project.id && entry.user_id === member.user.id);
    return this.serialize(member);
  }

  /**
   * `DELETE /projects/:id/members/:user_id`: rule 3, only a role given in this project. A user
   * whose access comes from a group (or an invited group) has no membership here to remove:
   * 404, as for any user without one.
   */
  remove(actor: Actor, path: ProjectPath, userId: string, input: Record<string, unknown>): void {
    const project = this.core.permissions.requireProject(actor, path.project, AccessLevel.Maintainer);
    validate(removeParams, input);
    const id = integerPathParam("user_id", userId);
    const queued = this.queued.find((entry) => entry.project_id === project.id && entry.user_id === id);
    const index = project.members.findIndex((member) => member.user_id === id);
    if (index < 0 && !queued) throw recordNotFound();
    const member = project.members[index];
    if (member?.access_level === AccessLevel.Owner && this.core.permissions.projectLevel(actor, project) < AccessLevel.Owner)
      throw forbidden();
    if (index >= 0) project.members.splice(index, 1);
    this.queued.removeWhere((entry) => entry.project_id === project.id && entry.user_id === id);
  }

  /** An administrator approves a queued request: it becomes (or changes) the direct membership. */
  approve(projectId: number, userId: number): boolean {
    const entry = this.queued.find((candidate) => candidate.project_id === projectId && candidate.user_id === userId);
    const project = this.core.projects.byId(projectId);
    if (!entry || !project) return false;
    const { project_id: _project, ...membership } = entry;
    const existing = project.members.find((member) => member.user_id === userId);
    if (existing)
      Object.assign(existing, {
        access_level: membership.access_level,
        expires_at: membership.expires_at,
        member_role_id: membership.member_role_id,
      });
    else project.members.push(membership);
    this.queued.remove(entry);
    return true;
  }

  /** An administrator rejects a queued request: the membership stays as it was. */
  reject(projectId: number, userId: number): boolean {
    const entry = this.queued.find((candidate) => candidate.project_id === projectId && candidate.user_id === userId);
    if (entry) this.queued.remove(entry);
    return entry !== undefined;
  }

  /**
   * Rule 4: with `enable_member_promotion_management` on, a request by someone other than an
   * administrator that gives a billable role (above Guest) to a user who has none anywhere on
   * the instance is queued. The spec does not define "billable": the service's definition is
   * taken (Guest and Minimal access are not billable).
   */
  private promotionQueued(actor: Actor, user: UserRecord, level: number): boolean {
    if (!this.core.state.settings.member_promotion_management || actor?.admin) return false;
    if (level <= AccessLevel.Guest || user.admin) return false;
    const held = [...this.core.groups.all(), ...this.core.projects.all()].flatMap((source) =>
      source.members.filter((member) => member.user_id === user.id),
    );
    return !held.some((member) => member.access_level > AccessLevel.Guest);
  }

  private queue(
    actor: Actor,
    project: ProjectRecord,
    user: UserRecord,
    wanted: { access_level: number; expires_at: string | null; member_role_id: number | null },
  ): void {
    this.queued.removeWhere((entry) => entry.project_id === project.id && entry.user_id === user.id);
    this.queued.insert({
      project_id: project.id,
      user_id: user.id,
      ...wanted,
      created_at: this.core.clock.iso(),
      created_by_id: (actor as UserRecord).id,
    });
  }

  /** Owner is given by Owners only; a custom role needs Ultimate. */
  private checkGrant(actor: Actor, project: ProjectRecord, level: number, memberRoleId: number | null | undefined): void {
    if (level === AccessLevel.Owner && this.core.permissions.projectLevel(actor, project) < AccessLevel.Owner) throw forbidden();
    if (memberRoleId !== undefined && memberRoleId !== null) {
      if (this.core.editions.current().tier !== "ultimate") throw forbidden("member_role_id needs Ultimate");
      if (memberRoleId <= 0) throw modelValidationError("member_role", "not found");
    }
  }

  /** `YYYY-MM-DD`, not in the past; empty or null clears it. */
  private expiry(value: string | null | undefined): string | null {
    if (value === undefined || value === null || value === "") return null;
    if (!isCalendarDate(value)) throw parameterError("expires_at is invalid");
    if (value < this.core.clock.iso().slice(0, 10)) throw modelValidationError("expires_at", "cannot be a date in the past");
    return value;
  }

  private usersOf(userId: number | string | undefined, username: string | undefined): UserRecord[] {
    const refs = userId !== undefined ? String(userId).split(",") : (username ?? "").split(",");
    const wanted = refs.map((ref) => ref.trim()).filter((ref) => ref !== "");
    if (wanted.length === 0) throw parameterError(userId !== undefined ? "user_id is empty" : "username is empty");
    return wanted.map((ref) => {
      const user =
        userId !== undefined ? (/^\d+$/.test(ref) ? this.core.users.byId(Number(ref)) : undefined) : this.core.users.byUsername(ref);
      if (!user) throw thingNotFound("User");
      return user;
    });
  }

  private requireDirect(project: ProjectRecord, userId: string): MemberRow {
    const id = integerPathParam("user_id", userId);
    const membership = project.members.find((member) => member.user_id === id);
    const row = membership && this.row(membership, "active")[0];
    if (!row) throw recordNotFound();
    return row;
  }

  private row(membership: Membership, state: MemberRow["state"]): MemberRow[] {
    const user = this.core.users.byId(membership.user_id);
    return user ? [{ user, membership, state }] : [];
  }

  /**
   * Rule 1: each user once, with the highest level among the project's own members, its
   * namespace and the namespace's ancestors, and the groups the project is shared with (capped
   * by the share's level). Rule 2: members of an invited group are shown when that group is
   * public, or the caller is a member of it or of the project (administrators see all).
   */
  /** A direct role below the one a user inherits from the project's groups is refused (400),
   *  naming the inherited level and the group, as the service does. */
  private checkNotBelowInherited(project: ProjectRecord, userId: number, level: number): void {
    let inherited: { level: number; group: string } | undefined;
    for (const group of this.core.projects.groupsAbove(project)) {
      const membership = group.members.find((member) => member.user_id === userId);
      if (membership && (!inherited || membership.access_level > inherited.level))
        inherited = { level: membership.access_level, group: this.core.groups.fullPath(group) };
    }
    if (inherited && level < inherited.level) {
      throw modelValidationError(
        "access_level",
        `should be greater than or equal to ${roleName(inherited.level)} inherited membership from group ${inherited.group}`,
      );
    }
  }

  private effective(actor: Actor, project: ProjectRecord): MemberRow[] {
    const best = new Map<number, Membership>();
    const offer = (membership: Membership) => {
      const current = best.get(membership.user_id);
      if (!current || membership.access_level > current.access_level) best.set(membership.user_id, membership);
    };
    for (const group of this.core.projects.groupsAbove(project)) group.members.forEach(offer);
    project.members.forEach(offer);
    const permissions = this.core.permissions;
    const inProject = actor !== null && (actor.admin || permissions.projectMemberLevel(actor.id, project) > AccessLevel.NoAccess);
    for (const share of project.shared_with_groups) {
      const group = this.core.groups.byId(share.group_id);
      if (!group) continue;
      const visible =
        inProject ||
        group.visibility === "public" ||
        (actor !== null && permissions.groupMemberLevel(actor.id, group) > AccessLevel.NoAccess);
      if (!visible) continue;
      for (const source of this.core.groups.selfAndAncestors(group)) {
        for (const member of source.members) offer({ ...member, access_level: Math.min(member.access_level, share.group_access_level) });
      }
    }
    return [...best.values()].flatMap((membership) => this.row(membership, "active")).sort((a, b) => a.user.id - b.user.id);
  }

  private queuedRows(project: ProjectRecord): MemberRow[] {
    return this.queued
      .list(
        (entry) => entry.project_id === project.id,
        (a, b) => a.user_id - b.user_id,
      )
      .flatMap((entry) => this.row(entry, "awaiting"));
  }

  private filtered(rows: MemberRow[], params: z.output<typeof listParams>): MemberRow[] {
    const query = params.query?.toLowerCase();
    return rows.filter(
      ({ user }) =>
        (!query || [user.username, user.name, user.email].some((text) => text.toLowerCase().includes(query))) &&
        (!params.user_ids || params.user_ids.includes(user.id)) &&
        (!params.skip_users || !params.skip_users.includes(user.id)),
    );
  }

  /**
   * The API's member record. `membership_state` (`active` or `awaiting`) is the state the
   * `state` filter selects by: the spec names the values, the service names the field so.
   */
  private serialize(row: MemberRow, seatInfo = false): Record<string, unknown> {
    const { user, membership } = row;
    const creator = membership.created_by_id === undefined ? undefined : this.core.users.byId(membership.created_by_id);
    return {
      ...this.core.users.basic(user),
      created_at: membership.created_at ?? user.created_at,
      created_by: creator ? this.core.users.basic(creator) : null,
      expires_at: membership.expires_at ?? null,
      access_level: membership.access_level,
      group_saml_identity: null,
      membership_state: row.state,
      ...(seatInfo ? { is_using_seat: membership.access_level > AccessLevel.Guest } : {}),
    };
  }
}
