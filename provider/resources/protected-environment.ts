import { z } from "zod";
import { defineResource, type WireRecord } from "../engine/declaration";
import { fromWire } from "../engine/naming";
import { groupRef, nonBlank, normalizers, projectRef, show } from "../fields";
import {
  approvalRuleList,
  deployAccessLevelList,
  deploymentTier,
  granteeCollection,
  groupApprovalRule,
  groupDeployAccessLevel,
  projectApprovalRule,
  projectDeployAccessLevel,
} from "./protected-environment-rules";
import type { AdoptEntries } from "../adopt-entry/entry";
import { protectedEnvironments } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** Entries change one by one, by grantee; an update answers with only the lists it touched
 *  (spec rule 5), so the whole record is read back. */
const entryLists = {
  collections: { deployAccessLevels: granteeCollection(false), approvalRules: granteeCollection(true) },
  // The forge reports the Maintainer level on a user's or a group's deploy entry; the entry names
  // one grantee, as the program writes it (and as an import or forge-adopt must write it).
  hooks: { mapRecord: (record: WireRecord) => ({ deployAccessLevels: oneGranteeEach(record["deploy_access_levels"]) }) },
};

/** A protected environment is addressed by its name: what tells the one a stack made from one
 *  protected again under that name is its entries' ids, which the forge never gives twice. */
const ENTRY_IDS = ["deploy_access_levels[].id", "approval_rules[].id"];

function oneGranteeEach(entries: unknown): unknown {
  if (!Array.isArray(entries)) return entries;
  return entries.map((entry) => {
    const { accessLevel, ...rest } = fromWire(entry) as Record<string, unknown>;
    return rest["userId"] != null || rest["groupId"] != null ? rest : { ...rest, accessLevel };
  });
}

/** Who may deploy to an environment of a project, and who must approve first. Premium and Ultimate. */
export const projectProtectedEnvironment = defineResource({
  name: "ProjectProtectedEnvironment",
  summary: "Protects an environment of a project: who may deploy and who must approve.",
  inputs: z.object({
    /** The project: id or full path. */
    project: projectRef,
    /** The environment's name, free text as the project's environments are named (it need not exist yet). */
    name: nonBlank("environment's name"),
    /** Who may deploy: users or groups with access to the project, or a role; at least one entry. */
    deployAccessLevels: deployAccessLevelList(projectDeployAccessLevel),
    /** Who must approve a deployment before it runs. */
    approvalRules: approvalRuleList(projectApprovalRule),
  }),
  outputs: z.object({}),
  idParts: ["project", "name"],
  create: routes.projectProtectedEnvironments.create,
  read: routes.projectProtectedEnvironments.get,
  update: { route: routes.projectProtectedEnvironments.update, readBack: true },
  delete: routes.projectProtectedEnvironments.delete,
  identity: {
    fields: ["project", "name"],
    describe: (state) => `the protected environment ${show(state["name"])} of project ${show(state["project"])}`,
    evidence: ENTRY_IDS,
  },
  replaceOn: ["project", "name"],
  normalize: { project: normalizers.ref },
  resets: { approvalRules: [] },
  ...entryLists,
});

/** Who may deploy to every environment of a deployment tier in a group's projects. Premium and Ultimate. */
export const groupProtectedEnvironment = defineResource({
  name: "GroupProtectedEnvironment",
  summary: "Protects a deployment tier for all projects of a group.",
  inputs: z.object({
    /** The group: id or full path. */
    group: groupRef,
    /** The deployment tier: production, staging, testing, development or other. */
    name: deploymentTier,
    /** Who may deploy: Maintainers or above of the group, its subgroups, or a role. At least one entry. */
    deployAccessLevels: deployAccessLevelList(groupDeployAccessLevel),
    /** How many approvals a deployment needs (0: none). Set by an update right after the create, which does not take it. */
    requiredApprovalCount: z.number().int().min(0).optional(),
    /** Who must approve a deployment before it runs. */
    approvalRules: approvalRuleList(groupApprovalRule),
  }),
  outputs: z.object({}),
  idParts: ["group", "name"],
  // Only the group-level PUT takes required_approval_count.
  create: { route: routes.groupProtectedEnvironments.create, omit: ["requiredApprovalCount"] },
  read: routes.groupProtectedEnvironments.get,
  update: { route: routes.groupProtectedEnvironments.update, readBack: true },
  delete: routes.groupProtectedEnvironments.delete,
  identity: {
    fields: ["group", "name"],
    describe: (state) => `the protected tier ${show(state["name"])} of group ${show(state["group"])}`,
    evidence: ENTRY_IDS,
  },
  replaceOn: ["group", "name"],
  normalize: { group: normalizers.ref },
  resets: { approvalRules: [], requiredApprovalCount: 0 },
  ...entryLists,
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  projectProtectedEnvironment: protectedEnvironments("project", "listProjectProtectedEnvironments"),
  groupProtectedEnvironment: protectedEnvironments("group", "listGroupProtectedEnvironments"),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { projectProtectedEnvironment, groupProtectedEnvironment };
