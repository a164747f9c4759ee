/**
 * Secrets stay out of what others can read: broadcast messages, which anyone can read signed in
 * or not, whatever their targeting (`GET /broadcast_messages` takes no token), public snippets
 * (listed and read without a token, the API's rule on reads without a token), and stack outputs,
 * where an agent token (shown by the forge only once) would be kept in plain text.
 */
import { broadcastMessage } from "../../provider/resources/broadcast-message";
import { clusterAgentToken } from "../../provider/resources/cluster-agent-token";
import { snippet } from "../../provider/resources/snippet";
import { findConfidential, type ConfidentialOptions } from "../lib/confidential";
import { resourcePolicy, stackPolicy, type ConfigSpec } from "../lib/define";
import { isKnown, plain, show } from "../lib/values";

/** The detector's settings, shared by every policy that looks for confidential text. */
export const CONFIDENTIAL_CONFIG = {
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
} satisfies ConfigSpec;

export const broadcastMessageNoConfidentialContent = resourcePolicy<ConfidentialOptions>({
  name: "broadcast-message-no-confidential-content",
  description: "A broadcast message carries no confidential content: anyone can read it, signed in or not, whatever its targeting.",
  enforcementLevel: "advisory",
  resources: [broadcastMessage],
  config: CONFIDENTIAL_CONFIG,
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

/** Snippet visibilities whose content others read; `public` by default (anyone, no token). */
interface SnippetConfidentialOptions extends ConfidentialOptions {
  visibilities: string[];
}

export const snippetNoConfidentialContent = resourcePolicy<SnippetConfidentialOptions>({
  name: "snippet-no-confidential-content",
  description:
    "A public snippet carries no confidential content (title, description, file paths and contents): anyone can list and read it without signing in.",
  enforcementLevel: "advisory",
  resources: [snippet],
  config: {
    ...CONFIDENTIAL_CONFIG,
    visibilities: {
      type: "array",
      items: { type: "string", enum: ["public", "internal", "private"] },
      default: ["public"],
      description: "The visibilities whose snippets are checked (add `internal` to also check what every signed-in user reads).",
    },
  },
  check({ inputs, subject, config, report }) {
    const visibility = inputs["visibility"];
    // A snippet without a visibility is private on the forge.
    if (!isKnown(visibility) || !config.visibilities.includes(typeof visibility === "string" ? visibility : "private")) return;
    const texts: [string, unknown][] = [
      ["its title", inputs["title"]],
      ["its description", inputs["description"]],
    ];
    const files = inputs["files"];
    if (isKnown(files) && Array.isArray(files)) {
      for (const file of files as Record<string, unknown>[]) {
        const path = isKnown(file?.["filePath"]) && typeof file["filePath"] === "string" ? file["filePath"] : "a file";
        texts.push([`the path ${show(path)}`, file?.["filePath"]], [`file ${show(path)}`, file?.["content"]]);
      }
    }
    for (const [where, text] of texts) {
      if (!isKnown(text) || typeof text !== "string") continue;
      for (const finding of findConfidential(text, config)) {
        const fix =
          finding.kind === "internal-address" || finding.kind === "pattern"
            ? "Remove it"
            : "Remove it, and rotate the credential if it was a real one";
        report(
          `${subject} is ${String(visibility)} and carries ${finding.description} in ${where}, and anyone can read a ${String(visibility)} snippet. ${fix}, or make the snippet private.`,
        );
      }
    }
  },
});

const STACK_TYPE = "pulumi:pulumi:Stack";

export const clusterAgentTokenNotInStackOutputs = stackPolicy<{ allowedOutputs: string[] }>({
  name: "cluster-agent-token-not-in-stack-outputs",
  description:
    "An agent token's secret value stays out of the stack outputs; policies cannot see whether an output is secret, so any output holding it is reported.",
  enforcementLevel: "advisory",
  resources: [clusterAgentToken],
  config: {
    allowedOutputs: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "Stack outputs checked by hand to be exported as secrets (pulumi.secret); they are not reported.",
    },
  },
  check({ resources, all, config, report }) {
    // The root stack resource's props are the stack outputs.
    const outputs = all.filter((resource) => resource.type === STACK_TYPE).flatMap((stack) => Object.entries(plain(stack.props)));
    if (outputs.length === 0) return;
    for (const token of resources) {
      const value = token.props["token"];
      if (!isKnown(value) || typeof value !== "string" || value.length < 8) continue;
      for (const [name, output] of outputs) {
        if (config.allowedOutputs.includes(name) || !contains(output, value)) continue;
        report(
          `Stack output ${show(name)} holds the secret token of ${token.subject}. Policies see secrets unwrapped, so this one cannot tell whether it is exported as a secret: ` +
            `keep the token out of stack outputs, or export it wrapped in pulumi.secret() and add ${show(name)} to this policy's allowedOutputs.`,
          token.resource.urn,
        );
      }
    }
  },
});

/** True when the value, or any string inside it, contains the secret. */
function contains(value: unknown, secret: string): boolean {
  if (typeof value === "string") return value.includes(secret);
  if (Array.isArray(value)) return value.some((inner) => contains(inner, secret));
  if (typeof value === "object" && value !== null) return Object.values(value).some((inner) => contains(inner, secret));
  return false;
}
