import { z } from "zod";
import { describeOfferings, describeTier } from "../../api/editions";
import {
  BRANCH_PROTECTION_ACCESS_LEVELS,
  DEFAULT_BRANCH_PROTECTION_LEVELS,
  GIT_ACCESS_PROTOCOLS,
  GROUP_SETTING_DEFAULTS,
  GROUP_SETTING_RULES,
  GROUP_VISIBILITIES,
  isEmailDomain,
  isIpRange,
  PROJECT_CREATION_LEVELS,
  SHARED_RUNNERS_SETTINGS,
  SUBGROUP_CREATION_LEVELS,
  TOP_LEVEL_ONLY_SETTINGS,
  TWO_FACTOR_GRACE_PERIOD_MAX,
  UNIQUE_PROJECT_DOWNLOAD_INTERVAL_MAX,
  UNIQUE_PROJECT_DOWNLOAD_LIMIT_MAX,
  UNIQUE_PROJECT_DOWNLOAD_LIST_MAX,
  VENDOR_AVAILABILITIES,
  WIKI_ACCESS_LEVELS,
} from "../../api/group-settings";
import { USERNAME } from "../../api/names";
import { defineResource, type State } from "../engine/declaration";
import { fromWire } from "../engine/naming";
import { crossFieldRule, groupRef, normalizers, show, valueRule, wordList } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { field, username } from "../adopt-entry/find";
import { routes } from "../../api/routes";
import { RESTORE_KEY } from "../engine/bookkeeping";

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.enum(values, { error: (issue) => `${show(issue.input)} is not ${what}. Use ${wordList(values)}.` });

const count = (max: number, unit: string) =>
  z
    .number()
    .int()
    .min(0, { error: `must be 0 or more ${unit}` })
    .max(max, { error: `must be at most ${max.toLocaleString("en")} ${unit} (the forge's limit)` });

/** A comma-separated list whose every entry passes `holds`. */
const commaList = (what: string, example: string, holds: (entry: string) => boolean) =>
  z.string().check(
    valueRule({
      format: what,
      rule: `comma-separated ${what}s`,
      holds: (value) => value.trim() === "" || value.split(",").every(holds),
      message: (value) =>
        `${value
          .split(",")
          .filter((entry) => !holds(entry))
          .map((entry) => show(entry.trim()))
          .join(", ")} is not a valid ${what}. Write a comma-separated list such as ${show(example)}.`,
    }),
  );

/** Compared as a set of trimmed entries; blank means none. */
const commaSet = (value: unknown) =>
  typeof value === "string"
    ? value.trim() === ""
      ? null
      : value
          .split(",")
          .map((entry) => entry.trim())
          .sort()
          .join(",")
    : value;
const blankAsNull = (value: unknown) => (value === "" ? null : value);

const branchRoles = z.array(
  z.object({
    /** 0 (no one), 30 (Developer) or 40 (Maintainer). */
    accessLevel: z.literal(BRANCH_PROTECTION_ACCESS_LEVELS, {
      error: (issue) =>
        `${show(issue.input)} is not a role for default branch protection. Use 0 (no one), 30 (Developer) or 40 (Maintainer).`,
    }),
  }),
);

/** The full path's own segment: `acme/platform` → `platform`. */
const lastSegment = (path: string) => path.replace(/\/+$/, "").split("/").pop() ?? path;

/**
 * The settings of an existing group (`PUT /groups/:id`). Create writes the settings the program
 * sets and remembers what they were; delete writes those values back; dropping one input from
 * the program writes back its value from before too (or the forge's default, for an input the
 * program started to set later). Settings the program never sets are left alone.
 */
