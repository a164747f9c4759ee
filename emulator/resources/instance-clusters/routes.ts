import { AVAILABILITY } from "../../../spec/editions";
import { created, gated, noContent, ok, paged, routesOf } from "../../core/routes";
import type { InstanceClusters } from "./model";

const route = routesOf<InstanceClusters>();
const CLUSTERS = "/admin/clusters";
const CLUSTER = "/admin/clusters/:clusterId";
const AREA = AVAILABILITY.instanceClusters;

/** Instance clusters: administrators, self-managed. Created through the add-existing path. */
export const instanceClusterRoutes = [
  gated(AREA, route("GET", CLUSTERS, (r, clusters) => paged(clusters.list(r.actor)))),
  gated(AREA, route("POST", `${CLUSTERS}/add`, (r, clusters) => created(clusters.add(r.actor, r.input)))),
  gated(AREA, route("GET", CLUSTER, (r, clusters) => ok(clusters.get(r.actor, r.params.clusterId)))),
  gated(AREA, route("PUT", CLUSTER, (r, clusters) => ok(clusters.update(r.actor, r.params.clusterId, r.input)))),
  gated(AREA, route("DELETE", CLUSTER, (r, clusters) => {
    clusters.delete(r.actor, r.params.clusterId);
    return noContent();
  })),
];
