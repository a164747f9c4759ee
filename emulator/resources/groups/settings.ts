import { z } from "zod";
import { describeOfferings, describeTier, offeringIncludes, tierIncludes } from "../../../api/editions";
import {
  BRANCH_PROTECTION_ACCESS_LEVELS,
  DEFAULT_BRANCH_PROTECTION_LEVELS,
  GIT_ACCESS_PROTOCOLS,
  GROUP_SETTING_RULE_WORDS,
  GROUP_SETTING_RULES,
  GROUP_VISIBILITIES,
  isEmailDomain,
  isIpRange,
  PROJECT_CREATION_LEVELS,
  SHARED_RUNNERS_SETTINGS,
  SUBGROUP_CREATION_LEVELS,
  TWO_FACTOR_GRACE_PERIOD_MAX,
  UNIQUE_PROJECT_DOWNLOAD_INTERVAL_MAX,
  UNIQUE_PROJECT_DOWNLOAD_LIMIT_MAX,
  UNIQUE_PROJECT_DOWNLOAD_LIST_MAX,
  VENDOR_AVAILABILITIES,
  WIKI_ACCESS_LEVELS,
} from "../../../api/group-settings";
import { USERNAME } from "../../../api/names";
import type { Core } from "../../core/core";
import { checkNamespacePath, groupPathTaken } from "../../core/lifecycle";
import { forbidden, modelValidationError } from "../../core/errors";
import type { Actor, GroupRecord } from "../../core/records";
import { paramBoolean, paramEnum, paramInteger, paramIntegerOf, paramString, validate } from "../../core/validation";

const invalid = { error: "does not have a valid value" };
const range = (min: number, max: number) => paramInteger().pipe(z.number().min(min, invalid).max(max, invalid));
const stringList = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",").filter((item) => item !== "") : value),
  z.array(paramString(), { error: "is invalid" }),
);
const integerList = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",").filter((item) => item !== "") : value),
  z.array(paramInteger(), { error: "is invalid" }),
);

