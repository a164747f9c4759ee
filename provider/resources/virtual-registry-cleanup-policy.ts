import { z } from "zod";
import { CLEANUP_CADENCES, CLEANUP_KEEP_DAYS, CLEANUP_POLICY_DEFAULTS } from "../../api/cleanup-policy";
import { CLEANUP_POLICIES_PER_GROUP } from "../../api";
import { defineResource } from "../engine/declaration";
import { normalizers, serverId, show, valueRule, wordList } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { one } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** A top-level group's path has no `/` (written `%2F` when URL-encoded); a subgroup is refused by the forge. */
const topLevelGroup = z.union([
  serverId,
  z
    .string()
    .min(1)
    .check(
      valueRule({
        format: "top-level-group",
        rule: "a top-level group: its full path has no /",
        holds: (value) => !/\/|%2f/i.test(value.replace(/^\/+|\/+$/g, "")),
        message: (value) =>
          `${show(value)} is a subgroup; cleanup policies belong to top-level groups. Give the top-level group, such as ${show(value.split(/\/|%2f/i)[0])}.`,
      }),
    ),
]);

const CADENCE_NAMES: Record<(typeof CLEANUP_CADENCES)[number], string> = {
  1: "daily",
  7: "weekly",
  14: "bi-weekly",
  30: "monthly",
  90: "quarterly",
};

/**
 * How a top-level group's virtual registries drop cache entries nobody downloads any more.
 * One per group (Premium, an experiment of the forge).
 */
export const virtualRegistryCleanupPolicy = defineResource({
  name: "VirtualRegistryCleanupPolicy",
  summary: "The cleanup policy of a top-level group's virtual registries: how often cache entries not downloaded recently are removed.",
  inputs: z.object({
    /** The top-level group: id or full path (a subgroup is refused). Changing it replaces the policy. */
    group: topLevelGroup,
    /**
     * Days between runs: 1 (daily), 7 (weekly), 14 (bi-weekly), 30 (monthly) or 90 (quarterly).
     * The forge's default is 7.
     */
    cadence: z
      .literal(CLEANUP_CADENCES, {
        error: (issue) =>
          `${show(issue.input)} is not a cadence the forge runs cleanups at. Use ${wordList(CLEANUP_CADENCES.map((days) => `${days} (${CADENCE_NAMES[days]})`))}.`,
      })
      .optional(),
    /**
     * Cache entries downloaded within this many days are kept: from 1 to 365. The forge's default
     * is 30.
     */
    keepNDaysAfterDownload: z
      .number({
        error: (issue) =>
          `${show(issue.input)} is not a number of days. Give a whole number from ${CLEANUP_KEEP_DAYS.min} to ${CLEANUP_KEEP_DAYS.max}.`,
      })
      .int({
        error: (issue) =>
          `${show(issue.input)} is not a whole number of days. Give a whole number from ${CLEANUP_KEEP_DAYS.min} to ${CLEANUP_KEEP_DAYS.max}.`,
      })
      .min(CLEANUP_KEEP_DAYS.min, {
        error: (issue) =>
          `${show(issue.input)} days is too few: keep entries at least ${CLEANUP_KEEP_DAYS.min} day after their last download.`,
      })
      .max(CLEANUP_KEEP_DAYS.max, {
        error: (issue) =>
          `${show(issue.input)} days is too many: the forge keeps entries at most ${CLEANUP_KEEP_DAYS.max} days after their last download.`,
      })
      .optional(),
    /** Whether the policy runs. Off by default. */
    enabled: z.boolean().optional(),
    /** Email the group's owners after a successful run. Off by default. */
    notifyOnSuccess: z.boolean().optional(),
    /** Email the group's owners after a failed run. Off by default. */
    notifyOnFailure: z.boolean().optional(),
  }),
  outputs: z.object({
    /** The group's id. */
    groupId: z.number().int(),
    /** When the next run is due. */
    nextRunAt: z.string(),
    /** When the last run happened; null before the first. */
    lastRunAt: z.string().nullable(),
    /** Bytes the last run deleted. */
    lastRunDeletedSize: z.number().int(),
    /** Cache entries the last run deleted. */
    lastRunDeletedEntriesCount: z.number().int(),
    /** Per registry type, what the last run deleted (`deletedEntriesCount`, `deletedSize`); empty before the first run. */
    lastRunDetailedMetrics: z.record(z.string(), z.object({ deletedEntriesCount: z.number().int(), deletedSize: z.number().int() })),
    /** The policy's status, such as `scheduled`. */
    status: z.string(),
    /** Why the last run failed; null when it did not. */
    failureMessage: z.string().nullable(),
    /** When the policy was created. */
    createdAt: z.string(),
    /** When the policy was last changed. */
    updatedAt: z.string(),
  }),
  idParts: ["group"],
  // Addressed by its group: its creation time tells it from a policy made again since.
  identity: { fields: ["group"], describe: (state) => `the cleanup policy of group ${show(state["group"])}`, evidence: ["created_at"] },
  limits: [
    {
      policy: "virtual-registry-cleanup-policy-one-per-group",
      per: ["group"],
      max: CLEANUP_POLICIES_PER_GROUP,
      what: { one: "cleanup policy", many: "cleanup policies" },
      scope: "a top-level group",
      parent: (state) => `group ${show(state["group"])}`,
      advice: "Keep one of them and put every setting in it.",
    },
  ],
  create: routes.virtualRegistryCleanupPolicy.create,
  read: routes.virtualRegistryCleanupPolicy.get,
  // PATCH needs at least one field: the engine sends only changed ones, and an update always has one.
  update: routes.virtualRegistryCleanupPolicy.update,
  delete: routes.virtualRegistryCleanupPolicy.delete,
  replaceOn: ["group"],
  // Dropping an input sets the forge's default back.
  resets: { ...CLEANUP_POLICY_DEFAULTS },
  normalize: { group: normalizers.ref },
  errorHints: [
    {
      status: 403,
      hint: "VirtualRegistryCleanupPolicy needs the Premium tier or higher, a top-level group (not a subgroup) and the Maintainer role in it",
    },
    {
      status: 400,
      hint: "a group has at most one cleanup policy: import the existing one (its id is the group) or change it instead of creating another",
    },
  ],
  notes: [
    "One policy per top-level group: the policy pack refuses two in one program for the same group, and creating one where the group already has a policy fails (import it instead, with the group as the import id).",
    "The cleanup itself runs on the forge's schedule; `nextRunAt`, `lastRunAt` and the `lastRun*` outputs report it (refresh to see new runs).",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  virtualRegistryCleanupPolicy: defineAdopt({
    scope: "group",
    // Top-level groups only; a group without one answers 404.
    find: async ({ path, client }) =>
      path.includes("/") ? [] : (await one("getVirtualRegistryCleanupPolicy", { group: path }, client)) ? [{ group: path }] : [],
    name: () => "registry cleanup",
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { virtualRegistryCleanupPolicy };
