/**
 * Integrated error tracking for a project, with the client key its SDKs send events with. The
 * key rotates when `errorTrackingKeyRotation` changes (the new key exists before the old one
 * goes); the DSN is a secret output.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();
/** The project whose errors are collected (seed: acme/web). */
const errorTrackingProject = config.get("errorTrackingProject") ?? "acme/web";
/** Change it (say each quarter) to rotate the client key. */
const keyRotation = config.get("errorTrackingKeyRotation") ?? "2026-Q4";

const errorTracking = new forge.ErrorTrackingSettings("web-error-tracking", {
  project: errorTrackingProject,
  active: true,
  integrated: true,
});

const sdkKey = new forge.ErrorTrackingClientKey(
  "web-sdk-key",
  { project: errorTrackingProject, rotateOn: { rotation: keyRotation } },
  // Keys work without the settings, but events are only kept while error tracking is on.
  { dependsOn: [errorTracking] },
);

/** What SDKs are configured with (secret). */
export const webErrorTrackingDsn = sdkKey.dsn;
