/**
 * Credentials that outlive a declared maximum age: a rotating resource without a schedule (or a
 * longer one), and a token whose current value is older than the age. The age is measured on the
 * runner's clock (a policy has no forge to ask); the resources' own schedule is the forge's.
 */
import { clusterAgentToken, rotatingClusterAgentToken } from "../../provider/resources/cluster-agent-token";
import { rotatingErrorTrackingClientKey } from "../../provider/resources/error-tracking-client-key";
import { durationMs } from "../../provider/engine/rotation";
import { stackPolicy } from "../lib/define";
import { isKnown, show } from "../lib/values";

const DAY = 86_400_000;

export const credentialMaxAge = stackPolicy<{ maxAge: string }>({
  name: "credential-max-age",
  description:
    "A token or client key is rotated within a maximum age (90 days by default): a rotating resource has a rotateAfter no longer than it, and no current credential is older.",
  enforcementLevel: "advisory",
  resources: [rotatingClusterAgentToken, rotatingErrorTrackingClientKey, clusterAgentToken],
  config: {
    maxAge: {
      type: "string",
      default: "90d",
      description: "The oldest a credential may grow, as a duration in days, hours, minutes and seconds (`90d`, `720h`).",
    },
  },
  check({ resources, config, report }) {
    const maxMs = durationMs(config.maxAge);
    if (maxMs === undefined) {
      report(
        `credential-max-age: maxAge ${show(config.maxAge)} is not a duration. Write days, hours, minutes and seconds, such as "90d" or "720h".`,
      );
      return;
    }
    for (const { props, subject, declaration, resource } of resources) {
      const rotating = declaration.rotation !== undefined;
      const after = props["rotateAfter"];
      // Unknown at preview (computed from another resource): not judged.
      if (rotating && (after === undefined || isKnown(after))) {
        if (typeof after !== "string") {
          report(
            `${subject} has no rotateAfter: only a change of keepers rotates it, so its current credential can grow older than ${config.maxAge}. Set rotateAfter to ${config.maxAge} or less.`,
            resource.urn,
          );
        } else if ((durationMs(after) ?? 0) > maxMs) {
          report(
            `${subject} rotates after ${after}, longer than the maximum age of ${config.maxAge}. Set rotateAfter to ${config.maxAge} or less.`,
            resource.urn,
          );
        }
      }
      const holder = rotating ? props["current"] : props;
      const createdAt = typeof holder === "object" && holder !== null ? (holder as Record<string, unknown>)["createdAt"] : undefined;
      if (typeof createdAt !== "string" || !Number.isFinite(Date.parse(createdAt))) continue;
      const ageDays = Math.floor((Date.now() - Date.parse(createdAt)) / DAY);
      if (Date.now() - Date.parse(createdAt) <= maxMs) continue;
      report(
        `${subject}'s ${rotating ? "current credential" : "token"} was made ${createdAt} (${ageDays} days ago by this machine's clock), older than the maximum age of ${config.maxAge}. ` +
          (rotating
            ? "Run `pulumi up` to rotate it (a rotation is due), or change keepers."
            : "Replace it, or declare the agent's tokens as a RotatingClusterAgentToken with rotateAfter."),
        resource.urn,
      );
    }
  },
});