/** `PUT /groups/:id`, every parameter but `avatar` (an upload, see the model). */
export const groupSettingsParams = z.object({
  name: paramString().optional(),
  path: paramString().optional(),
  description: paramString().optional(),
  auto_devops_enabled: paramBoolean().optional(),
  default_branch: paramString().nullable().optional(),
  default_branch_protection: paramIntegerOf(DEFAULT_BRANCH_PROTECTION_LEVELS).optional(),
  default_branch_protection_defaults: z
    .object(
      {
        allowed_to_push: z.array(z.object({ access_level: paramIntegerOf(BRANCH_PROTECTION_ACCESS_LEVELS) })).optional(),
        allow_force_push: paramBoolean().optional(),
        allowed_to_merge: z.array(z.object({ access_level: paramIntegerOf(BRANCH_PROTECTION_ACCESS_LEVELS) })).optional(),
      },
      { error: "is invalid" },
    )
    .optional(),
  enabled_git_access_protocol: paramEnum(GIT_ACCESS_PROTOCOLS).optional(),
  emails_disabled: paramBoolean().optional(),
  emails_enabled: paramBoolean().optional(),
  lfs_enabled: paramBoolean().optional(),
  mentions_disabled: paramBoolean().optional(),
  prevent_sharing_groups_outside_hierarchy: paramBoolean().optional(),
  project_creation_level: paramEnum(PROJECT_CREATION_LEVELS).optional(),
  request_access_enabled: paramBoolean().optional(),
  require_two_factor_authentication: paramBoolean().optional(),
  shared_runners_setting: paramEnum(SHARED_RUNNERS_SETTINGS).optional(),
  share_with_group_lock: paramBoolean().optional(),
  step_up_auth_required_oauth_provider: paramString().nullable().optional(),
  subgroup_creation_level: paramEnum(SUBGROUP_CREATION_LEVELS).optional(),
  two_factor_grace_period: range(0, TWO_FACTOR_GRACE_PERIOD_MAX).optional(),
  visibility: paramEnum(GROUP_VISIBILITIES).optional(),
  extra_shared_runners_minutes_limit: range(0, Number.MAX_SAFE_INTEGER).nullable().optional(),
  file_template_project_id: paramInteger().nullable().optional(),
  membership_lock: paramBoolean().optional(),
  prevent_forking_outside_group: paramBoolean().optional(),
  // A null is a value of the nullable ones, not "not given": nil inherits the system default,
  // and the others go back to "none" (the defaults a reset writes).
  shared_runners_minutes_limit: range(0, Number.MAX_SAFE_INTEGER).nullable().optional(),
  unique_project_download_limit: range(0, UNIQUE_PROJECT_DOWNLOAD_LIMIT_MAX).optional(),
  unique_project_download_limit_interval_in_seconds: range(0, UNIQUE_PROJECT_DOWNLOAD_INTERVAL_MAX).optional(),
  unique_project_download_limit_allowlist: stringList.optional(),
  unique_project_download_limit_alertlist: integerList.optional(),
  auto_ban_user_on_excessive_projects_download: paramBoolean().optional(),
  ip_restriction_ranges: paramString().nullable().optional(),
  allowed_email_domains_list: paramString().nullable().optional(),
  wiki_access_level: paramEnum(WIKI_ACCESS_LEVELS).optional(),
  vendor_availability: paramEnum(VENDOR_AVAILABILITIES).optional(),
  experiment_features_enabled: paramBoolean().optional(),
  math_rendering_limits_enabled: paramBoolean().optional(),
  lock_math_rendering_limits_enabled: paramBoolean().optional(),
  vendor_features_enabled: paramBoolean().optional(),
  lock_vendor_features_enabled: paramBoolean().optional(),
  max_artifacts_size: range(0, Number.MAX_SAFE_INTEGER).nullable().optional(),
  web_based_commit_signing_enabled: paramBoolean().optional(),
  only_allow_merge_if_pipeline_succeeds: paramBoolean().optional(),
  allow_merge_on_skipped_pipeline: paramBoolean().optional(),
  only_allow_merge_if_all_discussions_are_resolved: paramBoolean().optional(),
  allow_personal_snippets: paramBoolean().optional(),
});

type Changes = z.output<typeof groupSettingsParams>;

const BLANK_IS_NONE = new Set([
  "ip_restriction_ranges",
  "allowed_email_domains_list",
  "default_branch",
  "step_up_auth_required_oauth_provider",
]);

const VISIBILITY_RANK = { private: 0, internal: 1, public: 2 } as const;

/**
 * Applies a `PUT /groups/:id` to a group: who may set each field where (GROUP_SETTING_RULES),
 * then the model rules the service checks, each refusal naming the field as the service's model
 * errors do (`{"message":{"<field>":["..."]}}`). Nothing is written unless everything passes.
 */
export function applyGroupSettings(core: Core, actor: Actor, group: GroupRecord, input: Record<string, unknown>): void {
  const changes = validate(groupSettingsParams, input);
  const given = Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof Changes & string, unknown][];
  const edition = core.editions.current();
  for (const [field] of given) {
    const rule = GROUP_SETTING_RULES[field];
    if (!rule) continue;
    // The spec does not show these answers: an edition that lacks a field refuses it by name
    // rather than ignoring it, so that a program never believes a setting took.
    if (!tierIncludes(edition.tier, rule.tier)) throw modelValidationError(field, `needs ${describeTier(rule)}`);
    if (!offeringIncludes(edition.offering, rule)) throw modelValidationError(field, `exists only on ${describeOfferings(rule)}`);
    if (rule.topLevelOnly && group.parent_id !== null) throw modelValidationError(field, GROUP_SETTING_RULE_WORDS.topLevelOnly);
    if (rule.adminOnly && !actor?.admin) throw forbidden(`${field} ${GROUP_SETTING_RULE_WORDS.adminOnly}`);
  }
  checkModel(core, group, changes);
  const settings = { ...(group.settings ?? {}) };
  for (const [field, value] of given) {
    if (field === "name" || field === "path" || field === "description" || field === "visibility") continue;
    // A blank text means none, as the service stores it.
    settings[field] = value === "" && BLANK_IS_NONE.has(field) ? null : value;
  }
  // The two spellings of one switch (emails_disabled is deprecated): each write sets both.
  if (changes.emails_enabled !== undefined) settings["emails_disabled"] = !changes.emails_enabled;
  else if (changes.emails_disabled !== undefined) settings["emails_enabled"] = !changes.emails_disabled;
  if (changes.shared_runners_setting === "disabled_with_override") settings["shared_runners_setting"] = "disabled_and_overridable";
  group.settings = settings;
  if (changes.name !== undefined) group.name = changes.name;
  if (changes.path !== undefined) group.path = changes.path;
  if (changes.description !== undefined) group.description = changes.description;
  if (changes.visibility !== undefined) group.visibility = changes.visibility;
}

