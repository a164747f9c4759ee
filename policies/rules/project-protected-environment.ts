/**
 * ProjectProtectedEnvironment: the entry rules of POST/PUT /projects/:id/protected_environments
 * (spec document 2, "Protected environments", rule 2), and approvals for production.
 */
import { projectProtectedEnvironment } from "../../provider/resources/protected-environment";
import { resourcePolicy, resourceRules } from "../lib/define";
import { checkEntries, coveredPaths, hasEntries } from "../lib/protected-environment";
import { isKnown, isUnknown, show } from "../lib/values";

export const projectProtectedEnvironmentRules = resourcePolicy({
  name: "project-protected-environment-rules",
  description:
    "Each deploy access level and approval rule of a project's protected environment names exactly one of userId, groupId or accessLevel, with accessLevel 30, 40 or 60 and groupInheritanceType 0 or 1.",
  enforcementLevel: "mandatory",
  resources: [projectProtectedEnvironment],
  check({ inputs, subject, report }) {
    checkEntries(inputs, { field: "deployAccessLevels", required: true, inheritance: true }, subject, report);
    checkEntries(inputs, { field: "approvalRules", required: false, inheritance: true }, subject, report);
  },
});

export const projectProtectedEnvironmentProductionApproval = resourcePolicy<{ namePattern: string }>({
  name: "project-protected-environment-production-approval",
  description: "A production environment of a project needs approval rules, so that nobody deploys to production alone.",
  enforcementLevel: "advisory",
  resources: [projectProtectedEnvironment],
  config: {
    namePattern: {
      type: "string",
      default: "^prod(uction)?$",
      description: "Regular expression (case-insensitive) for the names of production environments.",
    },
  },
  check({ inputs, subject, config, report }) {
    const name = inputs["name"];
    if (!isKnown(name) || typeof name !== "string") return;
    if (!productionName(config.namePattern).test(name)) return;
    const rules = inputs["approvalRules"];
    if (isUnknown(rules) || hasEntries(rules)) return;
    report(
      `${subject} protects the production environment ${show(name)} without approval rules, so whoever may deploy can ship to production alone. ` +
        `Add approvalRules, such as [{ accessLevel: 40, requiredApprovals: 1 }].`,
    );
  },
});

function productionName(source: string): RegExp {
  try {
    return new RegExp(source, "i");
  } catch (error) {
    throw new Error(`policy config namePattern: ${JSON.stringify(source)} is not a valid regular expression (${(error as Error).message})`);
  }
}

export const rules = resourceRules(projectProtectedEnvironment, {
  covers: [...coveredPaths("deployAccessLevels"), ...coveredPaths("approvalRules")],
  policies: [projectProtectedEnvironmentRules, projectProtectedEnvironmentProductionApproval],
});
