import { createHash } from "node:crypto";
import { Collection } from "./collection";
import type { GroupRecord } from "./records";
import type { Database } from "./state";

/**
 * Resolves an `:id` path value of a group or project: digits are an id, anything else a full
 * path (case-insensitive).
 */
export function findByRef<T>(records: Collection<T>, ref: string, fullPath: (record: T) => string): T | undefined {
  if (/^\d+$/.test(ref)) return records.byId(Number(ref));
  const wanted = ref.toLowerCase();
  return records.find((record) => fullPath(record).toLowerCase() === wanted);
}

/** Group tree navigation and serialization. */
export class Groups extends Collection<GroupRecord> {
  constructor(database: Database) {
    super(database, "groups");
  }

  /** Resolves an `:id` path value: an id or a full path. */
  byRef(ref: string): GroupRecord | undefined {
    return findByRef(this, ref, (group) => this.fullPath(group));
  }

  /** Parent first, root last. */
  ancestors(group: GroupRecord): GroupRecord[] {
    const chain: GroupRecord[] = [];
    let parentId = group.parent_id;
    while (parentId !== null) {
      const parent = this.byId(parentId);
      if (!parent) break;
      chain.push(parent);
      parentId = parent.parent_id;
    }
    return chain;
  }

  /** The group itself followed by its ancestors. */
  selfAndAncestors(group: GroupRecord): GroupRecord[] {
    return [group, ...this.ancestors(group)];
  }

  /** Every group below this one, at any depth. */
  descendants(group: GroupRecord): GroupRecord[] {
    const children = this.all().filter((candidate) => candidate.parent_id === group.id);
    return children.flatMap((child) => [child, ...this.descendants(child)]);
  }

  fullPath(group: GroupRecord): string {
    return [...this.selfAndAncestors(group)].reverse().map((g) => g.path).join("/");
  }

  fullName(group: GroupRecord): string {
    return [...this.selfAndAncestors(group)].reverse().map((g) => g.name).join(" / ");
  }

  webUrl(group: GroupRecord): string {
    return `${this.database.baseUrl}/groups/${this.fullPath(group)}`;
  }

  /**
   * The group record of `GET /groups/:id` (Document 1's Group, without the Premium fields):
   * `privileged` (an Owner or an administrator) adds `runners_token` and
   * `enabled_git_access_protocol`. The projects and custom attributes are the caller's to add.
   */
  serialize(group: GroupRecord, options: { privileged?: boolean } = {}): Record<string, unknown> {
    return {
      id: group.id,
      web_url: this.webUrl(group),
      name: group.name,
      path: group.path,
      description: group.description,
      visibility: group.visibility,
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: "developer",
      auto_devops_enabled: null,
      subgroup_creation_level: "maintainer",
      emails_disabled: false,
      emails_enabled: true,
      mentions_disabled: null,
      lfs_enabled: true,
      default_branch: null,
      request_access_enabled: true,
      repository_storage: group.repository_storage ?? "default",
      // Integer in the spec; the service answers null while no template project is chosen.
      file_template_project_id: null,
      full_name: this.fullName(group),
      full_path: this.fullPath(group),
      created_at: group.created_at,
      parent_id: group.parent_id,
      avatar_url: null,
      // Sharing a group with a group is not among the spec's operations, and a share would
      // change who may do what everywhere: not modelled, so no group has any.
      shared_with_groups: [],
      ip_restriction_ranges: null,
      math_rendering_limits_enabled: true,
      lock_math_rendering_limits_enabled: false,
      only_allow_merge_if_pipeline_succeeds: false,
      allow_merge_on_skipped_pipeline: false,
      only_allow_merge_if_all_discussions_are_resolved: false,
      allow_personal_snippets: true,
      ...(group.parent_id === null ? { prevent_sharing_groups_outside_hierarchy: false } : {}),
      ...(options.privileged ? { runners_token: runnersToken(group), enabled_git_access_protocol: "all" } : {}),
    };
  }

  /** The namespace object embedded in project records. */
  namespace(group: GroupRecord): Record<string, unknown> {
    return {
      id: group.id,
      name: group.name,
      path: group.path,
      kind: "group",
      full_path: this.fullPath(group),
      parent_id: group.parent_id,
      avatar_url: null,
      web_url: this.webUrl(group),
    };
  }
}

/** A group's runner registration token: stable per group, in the service's `GR1348941` form. */
function runnersToken(group: GroupRecord): string {
  return `GR1348941${createHash("sha256").update(`runners-token:${group.id}`).digest("base64url").slice(0, 20)}`;
}
