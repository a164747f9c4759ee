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
  /** The id of the user's personal namespace (namespaces share one sequence with groups); absent in state files written before namespaces. */
  namespace_id?: number;
  /** How many personal projects the user may make (`POST /users` `projects_limit`; the service's default 100000). */
  projects_limit?: number;
  /** May make top-level groups (the service's default true). */
  can_create_group?: boolean;
  /** An external user (sees only what they are a member of). */
  external?: boolean;
  /** An administrator's note on the user. */
  note?: string | null;
  /** The e-mail shown on the user's profile; none unless set. */
  public_email?: string | null;
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
  /** `YYYY-MM-DD`; absent or null when the share does not expire. */
  expires_at?: string | null;
}

/** A project, in a group or in a user's personal namespace. */
export interface ProjectRecord {
  id: number;
  name: string;
  path: string;
  description: string | null;
  /** A group's id, or a user's personal namespace id (`UserRecord.namespace_id`). */
  namespace_id: number;
  visibility: Visibility;
  /** Null while the repository is empty (a project made without `initialize_with_readme`). */
  default_branch: string | null;
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
  /** The settings of the project record (`POST /projects`), by wire name; absent ones have the service's defaults. */
  settings?: Record<string, unknown>;
  /**
   * Feature switches as older state files kept them, beside `settings`, which holds them now:
   * read where `settings` lacks them (core/project-settings.ts), never written.
   */
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  /** Ids of the users who starred the project (`starred`, `star_count`). */
  starred_by?: number[];
  /** The user who made it (`creator_id`); absent for seeded projects, which nobody made. */
  creator_id?: number;
}
