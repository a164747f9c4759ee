import { defineResource } from "../../core/resource";
import { type ClusterRecord, InstanceClusters } from "./model";
import { instanceClusterRoutes } from "./routes";

/** Instance-level clusters (certificate-based, deprecated). */
export const instanceClusters = defineResource({
  name: "instanceClusters",
  collections: { instanceClusters: [] as ClusterRecord[] },
  model: (core, collections) => new InstanceClusters(core, collections.instanceClusters),
  routes: instanceClusterRoutes,
});
