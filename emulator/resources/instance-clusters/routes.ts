import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { InstanceClusters } from "./model";

const route = routesOf<InstanceClusters>();
const CLUSTERS = "/admin/clusters";
const CLUSTER = "/admin/clusters/:clusterId";

/** Instance clusters: administrators, self-managed. Created through the add-existing path. */
export const instanceClusterRoutes = [
  route("GET", CLUSTERS, (r, clusters) => paged(clusters.list(r.actor))),
  route("POST", `${CLUSTERS}/add`, (r, clusters) => created(clusters.add(r.actor, r.input))),
  route("GET", CLUSTER, (r, clusters) => ok(clusters.get(r.actor, r.params.clusterId))),
  route("PUT", CLUSTER, (r, clusters) => ok(clusters.update(r.actor, r.params.clusterId, r.input))),
  route("DELETE", CLUSTER, (r, clusters) => {
    clusters.delete(r.actor, r.params.clusterId);
    return noContent();
  }),
];
