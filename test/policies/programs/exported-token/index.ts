// Exports an agent token twice: as a secret (the way the resource gives it) and unwrapped into plain
// text. Stack policies receive both the same way, unwrapped: that is what this program shows.
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const agent = new forge.ClusterAgent("edge", { project: "acme/web", name: "edge" });
const token = new forge.ClusterAgentToken("edge-ci", {
  project: "acme/web",
  agentId: agent.agentId,
  name: "ci",
  description: "CI deployer for acme/web",
});

export const secretToken = token.token;
export const plainToken = pulumi.unsecret(token.token);
export const tokenId = token.tokenId;
