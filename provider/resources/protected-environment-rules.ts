import { z } from "zod";
import { DEPLOY_ACCESS_LEVELS } from "../../spec";
import type { NestedCollection } from "../engine/declaration";


const exactlyOneGrantee = {
  message: "give exactly one of userId, groupId or accessLevel",
};

function hasOneGrantee(entry: { userId?: number | undefined; groupId?: number | undefined; accessLevel?: number | undefined }): boolean {
  return [entry.userId, entry.groupId, entry.accessLevel].filter((value) => value !== undefined).length === 1;
}

const grantee = {
  /** A user who may deploy (group level: a Maintainer or above of the group; project level: a user with access). */
  userId: z.number().int().positive().optional(),
  /** A group whose members may deploy (group level: a subgroup; project level: a group the project is shared with). */
  groupId: z.number().int().positive().optional(),
  /** A role that may deploy: 30 Developer, 40 Maintainer, 60 Administrator. */
  accessLevel: z.literal(DEPLOY_ACCESS_LEVELS).optional(),
};

/** 0: direct members of `groupId` only (default); 1: members of its ancestor groups too. */
const groupInheritanceType = z.union([z.literal(0), z.literal(1)]).optional();

/** Who may deploy: exactly one of a user, a group or a role. */
export const groupDeployAccessLevel = z.object(grantee).refine(hasOneGrantee, exactlyOneGrantee);
export const projectDeployAccessLevel = z.object({ ...grantee, groupInheritanceType }).refine(hasOneGrantee, exactlyOneGrantee);

/** Who must approve a deployment, and how many approvals are needed from them. */
export const approvalRule = z
  .object({
    ...grantee,
    /** How many approvals this user, group or role must give (default 1). */
    requiredApprovals: z.number().int().min(1).optional(),
    groupInheritanceType,
  })
  .refine(hasOneGrantee, exactlyOneGrantee);

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