function checkModel(core: Core, group: GroupRecord, changes: Changes): void {
  if (changes.name !== undefined && changes.name.trim() === "") throw modelValidationError("name", "can't be blank");
  if (changes.path !== undefined) {
    checkNamespacePath(changes.path);
    if (groupPathTaken(core, group.parent_id, changes.path, group)) throw modelValidationError("path", "has already been taken");
  }
  if (changes.visibility !== undefined) {
    const parent = group.parent_id === null ? undefined : core.groups.byId(group.parent_id);
    if (parent && VISIBILITY_RANK[changes.visibility] > VISIBILITY_RANK[parent.visibility]) {
      throw modelValidationError(
        "visibility_level",
        `${changes.visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`,
      );
    }
    const below = [...core.groups.descendants(group), ...core.projects.list((project) => project.namespace_id === group.id)];
    if (below.some((child) => VISIBILITY_RANK[child.visibility] > VISIBILITY_RANK[changes.visibility!])) {
      throw modelValidationError(
        "visibility_level",
        `${changes.visibility} is not allowed since there are sub-groups or projects with higher visibility.`,
      );
    }
  }
  if (changes.emails_enabled !== undefined && changes.emails_disabled !== undefined && changes.emails_enabled === changes.emails_disabled) {
    throw modelValidationError("emails_enabled", "contradicts emails_disabled");
  }
  listRule(
    "unique_project_download_limit_allowlist",
    changes.unique_project_download_limit_allowlist,
    "usernames",
    (name) => !USERNAME.test(name) || !core.users.byUsername(name),
  );
  listRule(
    "unique_project_download_limit_alertlist",
    changes.unique_project_download_limit_alertlist,
    "user ids",
    (id) => !core.users.byId(id),
  );
  entriesRule("ip_restriction_ranges", changes.ip_restriction_ranges, "is an invalid IP address range", isIpRange);
  entriesRule("allowed_email_domains_list", changes.allowed_email_domains_list, "is not a valid domain", isEmailDomain);
  if (changes.file_template_project_id !== undefined && changes.file_template_project_id !== null) {
    const project = core.projects.byId(changes.file_template_project_id);
    const inside = project && [group, ...core.groups.descendants(group)].some((candidate) => candidate.id === project.namespace_id);
    if (!inside) throw modelValidationError("file_template_project_id", "must be a project of the group or its subgroups");
  }
}

/** A download list: at most 100 entries, each naming someone who exists. */
function listRule<T>(field: string, list: T[] | undefined, what: string, unknown: (entry: T) => boolean): void {
  if (!list) return;
  if (list.length > UNIQUE_PROJECT_DOWNLOAD_LIST_MAX)
    throw modelValidationError(field, `is too long (maximum is ${UNIQUE_PROJECT_DOWNLOAD_LIST_MAX} entries)`);
  const bad = list.filter(unknown);
  if (bad.length > 0) throw modelValidationError(field, `contains unknown ${what}: ${bad.join(", ")}`);
}

/** A comma-separated text whose every entry must parse. */
function entriesRule(field: string, text: string | null | undefined, problem: string, holds: (entry: string) => boolean): void {
  if (!text) return;
  const bad = text.split(",").filter((entry) => !holds(entry));
  if (bad.length > 0) throw modelValidationError(field, `${bad.join(", ")} ${problem}`);
}
