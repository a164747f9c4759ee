/*
 * The settings `PUT /groups/:id` takes, as one table: each field's allowed values,
 * limits, and who may set it where (tier, offering, top-level groups, administrators). The
 * provider's GroupSettings schema and the emulator's validation both read it, so that the
 * library and its emulator cannot disagree; the emulator's refusals quote `GROUP_SETTING_RULE_WORDS`.
 */
import type { Availability } from "./editions";

export const GROUP_VISIBILITIES = ["private", "internal", "public"] as const;
export const GIT_ACCESS_PROTOCOLS = ["ssh", "http", "all"] as const;
export const PROJECT_CREATION_LEVELS = ["noone", "maintainer", "developer"] as const;
export const SUBGROUP_CREATION_LEVELS = ["owner", "maintainer"] as const;
/** `disabled_with_override` is a deprecated alias of `disabled_and_overridable`. */
export const SHARED_RUNNERS_SETTINGS = [
  "enabled",
  "disabled_and_overridable",
  "disabled_and_unoverridable",
  "disabled_with_override",
] as const;
export const WIKI_ACCESS_LEVELS = ["disabled", "private", "enabled"] as const;
export const VENDOR_AVAILABILITIES = ["default_on", "default_off", "never_on"] as const;
/**
 * `default_branch_protection` (deprecated): 0 no protection, 1 partial (developers may push new
 * commits), 2 full, 3 protected against pushes, 4 full after the initial push. The values are the
 * service's; the spec says only "integer".
 */
export const DEFAULT_BRANCH_PROTECTION_LEVELS = [0, 1, 2, 3, 4] as const;
/** Roles of `default_branch_protection_defaults` entries: 0 no one, 30 Developer, 40 Maintainer (the service's). */
export const BRANCH_PROTECTION_ACCESS_LEVELS = [0, 30, 40] as const;

/** The API's limits. */
export const UNIQUE_PROJECT_DOWNLOAD_LIMIT_MAX = 10_000;
export const UNIQUE_PROJECT_DOWNLOAD_INTERVAL_MAX = 864_000;
export const UNIQUE_PROJECT_DOWNLOAD_LIST_MAX = 100;
/** Hours; the service's own bound (the spec gives none). */
export const TWO_FACTOR_GRACE_PERIOD_MAX = 10_000;

/** Who may set a field where, beyond the Owner role `PUT /groups/:id` needs. */
export interface GroupSettingRule extends Availability {
  /** Only a top-level group takes it. */
  topLevelOnly?: boolean;
  /** Only an administrator may set it. */
  adminOnly?: boolean;
}

/** The rules by wire name; fields absent here every Owner may set on every group and edition. */
export const GROUP_SETTING_RULES: Readonly<Record<string, GroupSettingRule>> = {
  prevent_sharing_groups_outside_hierarchy: { topLevelOnly: true },
  extra_shared_runners_minutes_limit: { adminOnly: true, tier: "premium", offerings: ["self-managed"] },
  // The Premium and Ultimate tiers add these three to the group record, so only
  // there can they be set and read back.
  shared_runners_minutes_limit: { adminOnly: true, tier: "premium" },
  vendor_availability: { tier: "premium" },
  experiment_features_enabled: { tier: "premium" },
  file_template_project_id: { tier: "premium" },
  membership_lock: { tier: "premium" },
  prevent_forking_outside_group: { tier: "premium" },
  unique_project_download_limit: { tier: "ultimate", topLevelOnly: true },
  unique_project_download_limit_interval_in_seconds: { tier: "ultimate", topLevelOnly: true },
  unique_project_download_limit_allowlist: { tier: "ultimate", topLevelOnly: true },
  unique_project_download_limit_alertlist: { tier: "ultimate", topLevelOnly: true },
  auto_ban_user_on_excessive_projects_download: { tier: "ultimate", topLevelOnly: true },
  ip_restriction_ranges: { tier: "premium" },
  allowed_email_domains_list: { tier: "premium" },
  wiki_access_level: { tier: "premium" },
  vendor_features_enabled: { tier: "premium", offerings: ["self-managed"] },
  lock_vendor_features_enabled: { tier: "premium", offerings: ["self-managed"] },
  web_based_commit_signing_enabled: { topLevelOnly: true, offerings: ["hosted"] },
  only_allow_merge_if_pipeline_succeeds: { tier: "premium" },
  allow_merge_on_skipped_pipeline: { tier: "premium" },
  only_allow_merge_if_all_discussions_are_resolved: { tier: "premium" },
};