export const groupSettings = defineResource({
  name: "GroupSettings",
  summary:
    "The settings of an existing group: visibility, sign-in rules, project and subgroup creation, merge checks, download limits and the rest of `PUT /groups/:id`.",
  inputs: z
    .object({
      /** The group: id or full path. Changing it replaces the resource (the old group's settings are restored first). */
      group: groupRef,
      /** The group's display name. */
      name: z.string().trim().min(1, { error: "is blank; give the group's name" }).optional(),
      /** The group's own path segment (its URL). Address the group by its numeric id to change this: its full path changes with it. */
      path: z
        .string()
        .regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/, {
          error: (issue) =>
            `${show(issue.input)} is not a group path. Use letters, digits, '_', '-' and '.', not starting with '-' or '.'.`,
        })
        .optional(),
      /** The description. */
      description: z.string().optional(),
      /** Auto DevOps for the group's projects. */
      autoDevopsEnabled: z.boolean().optional(),
      /** The default branch name of new projects. */
      defaultBranch: z.string().optional(),
      /** Deprecated by the forge: use `defaultBranchProtectionDefaults`. 0 none, 1 partial, 2 full, 3 against pushes, 4 full after the initial push. */
      defaultBranchProtection: z
        .literal(DEFAULT_BRANCH_PROTECTION_LEVELS, {
          error: (issue) =>
            `${show(issue.input)} is not a default branch protection level. Use 0, 1, 2, 3 or 4 (or defaultBranchProtectionDefaults).`,
        })
        .optional(),
      /** Who may push and merge to the default branch of new projects, and whether force pushes are allowed. */
      defaultBranchProtectionDefaults: z
        .object({
          /** Roles that may push. */
          allowedToPush: branchRoles.optional(),
          /** Whether force pushes are allowed. */
          allowForcePush: z.boolean().optional(),
          /** Roles that may merge. */
          allowedToMerge: branchRoles.optional(),
        })
        .optional(),
      /** Git over `ssh`, `http` or `all` (both). */
      enabledGitAccessProtocol: oneOf(GIT_ACCESS_PROTOCOLS, "a Git access protocol").optional(),
      /** Deprecated by the forge: use `emailsEnabled` (set only one of the two). */
      emailsDisabled: z.boolean().optional(),
      /** Whether the forge sends e-mail notifications about the group. */
      emailsEnabled: z.boolean().optional(),
      /** Git LFS for the group's projects. */
      lfsEnabled: z.boolean().optional(),
      /** true: mentioning the group does not notify its members. */
      mentionsDisabled: z.boolean().optional(),
      /** Top-level groups only: the group's subgroups cannot be shared outside its hierarchy. */
      preventSharingGroupsOutsideHierarchy: z.boolean().optional(),
      /** Who may create projects: `noone`, `maintainer` or `developer`. */
      projectCreationLevel: oneOf(PROJECT_CREATION_LEVELS, "a project creation level").optional(),
      /** Whether users may request access. */
      requestAccessEnabled: z.boolean().optional(),
      /** Members must use two-factor authentication. */
      requireTwoFactorAuthentication: z.boolean().optional(),
      /** Instance runners: `enabled`, `disabled_and_overridable` (subgroups may turn them back on), `disabled_and_unoverridable`; `disabled_with_override` is a deprecated alias of `disabled_and_overridable`. */
      sharedRunnersSetting: oneOf(SHARED_RUNNERS_SETTINGS, "an instance runners setting").optional(),
      /** Projects of the group cannot be shared with other groups. */
      shareWithGroupLock: z.boolean().optional(),
      /** The OAuth provider of step-up authentication; empty turns it off (behind a feature flag of the forge). */
      stepUpAuthRequiredOauthProvider: z.string().optional(),
      /** Who may create subgroups: `owner` or `maintainer`. */
      subgroupCreationLevel: oneOf(SUBGROUP_CREATION_LEVELS, "a subgroup creation level").optional(),
      /** Hours members have to set up two-factor authentication. */
      twoFactorGracePeriod: count(TWO_FACTOR_GRACE_PERIOD_MAX, "hours").optional(),
      /** `private`, `internal` or `public`: no more visible than the parent group, no less than what is inside. */
      visibility: oneOf(GROUP_VISIBILITIES, "a visibility").optional(),
      /** Administrators; self-managed, Premium and above: compute minutes added to the limit. */
      extraSharedRunnersMinutesLimit: count(Number.MAX_SAFE_INTEGER, "minutes").optional(),
      /** Premium and above: the project holding the group's file templates (one of the group's projects). */
      fileTemplateProjectId: z.number().int().positive().optional(),
      /** Premium and above: no members may be added to the group's projects. */
      membershipLock: z.boolean().optional(),
      /** Premium and above: projects cannot be forked outside the group. */
      preventForkingOutsideGroup: z.boolean().optional(),
      /** Administrators; Premium and above: compute minutes per month, 0 unlimited (the forge's own default, none, inherits the instance's). */
      sharedRunnersMinutesLimit: count(Number.MAX_SAFE_INTEGER, "minutes").optional(),
      /** Top-level groups, Ultimate: unique projects a user may download in the interval before being reported (0 to 10,000; 0 off). */
      uniqueProjectDownloadLimit: count(UNIQUE_PROJECT_DOWNLOAD_LIMIT_MAX, "projects").optional(),
      /** Top-level groups, Ultimate: the interval of the download limit (0 to 864,000 seconds). */
      uniqueProjectDownloadLimitIntervalInSeconds: count(UNIQUE_PROJECT_DOWNLOAD_INTERVAL_MAX, "seconds").optional(),
      /** Top-level groups, Ultimate: usernames the download limit does not apply to (at most 100). */
      uniqueProjectDownloadLimitAllowlist: z
        .array(z.string().regex(USERNAME, { error: (issue) => `${show(issue.input)} is not a username.` }))
        .max(UNIQUE_PROJECT_DOWNLOAD_LIST_MAX, { error: `has more than ${UNIQUE_PROJECT_DOWNLOAD_LIST_MAX} usernames (the forge's limit)` })
        .optional(),
      /** Top-level groups, Ultimate: ids of the users e-mailed when the limit is exceeded (at most 100). */
      uniqueProjectDownloadLimitAlertlist: z
        .array(z.number().int().positive())
        .max(UNIQUE_PROJECT_DOWNLOAD_LIST_MAX, { error: `has more than ${UNIQUE_PROJECT_DOWNLOAD_LIST_MAX} user ids (the forge's limit)` })
        .optional(),
      /** Top-level groups, Ultimate: ban users who exceed the download limit. */
      autoBanUserOnExcessiveProjectsDownload: z.boolean().optional(),
      /** Premium and above: the addresses or subnets (comma-separated) the group may be reached from. */
      ipRestrictionRanges: commaList("IP address range", "10.0.0.0/8,192.168.1.1", isIpRange).optional(),
      /** Premium and above: the e-mail domains (comma-separated) new members must have. */
      allowedEmailDomainsList: commaList("domain", "example.com,example.org", isEmailDomain).optional(),
      /** Premium and above: the group wiki for `disabled`, `private` (members) or `enabled` (everyone who sees the group). */
      wikiAccessLevel: oneOf(WIKI_ACCESS_LEVELS, "a wiki access level").optional(),
      /** Premium and above: the AI features' default for the group's projects: `default_on`, `default_off`, `never_on`. */
      vendorAvailability: oneOf(VENDOR_AVAILABILITIES, "an availability").optional(),
      /** Premium and above: experimental features. */
      experimentFeaturesEnabled: z.boolean().optional(),
      /** Limits on math rendering in Markdown. */
      mathRenderingLimitsEnabled: z.boolean().optional(),
      /** Subgroups cannot change the math rendering limits. */
      lockMathRenderingLimitsEnabled: z.boolean().optional(),
      /** Self-managed, Premium and above: the vendor features. */
      vendorFeaturesEnabled: z.boolean().optional(),
      /** Self-managed, Premium and above: subgroups cannot change `vendorFeaturesEnabled`. */
      lockVendorFeaturesEnabled: z.boolean().optional(),
      /** The largest job artifact, in megabytes. */
      maxArtifactsSize: count(Number.MAX_SAFE_INTEGER, "megabytes").optional(),
      /** Top-level groups on the hosted offering: commits made in the web editor are signed. */
      webBasedCommitSigningEnabled: z.boolean().optional(),
      /** Premium and above: merge requests need a successful pipeline. */
      onlyAllowMergeIfPipelineSucceeds: z.boolean().optional(),
      /** Premium and above: a skipped pipeline counts as successful (with `onlyAllowMergeIfPipelineSucceeds`). */
      allowMergeOnSkippedPipeline: z.boolean().optional(),
      /** Premium and above: every discussion must be resolved before a merge. */
      onlyAllowMergeIfAllDiscussionsAreResolved: z.boolean().optional(),
      /** Whether members may create personal snippets. */
      allowPersonalSnippets: z.boolean().optional(),
    })
    .check(
      crossFieldRule({
        rule: "settings only top-level groups take are not set on a group given by a full path with a /",
        problem: (args) => {
          const group = typeof args.group === "string" ? decodeURIComponent(args.group).replace(/^\/+|\/+$/g, "") : "";
          if (!group.includes("/")) return undefined;
          const field = TOP_LEVEL_ONLY_INPUTS.find((key) => (args as Record<string, unknown>)[key] !== undefined);
          return field
            ? {
                path: [field],
                message: `${show(args.group)} is a subgroup, and ${field} can be set on top-level groups only. Set it on ${show(group.split("/")[0])} instead.`,
              }
            : undefined;
        },
      }),
      crossFieldRule({
        rule: "emailsEnabled and the deprecated emailsDisabled: only one of them",
        problem: (args) =>
          args.emailsEnabled !== undefined && args.emailsDisabled !== undefined
            ? { path: ["emailsDisabled"], message: "emailsDisabled is the deprecated opposite of emailsEnabled: set only emailsEnabled." }
            : undefined,
      }),
      crossFieldRule({
        rule: "a group given by its full path keeps its path (give its id to change the path)",
        problem: (args) =>
          args.path !== undefined &&
          typeof args.group === "string" &&
          !/^\d+$/.test(args.group) &&
          lastSegment(decodeURIComponent(args.group)) !== args.path
            ? {
                path: ["path"],
                message: `changing the path of ${show(args.group)} changes its full path, by which this resource finds it. Give the group by its numeric id to change its path.`,
              }
            : undefined,
      }),
    ),
  outputs: z.object({
    /** The group's id. */
    groupId: z.number().int(),
    /** The group's full path after the settings. */
    fullPath: z.string(),
    /** The group's full name. */
    fullName: z.string(),
    /** The parent group's id; null for a top-level group. */
    parentId: z.number().int().nullable(),
    /** The group's web address. */
    webUrl: z.string(),
  }),
  recordId: "groupId",
  idParts: ["group"],
  identity: { fields: ["group"], describe: (state) => `the settings of group ${show(state["group"])}` },
  setting: true,
  create: routes.groups.update,
  read: routes.groups.get,
  update: routes.groups.update,
  replaceOn: ["group"],
  // A change of group: the old group gets its settings back before the new one's are written.
  deleteBeforeReplace: true,
  normalize: {
    group: normalizers.ref,
    ipRestrictionRanges: commaSet,
    allowedEmailDomainsList: commaSet,
    defaultBranch: blankAsNull,
    stepUpAuthRequiredOauthProvider: blankAsNull,
    sharedRunnersSetting: (value) => (value === "disabled_with_override" ? "disabled_and_overridable" : value),
  },
  // Name and path have no default: without a value from before, dropping them changes nothing.
  resets: Object.fromEntries(
    Object.entries({ ...GROUP_SETTING_DEFAULTS, name: undefined, path: undefined, description: "", visibility: "private" }).map(
      ([wire, fallback]) => {
        const field = fromWireName(wire);
        return [field, (state: State) => foundBefore(state, field, fromWire(fallback))];
      },
    ),
  ),
  notes: [
    "A setting of an existing group: create remembers the values it changes (kept in state as `restore`) and delete writes them back. Dropping an input from the program writes back its value from before the resource managed it, or the forge's default when the program started to set it later.",
    '`PUT /groups/:id` needs the Owner role. The forge refuses a setting the instance\'s edition lacks, naming the field (`{"membership_lock":["needs the Premium tier or higher"]}`); fields that need a tier, an offering, a top-level group or an administrator:',
    ...Object.entries(GROUP_SETTING_RULES).map(([wire, rule]) => {
      const parts = [
        describeTier(rule),
        describeOfferings(rule),
        rule.topLevelOnly ? "top-level groups" : undefined,
        rule.adminOnly ? "administrators" : undefined,
      ].filter(Boolean);
      return `\`${fromWireName(wire)}\`: ${parts.join(", ")}.`;
    }),
  ],
});

