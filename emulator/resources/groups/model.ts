import { z } from "zod";
import { AccessLevel } from "../../../api";
import { GROUP_AVATAR_EXTENSIONS, GROUP_AVATAR_MAX_BYTES, GROUP_AVATAR_TYPES } from "../../../api/group-settings";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { badRequest, modelValidationError, recordNotFound } from "../../core/errors";
import { type Actor, type ProjectRecord, VISIBILITIES } from "../../core/records";
import { GROUP_SERVICE_NAMES } from "../../core/groups";
import { projectSetting } from "../../core/project-settings";
import { withSpecNames } from "../../core/service-names";
import { sortBy } from "../../core/sort";
import { paramBoolean, paramEnum, paramIntegerOf, paramString, validate } from "../../core/validation";
import { applyGroupSettings } from "./settings";

/** A release of a project (the API's group release record); the spec has no endpoint that makes one. */
export interface ReleaseRecord {
  id: number;
  project_id: number;
  name: string;
  tag_name: string;
  description: string;
  created_at: string;
  released_at: string;
  author_id: number;
  commit_sha: string;
  commit_title: string;
}

/** A request of `POST /groups/:id/ldap_sync`, kept so that tests can see it arrived. */
export interface LdapSyncRecord {
  id: number;
  group_id: number;
  user_id: number;
  requested_at: string;
}

const SORTS = ["asc", "desc"] as const;
const MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

/** `GET /groups/:id/projects`. */
const groupProjectsParams = z.object({
  active: paramBoolean().optional(),
  archived: paramBoolean().optional(),
  visibility: paramEnum(VISIBILITIES).optional(),
  order_by: paramEnum(["id", "name", "path", "created_at", "updated_at", "similarity", "star_count", "last_activity_at"]).optional(),
  sort: paramEnum(SORTS).optional(),
  search: paramString().optional(),
  simple: paramBoolean().optional(),
  owned: paramBoolean().optional(),
  starred: paramBoolean().optional(),
  topic: paramString().optional(),
  with_issues_enabled: paramBoolean().optional(),
  with_merge_requests_enabled: paramBoolean().optional(),
  with_shared: paramBoolean().optional(),
  include_subgroups: paramBoolean().optional(),
  min_access_level: paramIntegerOf(MEMBER_LEVELS).optional(),
  with_custom_attributes: paramBoolean().optional(),
});

/** `GET /groups/:id/releases`. */
const releasesParams = z.object({ sort: paramEnum(SORTS).optional(), simple: paramBoolean().optional() });

/** An uploaded file as the multipart parser gives it. */
interface Upload {
  filename: string;
  contentType: string;
  data: Buffer;
}

/**
 * The group operations of the API besides the reads of `access`: `PUT /groups/:id` (settings
 * and avatar), the avatar download, the group's projects and releases, and LDAP sync.
 */
export class GroupManagement {
  constructor(
    private readonly core: Core,
    private readonly releases: Collection<ReleaseRecord>,
    private readonly ldapSyncs: Collection<LdapSyncRecord>,
  ) {}

