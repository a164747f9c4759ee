import { z } from "zod";
import { groupRef, serverId } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

const flag = z.boolean().optional();
const sort = z.enum(["asc", "desc"]).optional();
const visibility = z.enum(["public", "internal", "private"]).optional();
/** 5 Minimal access, 10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner. */
const minAccessLevel = z.literal([5, 10, 15, 20, 30, 40, 50]).optional();
const isoDatetime = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: "is not an ISO 8601 datetime" })
  .optional();

/** The filters of both credentials inventory listings. */
const inventoryArgs = z.object({
  /** The top-level group: its id or full path. */
  group: groupRef,
  /** Only tokens created after this time (ISO 8601). */
  createdAfter: isoDatetime,
  /** Only tokens created before this time (ISO 8601). */
  createdBefore: isoDatetime,
  /** Only tokens last used after this time (ISO 8601). */
  lastUsedAfter: isoDatetime,
  /** Only tokens last used before this time (ISO 8601). */
  lastUsedBefore: isoDatetime,
  /** true: only revoked tokens. */
  revoked: flag,
  /** Only tokens whose name contains this text. */
  search: z.string().optional(),
  /** `active` (neither revoked nor expired) or `inactive`. */
  state: z.enum(["active", "inactive"]).optional(),
  /** The order: `created_asc`, `created_desc` (default), `expires_asc`, `expires_desc`, `last_used_asc`, `last_used_desc`, `name_asc`, `name_desc`. */
  sort: z
    .enum(["created_asc", "created_desc", "expires_asc", "expires_desc", "last_used_asc", "last_used_desc", "name_asc", "name_desc"])
    .optional(),
});

export const groupLookups = [
  defineLookup({
    name: "getGroup",
    summary: "A group, by id or full path.",
    route: routes.groups.get,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
      /** Include the group's projects and the projects shared with it, at most 100 each (default true; deprecated by the forge). */
      withProjects: z.boolean().optional(),
      /** Include the group's custom attributes (administrators only; ignored for others). */
      withCustomAttributes: z.boolean().optional(),
    }),
    many: false,
  }),
  defineLookup({
    name: "listGroups",
    summary: "The groups the caller can see, with every filter of the forge; keyset pagination on request.",
    route: routes.groups.list,
    args: z.object({
      /** Leave out these group ids. */
      skipGroups: z.array(serverId).optional(),
      /** Every group the caller can see (true), or only those they are a member of (false; the default for users, not for administrators). */
      allAvailable: flag,
      /** Only groups whose name or path contains this text. */
      search: z.string().optional(),
      /** `name` (default), `path`, `id` or `similarity` (with `search`). Keyset pagination orders by name only. */
      orderBy: z.enum(["name", "path", "id", "similarity"]).optional(),
      /** `asc` (default) or `desc`. Keyset pagination sorts ascending only. */
      sort,
      /** Add storage statistics (administrators; `rootStorageStatistics` for top-level groups). */
      statistics: flag,
      /** Only groups of this visibility. */
      visibility,
      /** Add custom attributes (administrators). */
      withCustomAttributes: flag,
      /** Only groups the caller owns. */
      owned: flag,
      /** Only groups where the caller has at least this role. */
      minAccessLevel,
      /** Leave out subgroups. */
      topLevelOnly: flag,
      /** Only groups on this repository storage (administrators; Premium and above). */
      repositoryStorage: z.string().optional(),
      /** Only groups to be deleted on this date, `YYYY-MM-DD` (Premium and above). */
      markedForDeletionOn: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is not a date (YYYY-MM-DD)" })
        .optional(),
      /** Only groups neither archived nor marked for deletion (true), or only those that are (false). */
      active: flag,
      /** Only archived groups (an experiment of the forge). */
      archived: flag,
      /** Only groups with these custom attributes (administrators): `{ team: "infra" }`. */
      customAttributes: z.record(z.string(), z.string()).optional(),
      /** `keyset`: walk the listing by cursor rather than by page number (ordered by name, ascending), for instances with more groups than the offset limit reaches. */
      pagination: z.literal("keyset").optional(),
    }),
    many: true,
    keyset: { orderBy: "name", sort: "asc" },
  }),
  defineLookup({
    name: "listGroupProjects",
    summary: "The projects of a group (and of its subgroups with `includeSubgroups`), and those shared with it.",
    route: routes.groups.projects,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
      /** Only active projects (true), or only archived or to-be-deleted ones (false). */
      active: flag,
      /** Only archived (true) or unarchived (false) projects. */
      archived: flag,
      /** Only projects of this visibility. */
      visibility,
      /** `id`, `name`, `path`, `created_at` (default), `updated_at`, `similarity`, `star_count` or `last_activity_at`. */
      orderBy: z.enum(["id", "name", "path", "created_at", "updated_at", "similarity", "star_count", "last_activity_at"]).optional(),
      /** `asc` or `desc` (default). */
      sort,
      /** Only projects whose name or path contains this text. */
      search: z.string().optional(),
      /** The limited project records. */
      simple: flag,
      /** Only projects the caller owns. */
      owned: flag,
      /** Only projects the caller starred. */
      starred: flag,
      /** Only projects with all these topics (comma-separated). */
      topic: z.string().optional(),
      /** Only projects with issues enabled. */
      withIssuesEnabled: flag,
      /** Only projects with merge requests enabled. */
      withMergeRequestsEnabled: flag,
      /** Include the projects shared with the group (default true). */
      withShared: flag,
      /** Include the subgroups' projects. */
      includeSubgroups: flag,
      /** Only projects where the caller has at least this role. */
      minAccessLevel,
      /** Add custom attributes (administrators). */
      withCustomAttributes: flag,
    }),
    many: true,
  }),
  defineLookup({
    name: "listGroupReleases",
    summary: "The releases of the projects of a group and its subgroups, newest first.",
    route: routes.groups.releases,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
      /** By release date: `desc` (default) or `asc`. */
      sort,
      /** Only the limited fields (`name`, `tag_name`, `description`, `released_at`, `upcoming_release`). */
      simple: flag,
    }),
    many: true,
  }),
  defineLookup({
    name: "getGroupAvatar",
    summary:
      "A group's avatar file: `filename`, `contentType`, `size`, `sha256` (as GroupAvatar compares it) and `contentBase64`; fails with 404 when the group has none.",
    route: routes.groups.avatar,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
    }),
    many: false,
  }),
  defineLookup({
    name: "listGroupPersonalAccessTokens",
    summary:
      "Credentials inventory: the personal access tokens of a top-level group's enterprise users (Owner; Premium, hosted offering). Never the token values.",
    route: routes.groups.personalAccessTokens,
    args: inventoryArgs,
    many: true,
  }),
  defineLookup({
    name: "listGroupResourceAccessTokens",
    summary:
      "Credentials inventory: the group and project access tokens of a top-level group (Owner; Premium, hosted offering). Never the token values.",
    route: routes.groups.resourceAccessTokens,
    args: inventoryArgs,
    many: true,
  }),
] as const;
