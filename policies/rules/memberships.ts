/**
 * Access that does not end by itself: a project membership at a high role without an expiry
 * stays until someone remembers to remove it.
 */
import { PROJECT_MEMBER_ACCESS_LEVELS, roleName } from "../../api";
import { projectMember } from "../../provider/resources/project-member";
import { resourcePolicy } from "../lib/define";
import { isKnown } from "../lib/values";

export const projectMemberExpiry = resourcePolicy<{ minAccessLevel: number }>({
  name: "project-member-expiry",
  description:
    "A project membership at or above a role (Maintainer by default) has an expiry date, so that high access ends unless renewed.",
  enforcementLevel: "advisory",
  resources: [projectMember],
  config: {
    minAccessLevel: {
      type: "integer",
      enum: [...PROJECT_MEMBER_ACCESS_LEVELS],
      default: 40,
      description:
        "The lowest access level that needs an expiry (10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner).",
    },
  },
  check({ inputs, subject, config, report }) {
    const level = inputs["accessLevel"];
    if (!isKnown(level) || typeof level !== "number" || level < config.minAccessLevel) return;
    // Set, or unknown at preview: not judged.
    if (inputs["expiresAt"] !== undefined) return;
    report(
      `${subject} gives ${roleName(level)} (${level}) with no expiry, and this policy asks for one from ${roleName(config.minAccessLevel)} (${config.minAccessLevel}) up. ` +
        `Set expiresAt (YYYY-MM-DD) and renew it when the access is still needed, or give a lower role.`,
    );
  },
});
