/**
 * Instance clusters: the certificate-based connection of a cluster to the whole instance.
 * Deprecated by the forge (the policy pack says so at preview): new clusters should connect
 * with a cluster agent. Kept here for instances that still run one while they migrate.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();

/** The legacy cluster's API and the token the forge uses on it (a secret: `pulumi config set --secret clusterToken ...`). */
const clusterApiUrl = config.get("clusterApiUrl") ?? "https://k8s.legacy.example.com:6443";
const clusterToken = config.getSecret("clusterToken") ?? pulumi.secret("legacy-cluster-token");

export const legacyCluster = new forge.InstanceCluster("legacy", {
  name: "legacy",
  environmentScope: "production/*",
  platformVendorAttributes: { apiUrl: clusterApiUrl, token: clusterToken, namespace: "forge-deployments" },
});

export const legacyClusterId = legacyCluster.clusterId;