/** Wire names of the settings only a top-level group takes. */
export const TOP_LEVEL_ONLY_SETTINGS = Object.entries(GROUP_SETTING_RULES)
  .filter(([, rule]) => rule.topLevelOnly)
  .map(([field]) => field);

/** The wording of the refusals, shared by the emulator's answers and the docs. */
export const GROUP_SETTING_RULE_WORDS = {
  topLevelOnly: "can be set on top-level groups only",
  adminOnly: "can be set by administrators only",
} as const;

/** One comma-separated entry of `ip_restriction_ranges`: an IPv4 or IPv6 address, optionally with a prefix length. */
export function isIpRange(entry: string): boolean {
  const [address, prefix, extra] = entry.trim().split("/");
  if (extra !== undefined || !address) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4)
    return v4.slice(1).every((part) => Number(part) <= 255) && (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= 32));
  const v6 = /^[0-9a-fA-F:]+$/.test(address) && address.includes(":") && address.split("::").length <= 2;
  return v6 && (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= 128));
}

/** One comma-separated entry of `allowed_email_domains_list`: a domain name (`example.com`). */
export function isEmailDomain(entry: string): boolean {
  return /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(entry.trim());
}

/** The image types the service takes as a group avatar, by extension, and the largest file (200 KiB). */
export const GROUP_AVATAR_TYPES = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  tiff: "image/tiff",
  ico: "image/x-icon",
  webp: "image/webp",
} as const;
export const GROUP_AVATAR_EXTENSIONS = Object.keys(GROUP_AVATAR_TYPES) as (keyof typeof GROUP_AVATAR_TYPES)[];
export const GROUP_AVATAR_MAX_BYTES = 200 * 1024;

/**
 * The settings of a group nothing has changed, by wire name: the service's defaults for a new
 * group. Premium fields are among them; the record leaves them out below Premium.
 */
export const GROUP_SETTING_DEFAULTS: Readonly<Record<string, unknown>> = {
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
  default_branch_protection: 2,
  default_branch_protection_defaults: {
    allowed_to_push: [{ access_level: 40 }],
    allow_force_push: false,
    allowed_to_merge: [{ access_level: 40 }],
  },
  request_access_enabled: true,
  // Integer in the spec; the service answers null while no template project is chosen.
  file_template_project_id: null,
  ip_restriction_ranges: null,
  math_rendering_limits_enabled: true,
  lock_math_rendering_limits_enabled: false,
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: false,
  only_allow_merge_if_all_discussions_are_resolved: false,
  allow_personal_snippets: true,
  prevent_sharing_groups_outside_hierarchy: false,
  enabled_git_access_protocol: "all",
  shared_runners_setting: "enabled",
  step_up_auth_required_oauth_provider: null,
  shared_runners_minutes_limit: null,
  extra_shared_runners_minutes_limit: null,
  membership_lock: false,
  prevent_forking_outside_group: false,
  unique_project_download_limit: 0,
  unique_project_download_limit_interval_in_seconds: 0,
  unique_project_download_limit_allowlist: [],
  unique_project_download_limit_alertlist: [],
  auto_ban_user_on_excessive_projects_download: false,
  allowed_email_domains_list: null,
  wiki_access_level: "enabled",
  vendor_availability: "default_on",
  experiment_features_enabled: false,
  vendor_features_enabled: true,
  lock_vendor_features_enabled: false,
  max_artifacts_size: null,
  web_based_commit_signing_enabled: false,
};