  /** `PUT /groups/:id`: Owner. Settings are checked before the avatar, and nothing is written when either fails. */
  update(actor: Actor, groupRef: string, input: Record<string, unknown>): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef, AccessLevel.Owner);
    const { avatar, ...settings } = input;
    const upload = avatar === undefined ? undefined : this.avatarOf(avatar);
    applyGroupSettings(this.core, actor, group, withSpecNames(settings, GROUP_SERVICE_NAMES));
    if (upload === null) delete group.avatar;
    else if (upload) group.avatar = { filename: upload.filename, content_type: upload.contentType, data: upload.data.toString("base64") };
    return this.core.groups.serialize(group, { privileged: true });
  }

  /** `GET /groups/:id/avatar`: the file (anonymous callers for public groups); 404 without one. */
  avatar(actor: Actor, groupRef: string): { data: Buffer; contentType: string; filename: string } {
    const group = this.core.permissions.requireGroup(actor, groupRef);
    if (!group.avatar) throw recordNotFound();
    return { data: Buffer.from(group.avatar.data, "base64"), contentType: group.avatar.content_type, filename: group.avatar.filename };
  }

  /**
   * `GET /groups/:id/projects`: the group's projects (with `include_subgroups`, its subgroups'
   * too) and, unless `with_shared=false`, the projects shared with it, that the caller can see.
   * `simple` (and every anonymous answer) gives the limited record.
   */
  projects(actor: Actor, groupRef: string, params: Record<string, unknown>): Record<string, unknown>[] {
    const group = this.core.permissions.requireGroup(actor, groupRef);
    const query = validate(groupProjectsParams, params);
    const { projects, permissions, groups } = this.core;
    const namespaces = new Set([group.id, ...(query.include_subgroups ? groups.descendants(group).map((child) => child.id) : [])]);
    const shared = query.with_shared ?? true;
    const level = (project: ProjectRecord) => permissions.projectMemberLevel(actor?.id ?? 0, project);
    const minLevel = query.owned ? AccessLevel.Owner : query.min_access_level;
    const search = query.search?.toLowerCase();
    const active = (project: ProjectRecord) => !project.archived && !project.marked_for_deletion_on;
    const selected = projects
      .all()
      .filter(
        (project) =>
          (namespaces.has(project.namespace_id) || (shared && project.shared_with_groups.some((share) => share.group_id === group.id))) &&
          permissions.canSeeProject(actor, project) &&
          (query.active === undefined || active(project) === query.active) &&
          (query.archived === undefined || (project.archived ?? false) === query.archived) &&
          (query.visibility === undefined || project.visibility === query.visibility) &&
          (!search || project.name.toLowerCase().includes(search) || project.path.toLowerCase().includes(search)) &&
          (minLevel === undefined || level(project) >= minLevel) &&
          (!query.starred || (actor !== null && (project.starred_by ?? []).includes(actor.id))) &&
          (query.topic === undefined || query.topic.split(",").every((topic) => project.topics.includes(topic.trim()))) &&
          (!query.with_issues_enabled || projectSetting(project, "issues_enabled") === true) &&
          (!query.with_merge_requests_enabled || projectSetting(project, "merge_requests_enabled") === true),
      );
    const orderBy = query.order_by === "similarity" ? "name" : (query.order_by ?? "created_at");
    const value = (project: ProjectRecord): string | number => {
      if (orderBy === "id") return project.id;
      if (orderBy === "star_count") return (project.starred_by ?? []).length;
      if (orderBy === "updated_at" || orderBy === "last_activity_at") return project.last_activity_at;
      return project[orderBy];
    };
    const sorted = sortBy(selected, value, query.sort ?? "desc");
    const simple = query.simple || !actor;
    return sorted.map((project) => this.projectRecord(project, simple, query.with_custom_attributes === true && actor?.admin === true));
  }

  /** `GET /groups/:id/releases`: the releases of the projects of the group and its subgroups the caller can see, newest first by default. */
  groupReleases(actor: Actor, groupRef: string, params: Record<string, unknown>): Record<string, unknown>[] {
    const group = this.core.permissions.requireGroup(actor, groupRef, AccessLevel.Guest);
    const query = validate(releasesParams, params);
    const namespaces = new Set([group.id, ...this.core.groups.descendants(group).map((child) => child.id)]);
    const visible = this.releases.list((release) => {
      const project = this.core.projects.byId(release.project_id);
      return project !== undefined && namespaces.has(project.namespace_id) && this.core.permissions.canSeeProject(actor, project);
    });
    const direction = (query.sort ?? "desc") === "asc" ? 1 : -1;
    const sorted = [...visible].sort((a, b) => direction * (a.released_at.localeCompare(b.released_at) || a.id - b.id));
    return sorted.map((release) => (query.simple ? this.simpleRelease(release) : this.release(release)));
  }

  /** `POST /groups/:id/ldap_sync`: administrators or Owners (Premium, self-managed); 202, the sync runs later. */
  ldapSync(actor: Actor, groupRef: string): void {
    const group = this.core.permissions.requireGroup(actor, groupRef, AccessLevel.Owner);
    this.ldapSyncs.insert({
      id: this.core.nextId("ldap_sync"),
      group_id: group.id,
      user_id: actor!.id,
      requested_at: this.core.clock.iso(),
    });
  }

  /** The avatar of a request: an upload, null for a blank value (removal), or a refusal. */
  private avatarOf(value: unknown): Upload | null {
    if (value === "" || value === null) return null;
    const upload = value as Partial<Upload>;
    if (typeof value !== "object" || !Buffer.isBuffer(upload.data) || typeof upload.filename !== "string") {
      throw badRequest("avatar must be a file uploaded as multipart/form-data");
    }
    const extension = upload.filename.split(".").pop()?.toLowerCase() ?? "";
    const contentType = (GROUP_AVATAR_TYPES as Record<string, string>)[extension];
    if (!contentType)
      throw modelValidationError(
        "avatar",
        `You are not allowed to upload "${extension}" files, allowed types: ${GROUP_AVATAR_EXTENSIONS.join(", ")}`,
      );
    if (upload.data.length > GROUP_AVATAR_MAX_BYTES) throw modelValidationError("avatar", "is too big (should be at most 200 KiB)");
    return { filename: upload.filename, contentType, data: upload.data };
  }

  private projectRecord(project: ProjectRecord, simple: boolean, customAttributes: boolean): Record<string, unknown> {
    const { projects } = this.core;
    const full = projects.serialize(project);
    const record: Record<string, unknown> = simple
      ? Object.fromEntries(SIMPLE_PROJECT_FIELDS.filter((field) => field in full).map((field) => [field, full[field]]))
      : {
          ...full,
          star_count: (project.starred_by ?? []).length,
          marked_for_deletion_on: project.marked_for_deletion_on ?? null,
        };
    if (simple) record["star_count"] = (project.starred_by ?? []).length;
    if (customAttributes) record["custom_attributes"] = [];
    return record;
  }

  private release(release: ReleaseRecord): Record<string, unknown> {
    const project = this.core.projects.byId(release.project_id)!;
    const author = this.core.users.byId(release.author_id);
    const path = this.core.projects.pathWithNamespace(project);
    return {
      ...this.simpleRelease(release),
      created_at: release.created_at,
      author: author ? this.core.users.basic(author) : null,
      commit: {
        id: release.commit_sha,
        short_id: release.commit_sha.slice(0, 8),
        created_at: release.created_at,
        parent_ids: [],
        title: release.commit_title,
        message: release.commit_title,
        author_name: author?.name ?? null,
        author_email: author?.email ?? null,
        authored_date: release.created_at,
        committer_name: author?.name ?? null,
        committer_email: author?.email ?? null,
        committed_date: release.created_at,
        trailers: {},
        web_url: `${this.core.projects.webUrl(project)}/-/commit/${release.commit_sha}`,
      },
      upcoming_release: Date.parse(release.released_at) > this.core.clock.now(),
      commit_path: `/${path}/-/commit/${release.commit_sha}`,
      tag_path: `/${path}/-/tags/${release.tag_name}`,
    };
  }

  /**
   * `simple=true`: the spec leaves the fields to the listing; the service's simple release entity
   * has these.
   */
  private simpleRelease(release: ReleaseRecord): Record<string, unknown> {
    return {
      name: release.name,
      tag_name: release.tag_name,
      description: release.description,
      released_at: release.released_at,
      upcoming_release: Date.parse(release.released_at) > this.core.clock.now(),
    };
  }
}

/** The service's "simple" project entity. */
const SIMPLE_PROJECT_FIELDS = [
  "id",
  "description",
  "name",
  "name_with_namespace",
  "path",
  "path_with_namespace",
  "created_at",
  "default_branch",
  "tag_list",
  "topics",
  "ssh_url_to_repo",
  "http_url_to_repo",
  "web_url",
  "avatar_url",
  "star_count",
  "last_activity_at",
  "namespace",
];
