import { z } from "zod";
import type { ProjectRecord } from "./records";
import { WIKI_ACCESS_LEVELS } from "../../api/group-settings";
import { paramBoolean, paramEnum, paramInteger, paramString } from "./validation";

/*
 * A project's settings as the service's project record carries them (`GET /projects/:id`, outside
 * the spec, which shows only the embedded and limited records). `POST /projects` takes them and
 * the record gives back what was set over the service's defaults for a new project, so that a
 * client that writes a setting reads the same value back.
 */

const PAGES_ACCESS_LEVELS = [...WIKI_ACCESS_LEVELS, "public"] as const;

/** A switch, with the service's value for a new project. */
const flag = (fallback: boolean) => ({ param: paramBoolean(), default: fallback });
/** A feature's access level: the levels a group's wiki takes (api/group-settings.ts). */
const level = (fallback: (typeof WIKI_ACCESS_LEVELS)[number]) => ({ param: paramEnum(WIKI_ACCESS_LEVELS), default: fallback });
/** A text that may be null (a template, a path). */
const text = (fallback: string | null) => ({ param: paramString().nullable(), default: fallback });
const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => ({
  param: paramEnum(values),
  default: fallback,
});

/** Each setting: its parameter's validation and the service's value for a new project. */
const SETTINGS = {
  request_access_enabled: flag(true),
  issues_enabled: flag(true),
  merge_requests_enabled: flag(true),
  jobs_enabled: flag(true),
  wiki_enabled: flag(true),
  snippets_enabled: flag(true),
  container_registry_enabled: flag(true),
  lfs_enabled: flag(true),
  packages_enabled: flag(true),
  shared_runners_enabled: flag(true),
  public_jobs: flag(true),
  approvals_before_merge: { param: paramInteger(), default: 0 },
  merge_method: choice(["merge", "rebase_merge", "ff"], "merge"),
  squash_option: choice(["never", "always", "default_on", "default_off"], "default_off"),
  only_allow_merge_if_pipeline_succeeds: flag(false),
  only_allow_merge_if_all_discussions_are_resolved: flag(false),
  allow_merge_on_skipped_pipeline: flag(false),
  remove_source_branch_after_merge: flag(true),
  printing_merge_request_link_enabled: flag(true),
  resolve_outdated_diff_discussions: flag(false),
  mirror: flag(false),
  mirror_trigger_builds: flag(false),
  mirror_overwrites_diverged_branches: flag(false),
  only_mirror_protected_branches: flag(false),
  ci_config_path: text(null),
  ci_forward_deployment_enabled: flag(true),
  ci_default_git_depth: { param: paramInteger(), default: 20 },
  merge_pipelines_enabled: flag(false),
  merge_trains_enabled: flag(false),
  auto_cancel_pending_pipelines: choice(["enabled", "disabled"], "enabled"),
  auto_devops_deploy_strategy: choice(["continuous", "manual", "timed_incremental"], "continuous"),
  auto_devops_enabled: flag(false),
  autoclose_referenced_issues: flag(true),
  build_git_strategy: choice(["fetch", "clone"], "fetch"),
  build_timeout: { param: paramInteger(), default: 3600 },
  emails_disabled: flag(false),
  emails_enabled: flag(true),
  external_authorization_classification_label: text(""),
  issues_template: text(null),
  merge_requests_template: text(null),
  suggestion_commit_message: text(null),
  squash_commit_template: text(null),
  merge_commit_template: text(null),
  issues_access_level: level("enabled"),
  repository_access_level: level("enabled"),
  merge_requests_access_level: level("enabled"),
  forking_access_level: level("enabled"),
  wiki_access_level: level("enabled"),
  builds_access_level: level("enabled"),
  snippets_access_level: level("enabled"),
  pages_access_level: choice(PAGES_ACCESS_LEVELS, "private"),
  operations_access_level: level("enabled"),
  analytics_access_level: level("enabled"),
  requirements_access_level: level("enabled"),
  security_and_compliance_access_level: level("private"),
  container_registry_access_level: level("enabled"),
};

/** The settings of a project nothing has changed: built once, spread into each record. */
const DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, setting]) => [name, setting.default])),
);

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
  const merged = { ...DEFAULTS, ...project.settings };
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
