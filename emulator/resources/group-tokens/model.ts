import { z } from "zod";
import { AccessLevel } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { ApiError, badRequest } from "../../core/errors";
import type { Actor, GroupRecord } from "../../core/records";
import { paramBoolean, paramDatetime, paramEnum, paramString, validate } from "../../core/validation";

/** The token kinds `POST /groups/:id/tokens/revoke` takes. */
export const GROUP_TOKEN_KINDS = ["personal", "group_access", "project_access", "group_deploy", "feed"] as const;
type TokenKind = (typeof GROUP_TOKEN_KINDS)[number];

/**
 * A credential the group's Owners can see in the credentials inventory or revoke. The spec has
 * no endpoint that makes one: the seed holds a few of each kind. These are not the emulator's
 * API tokens (`forge-<user>-token`), which authenticate requests and cannot be revoked here.
 */
export interface GroupTokenRecord {
  id: number;
  kind: TokenKind;
  name: string;
  description: string | null;
  /** The plaintext, as the holder has it (revocation takes it). */
  token: string;
  /** The holder: the user of a personal or feed token; null for access and deploy tokens (their bot). */
  user_id: number | null;
  /** The group of a group access or deploy token; the project of a project access token. */
  group_id?: number;
  project_id?: number;
  /** The role of an access token. */
  access_level?: number;
  scopes: string[];
  revoked: boolean;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

const SORTS = [
  "created_asc",
  "created_desc",
  "expires_asc",
  "expires_desc",
  "last_used_asc",
  "last_used_desc",
  "name_asc",
  "name_desc",
] as const;

/** The filters of both inventory listings (the credentials inventory listings). */
const inventoryParams = z.object({
  created_after: paramDatetime().optional(),
  created_before: paramDatetime().optional(),
  last_used_after: paramDatetime().optional(),
  last_used_before: paramDatetime().optional(),
  revoked: paramBoolean().optional(),
  search: paramString().optional(),
  state: paramEnum(["active", "inactive"]).optional(),
  sort: paramEnum(SORTS).optional(),
});

const revokeParams = z.object({ token: paramString().pipe(z.string().min(1, { error: "is empty" })) });

/** The service answers every refusal of a revocation but the subgroup one with this. */
const unprocessable = () => new ApiError(422, { message: "422 Unprocessable Entity" });
const notTopLevel = () => badRequest("Must be a top-level group");

/** Group token revocation and the credentials inventory of a top-level group. */
export class GroupTokens {
  constructor(
    private readonly core: Core,
    private readonly tokens: Collection<GroupTokenRecord>,
  ) {}

  /**
   * `POST /groups/:id/tokens/revoke`: an Owner of a top-level group revokes a token that has
   * access to the group, its subgroups or projects; the answer is the token, revoked. A token
   * revoked already answers the same; an unknown token, or one without access there, is 422.
   */
  revoke(actor: Actor, groupRef: string, input: Record<string, unknown>): Record<string, unknown> {
    const group = this.topLevel(actor, groupRef);
    const { token: plaintext } = validate(revokeParams, input);
    const token = this.tokens.find((candidate) => candidate.token === plaintext);
    if (!token || !this.reaches(token, group)) throw unprocessable();
    token.revoked = true;
    return this.revocationResult(token);
  }

  /** `GET /groups/:id/manage/personal_access_tokens`: the enterprise users' personal access tokens. */
  personalAccessTokens(actor: Actor, groupRef: string, params: Record<string, unknown>): Record<string, unknown>[] {
    const group = this.topLevel(actor, groupRef);
    // The emulator has no enterprise accounts: a direct member of the top-level group stands for one.
    const enterprise = new Set(group.members.map((member) => member.user_id));
    const tokens = this.tokens.list((token) => token.kind === "personal" && token.user_id !== null && enterprise.has(token.user_id));
    return this.inventory(tokens, params).map((token) => this.inventoryRecord(token));
  }

  /** `GET /groups/:id/manage/resource_access_tokens`: the group and project access tokens of the hierarchy. */
  resourceAccessTokens(actor: Actor, groupRef: string, params: Record<string, unknown>): Record<string, unknown>[] {
    const group = this.topLevel(actor, groupRef);
    const tokens = this.tokens.list(
      (token) => (token.kind === "group_access" || token.kind === "project_access") && this.reaches(token, group),
    );
    return this.inventory(tokens, params).map((token) => ({
      ...this.inventoryRecord(token),
      // The spec does not show these records; the service adds what the token belongs to.
      resource_type: token.kind === "group_access" ? "group" : "project",
      resource_id: token.group_id ?? token.project_id,
      access_level: token.access_level ?? AccessLevel.Maintainer,
    }));
  }

