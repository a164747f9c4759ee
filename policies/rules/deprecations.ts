/**
 * Resources of areas the forge has deprecated: they still work, but they are on their way out,
 * and a program that adds one today adds a migration for later.
 */
import { groupSettings } from "../../provider/resources/group-settings";
import { instanceCluster } from "../../provider/resources/instance-cluster";
import { resourcePolicy } from "../lib/define";

export const instanceClusterDeprecated = resourcePolicy({
  name: "instance-cluster-deprecated",
  description: "Certificate-based instance clusters are deprecated by the forge: connect clusters with cluster agents instead.",
  enforcementLevel: "advisory",
  resources: [instanceCluster],
  config: {},
  check({ subject, report }) {
    report(
      `${subject} is a certificate-based cluster, which the forge has deprecated and will remove. Connect the cluster with a cluster agent instead (ClusterAgent and ClusterAgentToken), then delete this resource.`,
    );
  },
});

/** Deprecated inputs of GroupSettings and what replaces each (Document 3, Document 1 "Versioning"). */
const DEPRECATED_GROUP_SETTINGS: Record<string, string> = {
  defaultBranchProtection: "defaultBranchProtectionDefaults (who may push and merge, and force pushes)",
  emailsDisabled: "emailsEnabled (its opposite)",
};

export const groupSettingsDeprecatedInputs = resourcePolicy({
  name: "group-settings-deprecated-inputs",
  description: "Group settings use the forge's current parameters, not the deprecated ones (default_branch_protection, emails_disabled, the disabled_with_override alias).",
  enforcementLevel: "advisory",
  resources: [groupSettings],
  config: {},
  check({ inputs, subject, report }) {
    for (const [input, replacement] of Object.entries(DEPRECATED_GROUP_SETTINGS)) {
      if (inputs[input] !== undefined) report(`${subject} sets ${input}, which the forge has deprecated. Use ${replacement} instead.`);
    }
    if (inputs["sharedRunnersSetting"] === "disabled_with_override") {
      report(`${subject} sets sharedRunnersSetting to "disabled_with_override", a deprecated alias. Write "disabled_and_overridable" instead.`);
    }
  },
});
