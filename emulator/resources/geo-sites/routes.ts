import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { GeoSites } from "./model";

const route = routesOf<GeoSites>();

/** Geo replication sites (administrators; Premium, self-managed): CRUD, repair, statuses. */
export const geoSiteRoutes = [
  route(routes.geoSites.list, (r, sites) => paged(sites.list(r.actor))),
  route(routes.geoSites.statuses, (r, sites) => paged(sites.statuses(r.actor))),
  route(routes.geoSites.create, (r, sites) => created(sites.create(r.actor, r.input))),
  route(routes.geoSites.get, (r, sites) => ok(sites.get(r.actor, r.params.siteId))),
  route(routes.geoSites.update, (r, sites) => ok(sites.update(r.actor, r.params.siteId, r.input))),
  route(routes.geoSites.delete, (r, sites) => {
    sites.delete(r.actor, r.params.siteId);
    return noContent();
  }),
  route(routes.geoSites.repair, (r, sites) => ok(sites.repair(r.actor, r.params.siteId))),
];