  /** The group, when the caller is its Owner and it is top-level. */
  private topLevel(actor: Actor, groupRef: string): GroupRecord {
    const group = this.core.permissions.requireGroup(actor, groupRef, AccessLevel.Owner);
    if (group.parent_id !== null) throw notTopLevel();
    return group;
  }

  /** True when the token has access to the group, a subgroup or one of their projects. */
  private reaches(token: GroupTokenRecord, group: GroupRecord): boolean {
    const groups = [group, ...this.core.groups.descendants(group)];
    const groupIds = new Set(groups.map((candidate) => candidate.id));
    const projects = this.core.projects.list((project) => groupIds.has(project.namespace_id));
    switch (token.kind) {
      case "group_access":
      case "group_deploy":
        return token.group_id !== undefined && groupIds.has(token.group_id);
      case "project_access":
        return projects.some((project) => project.id === token.project_id);
      default: {
        const userId = token.user_id;
        if (userId === null) return false;
        return (
          groups.some((candidate) => candidate.members.some((member) => member.user_id === userId)) ||
          projects.some((project) => project.members.some((member) => member.user_id === userId))
        );
      }
    }
  }

  private inventory(tokens: GroupTokenRecord[], params: Record<string, unknown>): GroupTokenRecord[] {
    const query = validate(inventoryParams, params);
    const instant = (value: string | null) => (value === null ? undefined : Date.parse(value));
    const within = (value: string | null, after?: string, before?: string) => {
      if (after === undefined && before === undefined) return true;
      const time = instant(value);
      return (
        time !== undefined && (after === undefined || time >= Date.parse(after)) && (before === undefined || time <= Date.parse(before))
      );
    };
    const search = query.search?.toLowerCase();
    const selected = tokens.filter(
      (token) =>
        within(token.created_at, query.created_after, query.created_before) &&
        within(token.last_used_at, query.last_used_after, query.last_used_before) &&
        // `revoked=true`: only revoked tokens; false (or absent), the service lists them all.
        (!query.revoked || token.revoked) &&
        (query.state === undefined || (query.state === "active") === this.active(token)) &&
        (!search || token.name.toLowerCase().includes(search)),
    );
    const sort = query.sort ?? "created_desc";
    const field = sort.slice(0, sort.lastIndexOf("_"));
    const sign = sort.endsWith("_asc") ? 1 : -1;
    const key = (token: GroupTokenRecord): string | null =>
      field === "name" ? token.name : field === "created" ? token.created_at : field === "expires" ? token.expires_at : token.last_used_at;
    return [...selected].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      // Tokens without the date come last either way.
      if (x === null || y === null) return x === y ? a.id - b.id : x === null ? 1 : -1;
      return sign * (x.localeCompare(y) || a.id - b.id);
    });
  }

  private active(token: GroupTokenRecord): boolean {
    return !token.revoked && !this.expired(token);
  }

  private expired(token: GroupTokenRecord): boolean {
    return token.expires_at !== null && Date.parse(`${token.expires_at}T00:00:00Z`) <= this.core.clock.now();
  }

  /** The API's personal access token record (credentials inventory). */
  private inventoryRecord(token: GroupTokenRecord): Record<string, unknown> {
    return {
      id: token.id,
      name: token.name,
      description: token.description,
      scopes: [...token.scopes],
      user_id: token.user_id,
      revoked: token.revoked,
      active: this.active(token),
      created_at: token.created_at,
      last_used_at: token.last_used_at,
      expires_at: token.expires_at,
    };
  }

  /** The API's token revocation result; the holder's username (a bot's for access and deploy tokens). */
  private revocationResult(token: GroupTokenRecord): Record<string, unknown> {
    const user = token.user_id === null ? undefined : this.core.users.byId(token.user_id);
    const username =
      user?.username ??
      (token.kind === "group_deploy"
        ? `forge+deploy-token-${token.id}`
        : token.kind === "group_access"
          ? `group_${token.group_id}_bot`
          : `project_${token.project_id}_bot`);
    return {
      id: token.id,
      name: token.name,
      username,
      expires_at: token.expires_at,
      scopes: [...token.scopes],
      revoked: token.revoked,
      expired: this.expired(token),
    };
  }
}
