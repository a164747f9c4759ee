/**
 * BroadcastMessage: the body rules of POST/PUT /broadcast_messages (spec document 2,
 * "Broadcast messages"; document 1, "Broadcast message"), and the spec's warning that broadcast
 * messages are readable by anyone and must not carry confidential content.
 */
import { BROADCAST_TARGET_LEVELS, BROADCAST_THEMES } from "../../spec";
import { broadcastMessage } from "../../provider/resources/broadcast-message";
import { findConfidential, type ConfidentialOptions } from "../lib/confidential";
import { resourcePolicy, resourceRules } from "../lib/define";
import { isKnown, isUnknown, orList, show } from "../lib/values";

export const broadcastMessageLimits = resourcePolicy({
  name: "broadcast-message-limits",
  description: "A broadcast message targets valid access levels, uses a theme only on banners and ends after it starts.",
  enforcementLevel: "mandatory",
  resources: [broadcastMessage],
  check({ inputs, subject, report }) {
    const levels = inputs["targetAccessLevels"];
    if (Array.isArray(levels)) {
      const wrong = levels.filter((level) => !isUnknown(level) && !(BROADCAST_TARGET_LEVELS as readonly unknown[]).includes(level));
      if (wrong.length > 0) {
        report(
          `${subject} targets access level${wrong.length > 1 ? "s" : ""} ${orList(wrong.map(show))}, which the forge does not accept. ` +
            `Use only ${orList(BROADCAST_TARGET_LEVELS)} (10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner).`,
        );
      }
    } else if (isKnown(levels)) {
      report(`${subject} has targetAccessLevels ${show(levels)}, which is not a list. Give a list of access levels such as [30, 40].`);
    }

    const theme = inputs["theme"];
    if (isKnown(theme)) {
      if (!(BROADCAST_THEMES as readonly unknown[]).includes(theme)) {
        report(`${subject} has theme ${show(theme)}, which the forge does not know. Use one of ${orList(BROADCAST_THEMES)}.`);
      }
      if (inputs["broadcastType"] === "notification") {
        report(`${subject} is a notification with a theme; themes apply to banners only. Remove theme, or set broadcastType to "banner".`);
      }
    }

    const startsAt = instant(inputs["startsAt"]);
    const endsAt = instant(inputs["endsAt"]);
    for (const [field, parsed] of [["startsAt", startsAt], ["endsAt", endsAt]] as const) {
      if (Number.isNaN(parsed)) {
        report(`${subject} has ${field} ${show(inputs[field])}, which is not a datetime. Write it in ISO 8601, UTC, such as "2026-12-01T10:00:00Z".`);
      }
    }
    if (startsAt !== undefined && endsAt !== undefined && !Number.isNaN(startsAt) && !Number.isNaN(endsAt) && endsAt <= startsAt) {
      report(
        `${subject} ends (endsAt ${show(inputs["endsAt"])}) ${endsAt === startsAt ? "when" : "before"} it starts (startsAt ${show(inputs["startsAt"])}), so it would never show. ` +
          `Set endsAt after startsAt.`,
      );
    }
  },
});

/** The instant of a known datetime input; NaN when it does not parse, undefined when absent or unknown. */
function instant(value: unknown): number | undefined {
  if (!isKnown(value)) return undefined;
  return typeof value === "string" ? Date.parse(value) : Number.NaN;
}

type ConfidentialConfig = ConfidentialOptions;

export const broadcastMessageNoConfidentialContent = resourcePolicy<ConfidentialConfig>({
  name: "broadcast-message-no-confidential-content",
  description: "A broadcast message carries no confidential content: anyone can read it, signed in or not, whatever its targeting.",
  enforcementLevel: "advisory",
  resources: [broadcastMessage],
  config: {
    extraPatterns: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "More regular expressions (case-insensitive) for confidential text, e.g. internal ticket ids or project code names.",
    },
    allowPatterns: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "Regular expressions (case-insensitive) for text known to be public; it is never reported.",
    },
    internalDomains: {
      type: "array",
      items: { type: "string" },
      default: ["internal", "local", "corp"],
      description: "Host name suffixes that only resolve inside the organisation.",
    },
    minTokenLength: {
      type: "integer",
      minimum: 8,
      default: 24,
      description: "Shortest run of letters and digits that is judged as a possible token by its randomness.",
    },
    minTokenEntropy: {
      type: "number",
      minimum: 0,
      default: 4,
      description: "Shannon entropy (bits per character) from which such a run looks like a token.",
    },
  },
  check({ inputs, subject, config, report }) {
    const message = inputs["message"];
    if (!isKnown(message) || typeof message !== "string") return;
    for (const finding of findConfidential(message, config)) {
      const fix =
        finding.kind === "internal-address"
          ? "Remove it, or name a public address instead."
          : finding.kind === "pattern"
            ? "Remove it from the message."
            : "Remove it from the message, and rotate the credential if it was a real one.";
      report(`${subject} carries ${finding.description} in its message, and anyone can read broadcast messages. ${fix}`);
    }
  },
});

export const rules = resourceRules(broadcastMessage, {
  covers: ["targetAccessLevels", "targetAccessLevels[]", "theme", "startsAt", "endsAt"],
  policies: [broadcastMessageLimits, broadcastMessageNoConfidentialContent],
});
