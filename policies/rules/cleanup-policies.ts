/**
 * One virtual registry cleanup policy per group (spec document 1, "Limits"): two in one program
 * for the same group would fail at the second create, after the first one is made.
 */
import { virtualRegistryCleanupPolicy } from "../../provider/resources/virtual-registry-cleanup-policy";
import type { StackResource } from "../lib/define";
import { stackPolicy } from "../lib/define";
import { isKnown, refKey, show } from "../lib/values";

export const virtualRegistryCleanupPolicyOnePerGroup = stackPolicy({
  name: "virtual-registry-cleanup-policy-one-per-group",
  description: "A top-level group has at most one virtual registry cleanup policy.",
  enforcementLevel: "mandatory",
  resources: [virtualRegistryCleanupPolicy],
  check({ resources, report }) {
    const byGroup = new Map<string, StackResource[]>();
    // Ordered by name: the engine hands resources over in no fixed order, messages must not vary.
    const ordered = [...resources].sort((a, b) => a.resource.name.localeCompare(b.resource.name) || a.resource.urn.localeCompare(b.resource.urn));
    for (const member of ordered) {
      const group = member.props["group"];
      // A group not known yet (at preview) is not judged.
      if (!isKnown(group)) continue;
      const key = refKey(group);
      byGroup.set(key, [...(byGroup.get(key) ?? []), member]);
    }
    for (const [first, ...extra] of byGroup.values()) {
      for (const member of extra) {
        report(
          `${member.subject} is a second cleanup policy of group ${show(member.props["group"])}, which ${first!.subject} already has; a group can have only one. ` +
            `Keep one of them and put every setting in it.`,
          member.resource.urn,
        );
      }
    }
  },
});
