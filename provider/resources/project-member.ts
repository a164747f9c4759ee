import { z } from "zod";
import { isCalendarDate, PROJECT_MEMBER_ACCESS_LEVELS } from "../../api";
import { isNotFound } from "../client";
import { defineResource, type OperationContext, type State, type WireRecord } from "../engine/declaration";
import { nonBlank, normalizers, projectRef, roleList, serverId, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, projectRecord, text, tokenUserId } from "../adopt-entry/find";
import { routes } from "../../api/routes";
import { pulumiSdk } from "../pulumi-sdk";

/** How long after a project's creation its creator's membership may be dated and still be the one the forge made with it. */
const CREATOR_MEMBERSHIP_SLACK_MS = 60_000;

const MEMBERS = routes.projectMembers;

/** A warning in Pulumi's log (the provider process), or stderr outside the engine. */
function warn(message: string): void {
  try {
    void pulumiSdk().log.warn(message);
  } catch {
    process.stderr.write(`warning: ${message}\n`);
  }
}

/** Rule 4's answer to a queued promotion: `{message: {user: notice}}` or `{queued_users: {...}}`. */
function queuedNotice(answer: unknown): string | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const record = answer as WireRecord;
  const notices = (typeof record["message"] === "object" && record["message"] !== null ? record["message"] : record["queued_users"]) as
    Record<string, unknown> | undefined;
  if (!notices || typeof notices !== "object") return undefined;
  const texts = Object.values(notices).map(String);
  return texts.length > 0 ? texts.join(" ") : undefined;
}

/** The user's id: from the state, or looked up by username (a user the forge does not know: undefined, and the create's answer says so). */
async function userIdOf(ctx: OperationContext, state: State): Promise<number | undefined> {
  if (typeof state["userId"] === "number") return state["userId"];
  const ref = normalizers.ref(state["user"]);
  if (typeof ref === "number") return ref;
  if (typeof ref !== "string") return undefined;
  const users = await ctx.list(routes.users.list, state, { username: ref });
  const user = users.find((candidate) => String(candidate["username"]).toLowerCase() === ref.toLowerCase());
  return typeof user?.["id"] === "number" ? user["id"] : undefined;
}

/** Surfaces a queued promotion: a warning now, and the notice in state while it waits. */
function noteQueued(state: State, notice: string): void {
  const who = state["user"];
  warn(
    `ProjectMember ${String(state["project"])}:${String(who)}: the forge queued access level ${String(state["accessLevel"])} for administrator approval ` +
      `(${notice}). It shows as membershipState "awaiting" until an administrator decides; later runs do not send it again.`,
  );
  // The read that follows keeps the notice while the request waits (see readMember).
  state["queuedNotice"] = notice;
}

/**
 * The direct membership, or the request rule 4 queued for it. While a promotion waits, the
 * record shows the level asked for (so the program's value is no diff and nothing is sent
 * again), `membership_state` `awaiting`, and the level the forge grants meanwhile.
 */
