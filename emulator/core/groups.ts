import { createHash } from "node:crypto";
import { Collection } from "./collection";
import { withServiceNames } from "./service-names";
import { GROUP_SETTING_DEFAULTS, GROUP_SETTING_RULES } from "../../api/group-settings";
import { tierIncludes } from "../../api/editions";
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

/** Group fields whose wire names are the service's product names (core/service-names.ts). */
export const GROUP_SERVICE_NAMES = ["vendor_features_enabled", "lock_vendor_features_enabled", "vendor_availability"] as const;

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
    return [...this.selfAndAncestors(group)]
      .reverse()
      .map((g) => g.path)
      .join("/");
  }

  fullName(group: GroupRecord): string {
    return [...this.selfAndAncestors(group)]
      .reverse()
      .map((g) => g.name)
      .join(" / ");
  }

  webUrl(group: GroupRecord): string {
    return `${this.database.baseUrl}/groups/${this.fullPath(group)}`;
  }

  /**
   * The group record of `GET /groups/:id` (the API's group record): the core fields, the fields of
   * the listings, the Premium fields on a Premium or Ultimate instance, and every other setting
   * `PUT /groups/:id` takes (the service returns them too; the API's group record does not list them), each
   * with the value the group has or the service's default. `privileged` (an Owner or an
   * administrator) adds `runners_token` and `enabled_git_access_protocol`. The projects,
   * statistics and custom attributes are the caller's to add.
   */
  serialize(group: GroupRecord, options: { privileged?: boolean } = {}): Record<string, unknown> {
    const settings = this.settingsOf(group);
    const { enabled_git_access_protocol: protocol, ...visible } = settings;
    const premium = tierIncludes(this.database.state.settings.tier, "premium");
    const topLevel = group.parent_id === null;
    const record: Record<string, unknown> = {
      id: group.id,
      web_url: this.webUrl(group),
      name: group.name,
      path: group.path,
      description: group.description,
      visibility: group.visibility,
      ...visible,
      repository_storage: group.repository_storage ?? "default",
      full_name: this.fullName(group),
      full_path: this.fullPath(group),
      created_at: group.created_at,
      parent_id: group.parent_id,
      avatar_url: group.avatar ? this.avatarUrl(group) : null,
      // Sharing a group with a group is not among the spec's operations, and a share would
      // change who may do what everywhere: not modelled, so no group has any.
      shared_with_groups: [],
      archived: group.archived ?? false,
    };
    for (const [field, rule] of Object.entries(GROUP_SETTING_RULES)) {
      const absent =
        (rule.topLevelOnly && !topLevel) ||
        (rule.tier !== undefined && !premium) ||
        (rule.offerings !== undefined && !rule.offerings.includes(this.database.state.settings.offering));
      if (absent) delete record[field];
    }
    if (premium) record["marked_for_deletion_on"] = group.marked_for_deletion_on ?? null;
    if (options.privileged) Object.assign(record, { runners_token: runnersToken(group), enabled_git_access_protocol: protocol });
    return withServiceNames(record, GROUP_SERVICE_NAMES);
  }

  /** Every setting of the group by wire name: what `PUT /groups/:id` set over the defaults. */
  settingsOf(group: GroupRecord): Record<string, unknown> {
    return { ...structuredClone(GROUP_SETTING_DEFAULTS), ...structuredClone(group.settings ?? {}) };
  }

  /** Where the avatar is served, as the service names it (`/uploads/-/system/group/avatar/<id>/<file>`). */
  avatarUrl(group: GroupRecord): string {
    return `${this.database.baseUrl}/uploads/-/system/group/avatar/${group.id}/${encodeURIComponent(group.avatar?.filename ?? "avatar")}`;
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
