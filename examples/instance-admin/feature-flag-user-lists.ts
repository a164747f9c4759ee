/**
 * Feature flag user lists: the users of an application that its feature flags roll out to
 * first. A list belongs to a project (Developer role); the ids are the application's own.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();

/** The project whose feature flags use the list (seed: acme/web). */
const project = config.get("featureFlagProject") ?? "acme/web";

/** Early adopters of the web application; order does not matter, and is no diff. */
export const betaTesters = new forge.FeatureFlagUserList("beta-testers", {
  project,
  name: "beta-testers",
  userXids: ["customer-1042", "customer-2210", "customer-0007"],
});
