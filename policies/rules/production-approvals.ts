/**
 * Nobody deploys to production alone: production environments and tiers have approvals (good
 * practice; a protected environment with approval rules makes deployers wait for the
 * approvers).
 */
import { DEPLOYMENT_TIERS } from "../../api";
import { groupProtectedEnvironment, projectProtectedEnvironment } from "../../provider/resources/protected-environment";
import { resourcePolicy } from "../lib/define";
import { isKnown, isUnknown, show } from "../lib/values";

/** True when the list holds at least one entry. */
function hasEntries(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

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

export const groupProtectedEnvironmentProductionApproval = resourcePolicy<{ tiers: string[] }>({
  name: "group-protected-environment-production-approval",
  description:
    "A group's production tier needs approvals (approval rules or requiredApprovalCount of 1 or more), so that nobody deploys to production alone.",
  enforcementLevel: "advisory",
  resources: [groupProtectedEnvironment],
  config: {
    tiers: {
      type: "array",
      items: { type: "string", enum: [...DEPLOYMENT_TIERS] },
      default: ["production"],
      description: "The deployment tiers that need approvals.",
    },
  },
  check({ inputs, subject, config, report }) {
    const name = inputs["name"];
    if (!isKnown(name) || typeof name !== "string" || !config.tiers.includes(name)) return;
    const rules = inputs["approvalRules"];
    const count = inputs["requiredApprovalCount"];
    if (isUnknown(rules) || isUnknown(count) || hasEntries(rules)) return;
    if (typeof count === "number" && count >= 1) return;
    report(
      `${subject} protects the ${name} tier without approvals, so whoever may deploy can ship to ${name} alone. ` +
        `Add approvalRules, such as [{ accessLevel: 40, requiredApprovals: 1 }], or set requiredApprovalCount to 1 or more.`,
    );
  },
});
