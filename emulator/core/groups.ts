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

  /** The group record of `GET /groups/:id` (the fields lookups need, not every tier field). */
  serialize(group: GroupRecord): Record<string, unknown> {
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
      full_name: this.fullName(group),
      full_path: this.fullPath(group),
      created_at: group.created_at,
      parent_id: group.parent_id,
      avatar_url: null,
      shared_with_groups: [],
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
