// Inputs the schemas refuse, one case per preview (stack config "case"): the engine stops a
// preview at the first resource its check refuses, so each case is a program of its own. The
// provider's check and forge-input-schema both report the schema's message.
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const PEM_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n";
const PEM_CERT = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n";

const cases: Record<string, () => void> = {
  // A label colour the forge refuses.
  "label-colour": () => new forge.GroupLabel("bug", { group: "acme", name: "bug", color: "reddish" }),
  // A URL configuration with its certificate and key swapped, for an agent whose id is unknown at preview.
  "swapped-certificate": () => {
    const core = new forge.ClusterAgent("core", { project: "acme/api", name: "core" });
    new forge.ClusterAgentUrlConfiguration("core-url", { project: "acme/api", agentId: core.agentId, url: "grpcs://core.example.com:443", clientCert: PEM_KEY, clientKey: PEM_CERT });
  },
  // A group-level deploy access level with groupInheritanceType, which only project-level entries take.
  "group-inheritance": () =>
    new forge.GroupProtectedEnvironment("acme-production", {
      group: "acme",
      name: "production",
      deployAccessLevels: [{ groupId: 2, groupInheritanceType: 1 } as { groupId: number }],
      requiredApprovalCount: 1,
    }),
};

const chosen = new pulumi.Config().require("case");
if (!cases[chosen]) throw new Error(`unknown case ${chosen}: one of ${Object.keys(cases).join(", ")}`);
cases[chosen]!();
