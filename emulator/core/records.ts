/*
 * The records of the access entities (users, groups, projects): kept apart from the classes
 * that manage them, so that the state's shape can name them without an import cycle.
 */

/** A user account. `token` is its personal access token (one per user is enough here). */
export interface UserRecord {
  id: number;
  username: string;
  name: string;
  email: string;
  state: "active" | "blocked";
  admin: boolean;
  token: string;
  created_at: string;
}

/** The caller of a request: a user, or null when anonymous. */
export type Actor = UserRecord | null;

/** A direct membership of a user in a group or project. */
export interface Membership {
  user_id: number;
  access_level: number;
  /** `YYYY-MM-DD`, or absent/null when the membership does not expire. */
  expires_at?: string | null;
  /** A custom role (Ultimate); absent/null when none. */
  member_role_id?: number | null;
  /** When and by whom the membership was made (absent for seeded memberships). */
  created_at?: string;
  created_by_id?: number;
}

/** Visibilities of a group or project. */
export const VISIBILITIES = ["public", "internal", "private"] as const;
type Visibility = (typeof VISIBILITIES)[number];

/** A group (namespace). Nesting is through `parent_id`; `full_path` is derived. */
export interface GroupRecord {
  id: number;
  name: string;
  path: string;
  description: string;
  visibility: Visibility;
  parent_id: number | null;
  created_at: string;
  members: Membership[];
  /** Custom attributes (administrators read them with `with_custom_attributes`); none when absent. */
  custom_attributes?: { key: string; value: string }[];
  /** The storage shard of the group's wiki repository (`default` when absent). */
  repository_storage?: string;
  /** True while a repository storage move runs (read-only until the move ends). */
  repository_read_only?: boolean;
  /** The settings `PUT /groups/:id` changed, by wire name; absent ones have the service's defaults. */
  settings?: Record<string, unknown>;
  /** The uploaded avatar (content base64); none when absent. */
  avatar?: GroupAvatar;
  /** Archived (the `archived` and `active` filters of `GET /groups`). */
  archived?: boolean;
  /** The date the group is to be deleted (Premium; the `marked_for_deletion_on` filter). */
  marked_for_deletion_on?: string | null;
}

/** A group's avatar as uploaded. */
export interface GroupAvatar {
  filename: string;
  content_type: string;
  /** The content, base64 (the state is JSON). */
  data: string;
}

/** A group a project is shared with (the project's "invited groups"). */
interface ProjectGroupShare {
  group_id: number;
  group_access_level: number;
}

/** A project. It always lives in a group namespace here (no personal namespaces). */
export interface ProjectRecord {
  id: number;
  name: string;
  path: string;
  description: string | null;
  namespace_id: number;
  visibility: Visibility;
  default_branch: string;
  topics: string[];
  created_at: string;
  last_activity_at: string;
  members: Membership[];
  shared_with_groups: ProjectGroupShare[];
  /** The repository storage shard (`default` when absent: older state files lack it). */
  repository_storage?: string;
  /** True while a repository storage move runs (read-only until the move ends). */
  repository_read_only?: boolean;
  /** Full paths the project had before it was moved; they answer with a redirect. */
  previous_paths?: string[];
  /** Archived (read-only); the `archived` and `active` filters of project listings. */
  archived?: boolean;
  /** Marked for deletion (Premium's delayed deletion): not `active`. */
  marked_for_deletion_on?: string | null;
  /** Feature switches the listings filter on (`with_issues_enabled`, ...); on when absent. */
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  /** Ids of the users who starred the project (`starred`, `star_count`). */
  starred_by?: number[];
  /** The user who made it (`creator_id`); absent for seeded projects, which nobody made. */
  creator_id?: number;
}
