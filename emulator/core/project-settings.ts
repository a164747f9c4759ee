import { z } from "zod";
import type { ProjectRecord } from "./records";
import { paramBoolean, paramEnum, paramInteger, paramString } from "./validation";

/*
 * A project's settings as the service's project record carries them (`GET /projects/:id`, outside
 * the spec, which shows only the embedded and limited records). `POST /projects` takes them and
 * the record gives back what was set over the service's defaults for a new project, so that a
 * client that writes a setting reads the same value back.
 */

const ACCESS_LEVELS = ["disabled", "private", "enabled"] as const;
const PAGES_ACCESS_LEVELS = ["disabled", "private", "enabled", "public"] as const;

/** Each setting: its parameter's validation and the service's value for a new project. */
const SETTINGS = {
  request_access_enabled: { param: paramBoolean(), default: true },
  issues_enabled: { param: paramBoolean(), default: true },
  merge_requests_enabled: { param: paramBoolean(), default: true },
  jobs_enabled: { param: paramBoolean(), default: true },
  wiki_enabled: { param: paramBoolean(), default: true },
  snippets_enabled: { param: paramBoolean(), default: true },
  container_registry_enabled: { param: paramBoolean(), default: true },
  lfs_enabled: { param: paramBoolean(), default: true },
  packages_enabled: { param: paramBoolean(), default: true },
  shared_runners_enabled: { param: paramBoolean(), default: true },
  public_jobs: { param: paramBoolean(), default: true },
  approvals_before_merge: { param: paramInteger(), default: 0 },
  merge_method: { param: paramEnum(["merge", "rebase_merge", "ff"]), default: "merge" },
  squash_option: { param: paramEnum(["never", "always", "default_on", "default_off"]), default: "default_off" },
  only_allow_merge_if_pipeline_succeeds: { param: paramBoolean(), default: false },
  only_allow_merge_if_all_discussions_are_resolved: { param: paramBoolean(), default: false },
  allow_merge_on_skipped_pipeline: { param: paramBoolean(), default: false },
  remove_source_branch_after_merge: { param: paramBoolean(), default: true },
  printing_merge_request_link_enabled: { param: paramBoolean(), default: true },
  resolve_outdated_diff_discussions: { param: paramBoolean(), default: false },
  mirror: { param: paramBoolean(), default: false },
  mirror_trigger_builds: { param: paramBoolean(), default: false },
  mirror_overwrites_diverged_branches: { param: paramBoolean(), default: false },
  only_mirror_protected_branches: { param: paramBoolean(), default: false },
  ci_config_path: { param: paramString().nullable(), default: null },
  ci_forward_deployment_enabled: { param: paramBoolean(), default: true },
  ci_default_git_depth: { param: paramInteger(), default: 20 },
  merge_pipelines_enabled: { param: paramBoolean(), default: false },
  merge_trains_enabled: { param: paramBoolean(), default: false },
  auto_cancel_pending_pipelines: { param: paramEnum(["enabled", "disabled"]), default: "enabled" },
  auto_devops_deploy_strategy: { param: paramEnum(["continuous", "manual", "timed_incremental"]), default: "continuous" },
  auto_devops_enabled: { param: paramBoolean(), default: false },
  autoclose_referenced_issues: { param: paramBoolean(), default: true },
  build_git_strategy: { param: paramEnum(["fetch", "clone"]), default: "fetch" },
  build_timeout: { param: paramInteger(), default: 3600 },
  emails_disabled: { param: paramBoolean(), default: false },
  emails_enabled: { param: paramBoolean(), default: true },
  external_authorization_classification_label: { param: paramString().nullable(), default: "" },
  issues_template: { param: paramString().nullable(), default: null },
  merge_requests_template: { param: paramString().nullable(), default: null },
  suggestion_commit_message: { param: paramString().nullable(), default: null },
  squash_commit_template: { param: paramString().nullable(), default: null },
  merge_commit_template: { param: paramString().nullable(), default: null },
  issues_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  repository_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  merge_requests_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  forking_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  wiki_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  builds_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  snippets_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  pages_access_level: { param: paramEnum(PAGES_ACCESS_LEVELS), default: "private" },
  operations_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  analytics_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  requirements_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
  security_and_compliance_access_level: { param: paramEnum(ACCESS_LEVELS), default: "private" },
  container_registry_access_level: { param: paramEnum(ACCESS_LEVELS), default: "enabled" },
} as const;

type SettingName = keyof typeof SETTINGS;

/** The parameters that set a setting under another name (`public_builds` is `public_jobs`). */
const ALIASES: Readonly<Record<string, SettingName>> = { public_builds: "public_jobs" };

/** The settings' parameters, for `POST /projects` (each optional, aliases included). */
export const projectSettingParams = Object.fromEntries([
  ...Object.entries(SETTINGS).map(([name, setting]) => [name, setting.param.optional()]),
  ...Object.entries(ALIASES).map(([alias, name]) => [alias, SETTINGS[name].param.optional()]),
]) as Record<string, z.ZodType>;

/** The settings among validated parameters, aliases under their record names. */
export function projectSettingsOf(params: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (key in SETTINGS) settings[key] = value;
    else if (key in ALIASES) settings[ALIASES[key]!] = value;
  }
  return settings;
}

/** What of a project record holds its settings: `settings`, and the two switches older state files kept beside it. */
type SettingsHolder = Pick<ProjectRecord, "settings" | "issues_enabled" | "merge_requests_enabled">;

/** The switches older state files kept as fields of their own; `settings` holds them now. */
const LEGACY_FIELDS = ["issues_enabled", "merge_requests_enabled"] as const;

/**
 * Every setting of a project: what was set over the defaults. `settings` is the one store. A
 * switch an older state file holds as a field of its own was the last word written then (its
 * admin endpoint wrote only the field), so it counts until a write replaces it.
 */
export function projectSettings(project: SettingsHolder): Record<string, unknown> {
  const values: Record<string, unknown> = Object.fromEntries(Object.entries(SETTINGS).map(([name, setting]) => [name, setting.default]));
  const merged = { ...values, ...project.settings };
  for (const field of LEGACY_FIELDS) if (project[field] !== undefined) merged[field] = project[field];
  return merged;
}

/** One setting of a project, as {@link projectSettings} reads it. */
export function projectSetting(project: SettingsHolder, name: SettingName): unknown {
  if ((name === "issues_enabled" || name === "merge_requests_enabled") && project[name] !== undefined) return project[name];
  return project.settings && name in project.settings ? project.settings[name] : SETTINGS[name].default;
}

/** Writes settings (by record name, as {@link projectSettingsOf} gives them) into the one store, replacing an older file's fields. */
export function writeProjectSettings(project: SettingsHolder, changes: Record<string, unknown>): void {
  if (Object.keys(changes).length === 0) return;
  project.settings = { ...project.settings, ...changes };
  for (const field of LEGACY_FIELDS) if (field in changes) delete project[field];
}