/** The inputs of the settings only top-level groups take. */
const TOP_LEVEL_ONLY_INPUTS = TOP_LEVEL_ONLY_SETTINGS.map(fromWireName);

function fromWireName(wire: string): string {
  return Object.keys(fromWire({ [wire]: null }) as Record<string, unknown>)[0]!;
}

/** What create found for a field (kept in `restore`), else the forge's default. */
function foundBefore(state: State, field: string, fallback: unknown): unknown {
  const restore = state[RESTORE_KEY] as Record<string, unknown> | undefined;
  return restore && field in restore ? restore[field] : fallback;
}

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  groupSettings: defineAdopt({
    scope: "group",
    setting: true,
    // Every group has settings; the program declares those that differ from the forge's
    // defaults (the read leaves out a value equal to what dropping the input writes back).
    find: async ({ path }) => [{ group: path }],
    name: () => "settings",
    // The group's name and path are what the program already calls it by: not settings to repeat.
    present: async (inputs) => {
      const { name: _name, path: _path, ...settings } = inputs;
      return settings;
    },
    // A group whose settings are all the defaults: nothing to declare.
    keep: (inputs) => Object.keys(inputs).some((key) => key !== "group"),
    describe: async (inputs, _outputs, { client }) => {
      const comments: Record<string, string> = {};
      if (typeof inputs["fileTemplateProjectId"] === "number")
        comments["fileTemplateProjectId"] =
          (await field(client, routes.projects.get, { project: inputs["fileTemplateProjectId"] }, "path_with_namespace")) ?? "";
      const alerted = inputs["uniqueProjectDownloadLimitAlertlist"];
      if (Array.isArray(alerted) && alerted.length > 0) {
        const names = await Promise.all(alerted.map((id) => username(client, Number(id))));
        comments["uniqueProjectDownloadLimitAlertlist"] = names.map((name, index) => name ?? String(alerted[index])).join(", ");
      }
      return comments;
    },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { groupSettings };
