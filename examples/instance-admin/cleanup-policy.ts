/**
 * Virtual registries: cache entries nobody has downloaded for a quarter are cleaned up every week,
 * and the group's owners hear about failed runs (Premium; one policy per top-level group).
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();
/** The top-level group whose virtual registries are cleaned up (seed: acme). */
const registryGroup = config.get("registryGroup") ?? "acme";

const cleanupPolicy = new forge.VirtualRegistryCleanupPolicy("registry-cleanup", {
  group: registryGroup,
  cadence: 7,
  keepNDaysAfterDownload: 90,
  enabled: true,
  notifyOnFailure: true,
});

/** When the next cleanup runs. */
export const nextRegistryCleanupAt = cleanupPolicy.nextRunAt;