async function readMember(ctx: OperationContext, state: State): Promise<WireRecord | undefined> {
  const userId = await userIdOf(ctx, state);
  if (userId === undefined) return undefined;
  const withId = { ...state, userId };
  let direct: WireRecord | undefined;
  try {
    direct = await ctx.call<WireRecord>(MEMBERS.get, withId);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  // `state` filters by membership state on Premium and Ultimate; below, the field tells.
  const listed = await ctx.list(MEMBERS.listAll, state, { state: "awaiting", user_ids: [userId] });
  const awaiting = listed.find((record) => record["id"] === userId && record["membership_state"] === "awaiting");
  if (awaiting) {
    return {
      ...(direct ?? awaiting),
      access_level: awaiting["access_level"],
      expires_at: awaiting["expires_at"],
      membership_state: "awaiting",
      granted_access_level: direct?.["access_level"] ?? null,
      queued_notice: typeof state["queuedNotice"] === "string" ? state["queuedNotice"] : "queued for administrator approval",
    };
  }
  if (!direct) return undefined;
  return { ...direct, membership_state: direct["membership_state"] ?? "active", granted_access_level: direct["access_level"] };
}

/** The update body: `access_level` always (the PUT requires it), the expiry and custom role as set or reset. */
function writeBody(state: State): Record<string, unknown> {
  const body: Record<string, unknown> = { access_level: state["accessLevel"] };
  if (state["expiresAt"] !== undefined) body["expires_at"] = state["expiresAt"];
  if (state["memberRoleId"] !== undefined) body["member_role_id"] = state["memberRoleId"];
  return body;
}

/** Today in UTC, as the forge dates an expiry. */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * A user's direct membership of a project. What it manages is the role given in the project
 * itself; `listProjectMembers({ all: true })` shows the effective level, which can be higher
 * through the project's groups.
 */
export const projectMember = defineResource({
  name: "ProjectMember",
  summary: "A user's direct membership of a project: role, expiry, custom role.",
  inputs: z.object({
    /** The project: id or full path. */
    project: projectRef,
    /** The user: numeric id or username. Changing it replaces the membership. */
    user: z.union([serverId, nonBlank("username")], {
      error: (issue) => `${show(issue.input)} is not a user. Give the user's numeric id or username.`,
    }),
    /** The role: 0 No access, 5 Minimal access, 10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner (Owners only give Owner). */
    accessLevel: z.literal(PROJECT_MEMBER_ACCESS_LEVELS, {
      error: (issue) => `${show(issue.input)} is not a project access level. Use ${roleList(PROJECT_MEMBER_ACCESS_LEVELS)}.`,
    }),
    /** When the membership ends (`YYYY-MM-DD`, today or later). Dropping it makes the membership permanent. */
    expiresAt: z
      .string()
      .check(
        valueRule({
          format: "date",
          rule: "a date written YYYY-MM-DD",
          holds: isCalendarDate,
          message: (value) => `${show(value)} is not a date of the calendar. Write it as YYYY-MM-DD, such as "2026-12-31".`,
        }),
      )
      .check(
        valueRule({
          format: "date",
          rule: "today or later",
          holds: (value) => !isCalendarDate(value) || value >= today(),
          message: (value) =>
            `${show(value)} is in the past; the forge takes today or a later date. Set a later date, or drop expiresAt for a membership that does not expire.`,
        }),
      )
      .optional(),
    /**
     * A custom role (Ultimate), by id. The forge never returns it: it is compared with the
     * value last applied. Dropping it removes the custom role.
     */
    memberRoleId: serverId.optional(),
  }),
  outputs: z.object({
    /** The user's id. */
    userId: serverId,
    /** The user's username. */
    username: z.string(),
    /** The user's display name. */
    name: z.string(),
    /** The user's profile page. */
    webUrl: z.string(),
    /** `active`, or `awaiting` while a promotion waits for an administrator's approval. */
    membershipState: z.enum(["active", "awaiting"]),
    /** The level the forge grants now: lower than `accessLevel` while a promotion waits; absent for a new member who waits. */
    grantedAccessLevel: z.literal(PROJECT_MEMBER_ACCESS_LEVELS).optional(),
    /** The forge's notice while a promotion waits for approval. */
    queuedNotice: z.string().optional(),
    /** When the membership was made. */
    createdAt: z.string(),
  }),
  recordId: "userId",
  idParts: ["project", "userId"],
  // A user named by id in one resource and by username in another is not matched: the program cannot tell.
  identity: {
    fields: ["project", "user"],
    ignoreCase: ["user"],
    describe: (state) => `the membership of user ${show(state["user"])} in project ${show(state["project"])}`,
    // Addressed by its user: its creation time tells it from a membership given again since.
    evidence: ["created_at"],
  },
  // Every write is read back: the read knows whether a promotion waits.
  create: { route: MEMBERS.create, readBack: true },
  read: MEMBERS.get,
  update: { route: MEMBERS.update, readBack: true },
  delete: MEMBERS.delete,
  replaceOn: ["project", "user"],
  // One membership per user and project: the user named another way (id for username) is the
  // same membership, which must go before it is made again.
  deleteBeforeReplace: true,
  writeOnly: ["memberRoleId"],
  // An empty expiry clears it, a null custom role removes it.
  resets: { expiresAt: null, memberRoleId: null },
  // A user by id or by username, in any case: the same user.
  normalize: {
    project: normalizers.ref,
    user: (value) => (typeof value === "string" ? (/^\d+$/.test(value) ? Number(value) : value.toLowerCase()) : value),
  },
  hooks: {
    read: readMember,
    // The user as the program names it: by id or by username (a read by id alone: the username).
    mapRecord: (record, state) => ({ user: typeof normalizers.ref(state["user"]) === "number" ? record["id"] : record["username"] }),
    async create(ctx, state) {
      const userId = await userIdOf(ctx, state);
      const ref = normalizers.ref(state["user"]);
      const body: Record<string, unknown> = { ...writeBody(state), ...(typeof ref === "number" ? { user_id: ref } : { username: ref }) };
      const withId = userId === undefined ? state : { ...state, userId };
      // One membership per user and project: a direct one there before the create is not this
      // resource's (a conflict naming its import id), nor is one found after a lost answer.
      const send = () => ctx.call<WireRecord>(MEMBERS.create, withId, body);
      const answer = userId === undefined ? await send() : await ctx.createOwned(withId, send);
      const notice = queuedNotice(answer);
      if (notice) noteQueued(state, notice);
      return { ...answer, id: userId ?? answer["id"] };
    },
    async update(ctx, state) {
      // A new member whose request waits has no membership to change yet: ask again.
      const answer = await ctx.call<WireRecord>(MEMBERS.update, state, writeBody(state)).catch((error: unknown) => {
        if (!isNotFound(error) || state["membershipState"] !== "awaiting") throw error;
        return ctx.call<WireRecord>(MEMBERS.create, state, { ...writeBody(state), user_id: state["userId"] });
      });
      const notice = queuedNotice(answer);
      if (notice) noteQueued(state, notice);
      else delete state["queuedNotice"];
      return undefined;
    },
    async delete(ctx, state) {
      try {
        await ctx.call(MEMBERS.delete, state);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // Rule 3: only a role given in the project is removed here. Say so when the user
        // keeps access through a group, so that nobody takes the removal for revoked access.
        const effective = await ctx.call<WireRecord>(MEMBERS.getAll, state).catch(() => undefined);
        if (effective) {
          warn(
            `ProjectMember ${String(state["project"])}:${String(state["user"])}: no direct membership to remove (already gone), ` +
              `but the user keeps access level ${String(effective["access_level"])} through the project's groups or invited groups: remove it there.`,
          );
        }
      }
    },
  },
  notes: [
    'A promotion into a billable role that the forge queues for administrator approval (`enable_member_promotion_management`) is a warning, not a failure: the resource shows `membershipState: "awaiting"` and `grantedAccessLevel`, and later runs send nothing until an administrator decides. A rejected request shows as drift, and the next `up` asks again.',
    "Removal deletes the direct membership only: access through the project's groups stays, and the provider warns when it does.",
    "`memberRoleId` needs Ultimate. The PUT of a membership without `member_role_id` removes its custom role: every update sends the value the program sets.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  projectMember: defineAdopt({
    scope: "project",
    // Direct members only: access through the project's groups is the groups' to declare. The
    // token's own user is left out, so that the program cannot take away the access it runs with.
    find: async ({ path, client }) => {
      const self = await tokenUserId(client);
      return (await list("listProjectMembers", { project: path }, client))
        .filter((member) => member["id"] !== self)
        .map((member) => ({ project: path, userId: member["id"] }));
    },
    name: (inputs) => `member ${text(inputs["username"] ?? inputs["user"])}`,
    // The forge makes a project's creator its Owner when it makes the project.
    forgeOwn: async (_inputs, outputs, { path, client }) => {
      const project = await projectRecord(client, path);
      const made = (at: unknown) => (typeof at === "string" ? Date.parse(at) : NaN);
      const withProject = Math.abs(made(outputs["createdAt"]) - made(project?.["created_at"])) <= CREATOR_MEMBERSHIP_SLACK_MS;
      return project?.["creator_id"] === outputs["userId"] && withProject
        ? "the membership the forge gave the project's creator when it made the project"
        : undefined;
    },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { projectMember };
