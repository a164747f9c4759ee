import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { GeoSites } from "./model";

const route = routesOf<GeoSites>();
const SITE = "/geo_sites/:siteId";

/** Geo replication sites (administrators; Premium, self-managed): CRUD, repair, statuses. */
export const geoSiteRoutes = [
  route("GET", "/geo_sites", (r, sites) => paged(sites.list(r.actor))),
  route("GET", "/geo_sites/status", (r, sites) => paged(sites.statuses(r.actor))),
  route("POST", "/geo_sites", (r, sites) => created(sites.create(r.actor, r.input))),
  route("GET", SITE, (r, sites) => ok(sites.get(r.actor, r.params.siteId))),
  route("PUT", SITE, (r, sites) => ok(sites.update(r.actor, r.params.siteId, r.input))),
  route("DELETE", SITE, (r, sites) => {
    sites.delete(r.actor, r.params.siteId);
    return noContent();
  }),
  route("POST", `${SITE}/repair`, (r, sites) => ok(sites.repair(r.actor, r.params.siteId))),
];
