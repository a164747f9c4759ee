import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { InstanceClusters } from "./model";

const route = routesOf<InstanceClusters>();

/** Instance clusters: administrators, self-managed. Created through the add-existing path. */
export const instanceClusterRoutes = [
  route(routes.instanceClusters.list, (r, clusters) => paged(clusters.list(r.actor))),
  route(routes.instanceClusters.add, (r, clusters) => created(clusters.add(r.actor, r.input))),
  route(routes.instanceClusters.get, (r, clusters) => ok(clusters.get(r.actor, r.params.clusterId))),
  route(routes.instanceClusters.update, (r, clusters) => ok(clusters.update(r.actor, r.params.clusterId, r.input))),
  route(routes.instanceClusters.delete, (r, clusters) => {
    clusters.delete(r.actor, r.params.clusterId);
    return noContent();
  }),
];
