/**
 * GroupProtectedEnvironment: the rules of POST/PUT /groups/:id/protected_environments (spec
 * document 2, "Protected environments", rules 1 and 2), and approvals for the production tier.
 */
import { DEPLOYMENT_TIERS } from "../../spec";
import { groupProtectedEnvironment } from "../../provider/resources/protected-environment";
import { resourcePolicy, resourceRules } from "../lib/define";
import { checkEntries, coveredPaths, hasEntries } from "../lib/protected-environment";
import { isKnown, isUnknown, orList, show } from "../lib/values";

export const groupProtectedEnvironmentRules = resourcePolicy({
  name: "group-protected-environment-rules",
  description:
    "A group's protected environment names a deployment tier, and each deploy access level and approval rule names exactly one of userId, groupId or accessLevel, with accessLevel 30, 40 or 60.",
  enforcementLevel: "mandatory",
  resources: [groupProtectedEnvironment],
  check({ inputs, subject, report }) {
    const name = inputs["name"];
    if (isKnown(name) && !(DEPLOYMENT_TIERS as readonly unknown[]).includes(name)) {
      const tier = typeof name === "string" && name.length >= 3 ? DEPLOYMENT_TIERS.find((candidate) => candidate.startsWith(name.toLowerCase().slice(0, 3))) : undefined;
      report(
        `${subject} protects ${show(name)}, which is not a deployment tier; at group level the name is one of ${orList(DEPLOYMENT_TIERS)}. ` +
          (tier ? `Did you mean "${tier}"?` : "Use one of them, or protect the environment per project with ProjectProtectedEnvironment."),
      );
    }
    checkEntries(inputs, { field: "deployAccessLevels", required: true, inheritance: false }, subject, report);
    checkEntries(inputs, { field: "approvalRules", required: false, inheritance: true }, subject, report);
  },
});

export const groupProtectedEnvironmentProductionApproval = resourcePolicy<{ tiers: string[] }>({
  name: "group-protected-environment-production-approval",
  description: "A group's production tier needs approvals (approval rules or requiredApprovalCount of 1 or more), so that nobody deploys to production alone.",
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

export const rules = resourceRules(groupProtectedEnvironment, {
  covers: ["name", ...coveredPaths("deployAccessLevels"), ...coveredPaths("approvalRules")],
  policies: [groupProtectedEnvironmentRules, groupProtectedEnvironmentProductionApproval],
});
