import { z } from "zod";
import { DEPLOY_ACCESS_LEVELS, DEPLOYMENT_TIERS } from "../../api";
import type { NestedCollection } from "../engine/declaration";
import { crossFieldRule, roleList, show, wordList } from "../fields";

/** The inputs that name who an entry is about; exactly one of them per entry. */
const GRANTEES = ["userId", "groupId", "accessLevel"] as const;
const GIVE_ONE_GRANTEE = `Give exactly one of ${wordList(GRANTEES)}`;

type Grantee = { userId?: number | undefined; groupId?: number | undefined; accessLevel?: number | undefined };

const exactlyOneGrantee = crossFieldRule<Grantee>({
  rule: `exactly one of ${wordList(GRANTEES)} per entry`,
  problem: (entry) => {
    const given = GRANTEES.filter((key) => entry[key] !== undefined);
    if (given.length === 1) return undefined;
    const message =
      given.length === 0
        ? `The entry names nobody. ${GIVE_ONE_GRANTEE}.`
        : `The entry names ${wordList(given, "and")} at once. ${GIVE_ONE_GRANTEE}, and split the others into entries of their own.`;
    return { path: [], message };
  },
});

/** The message of an entry that is not an object, or that has inputs entries do not take. */
function entryProblem(issue: { code?: string; input?: unknown; keys?: string[] }): string | undefined {
  if (issue.code === "invalid_type") {
    return `${show(issue.input)} is not an entry. Write it as an object with one of ${wordList(GRANTEES)}, such as { accessLevel: 40 }.`;
  }
  if (issue.code === "unrecognized_keys" && issue.keys?.includes("groupInheritanceType")) {
    return "Group-level entries take no groupInheritanceType: only project-level deploy access levels and approval rules do. Remove it.";
  }
  if (issue.code === "unrecognized_keys") {
    return `The entry has ${wordList(issue.keys ?? [], "and")}, which entries do not take. ${GIVE_ONE_GRANTEE}.`;
  }
  return undefined;
}

const grantee = {
  /** A user who may deploy (group level: a Maintainer or above of the group; project level: a user with access). */
  userId: z.number().int().positive().optional(),
  /** A group whose members may deploy (group level: a subgroup; project level: a group the project is shared with). */
  groupId: z.number().int().positive().optional(),
  /** A role that may deploy: 30 Developer, 40 Maintainer, 60 Administrator. */
  accessLevel: z
    .literal(DEPLOY_ACCESS_LEVELS, {
      error: (issue) => `${show(issue.input)} is not an access level protected environments accept. Use ${roleList(DEPLOY_ACCESS_LEVELS)}.`,
    })
    .optional(),
};

/** 0: direct members of `groupId` only (default); 1: members of its ancestor groups too. */
const groupInheritanceType = z
  .literal([0, 1], {
    error: (issue) =>
      `${show(issue.input)} is not a group inheritance type. Use 0 (direct members of the group only) or 1 (members of inherited groups too).`,
  })
  .optional();

const approvalFields = {
  ...grantee,
  /** How many approvals this user, group or role must give (default 1). */
  requiredApprovals: z.number().int().min(1).optional(),
};

/*
 * Entries name exactly one of a user, a group or a role. The API gives groupInheritanceType to
 * project-level entries only, and a stripped key would pass unnoticed: group-level entries are strict.
 */

/** Who may deploy. */
export const groupDeployAccessLevel = z.strictObject(grantee, { error: entryProblem }).check(exactlyOneGrantee);
export const projectDeployAccessLevel = z.object({ ...grantee, groupInheritanceType }, { error: entryProblem }).check(exactlyOneGrantee);

/** Who must approve a deployment, and how many approvals are needed from them. */
export const groupApprovalRule = z.strictObject(approvalFields, { error: entryProblem }).check(exactlyOneGrantee);
export const projectApprovalRule = z.object({ ...approvalFields, groupInheritanceType }, { error: entryProblem }).check(exactlyOneGrantee);

const notAList = (issue: { input?: unknown }) =>
  `${show(issue.input)} is not a list. Give a list of entries such as [{ accessLevel: 40 }].`;
const NEEDS_A_DEPLOYER = "It needs at least one entry saying who may deploy, such as [{ accessLevel: 40 }].";

/** Who may deploy: a list of at least one entry. */
export function deployAccessLevelList<Entry extends z.ZodType>(entry: Entry) {
  return z
    .array(entry, { error: (issue) => (issue.input === undefined ? NEEDS_A_DEPLOYER : notAList(issue)) })
    .min(1, { error: NEEDS_A_DEPLOYER });
}

/** Who must approve: an optional list. */
export function approvalRuleList<Entry extends z.ZodType>(entry: Entry) {
  return z.array(entry, { error: notAList }).optional();
}

/** The name of a group-level protected environment; a near miss (`prod`) gets its tier suggested. */
export const deploymentTier = z.enum(DEPLOYMENT_TIERS, {
  error: (issue) => {
    if (issue.input === undefined) return undefined;
    const name = issue.input;
    const tier =
      typeof name === "string" && name.length >= 3
        ? DEPLOYMENT_TIERS.find((candidate) => candidate.startsWith(name.toLowerCase().slice(0, 3)))
        : undefined;
    return (
      `${show(name)} is not a deployment tier; at group level the name is one of ${wordList(DEPLOYMENT_TIERS)}. ` +
      (tier ? `Did you mean "${tier}"?` : "Use one of them, or protect the environment per project with ProjectProtectedEnvironment.")
    );
  },
});

type Entry = Record<string, unknown>;

/** The grantee of an entry, which identifies it (`user:5`, `group:3`, `level:40`). */
function granteeKey(entry: Entry): string {
  if (entry["userId"] != null) return `user:${entry["userId"]}`;
  if (entry["groupId"] != null) return `group:${entry["groupId"]}`;
  return `level:${entry["accessLevel"]}`;
}

/**
 * Deploy access levels and approval rules: nested attributes identified by their grantee; server
 * ids and descriptions are not differences, `groupInheritanceType` defaults to 0 and an approval
 * rule's `requiredApprovals` to 1.
 */
export function granteeCollection(withApprovals: boolean): NestedCollection {
  return {
    style: "nested-attributes",
    key: granteeKey,
    meaning(entry) {
      const result: Entry = { grantee: granteeKey(entry), groupInheritanceType: entry["groupInheritanceType"] ?? 0 };
      if (withApprovals) result["requiredApprovals"] = entry["requiredApprovals"] ?? 1;
      return result;
    },
  };
}
