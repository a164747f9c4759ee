/**
 * Instance feature gates: which features of the forge are on, for whom. One resource per
 * feature; the names are the forge's definitions (`listFeatureDefinitions`).
 */
import * as forge from "pulumi-forge";

/** The new search index, on for everyone. */
export const searchIndex = new forge.Feature("search-index-v2", { name: "search_index_v2", enabled: true });

/** The merge request dashboard, tried by the platform team and the beta testers first. */
export const mergeRequestDashboard = new forge.Feature("merge-request-dashboard", {
  name: "merge_request_dashboard",
  groups: ["acme/platform"],
  users: ["olivia"],
  featureGroups: ["beta_testers"],
});

/** Faster pipeline starts, rolled out to a quarter of the projects. */
export const fastPipelineStart = new forge.Feature("ci-pipeline-fast-start", { name: "ci_pipeline_fast_start", percentageOfActors: 25 });
