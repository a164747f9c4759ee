import { AVAILABILITY } from "../../../spec/editions";
import { created, gated, noContent, ok, paged, routesOf } from "../../core/routes";
import type { GeoSites } from "./model";

const route = routesOf<GeoSites>();
const SITE = "/geo_sites/:siteId";
const GEO = AVAILABILITY.geoSites;

/** Geo replication sites (administrators; Premium, self-managed): CRUD, repair, statuses. */
export const geoSiteRoutes = [
  gated(GEO, route("GET", "/geo_sites", (r, sites) => paged(sites.list(r.actor)))),
  gated(GEO, route("GET", "/geo_sites/status", (r, sites) => paged(sites.statuses(r.actor)))),
  gated(GEO, route("POST", "/geo_sites", (r, sites) => created(sites.create(r.actor, r.input)))),
  gated(GEO, route("GET", SITE, (r, sites) => ok(sites.get(r.actor, r.params.siteId)))),
  gated(GEO, route("PUT", SITE, (r, sites) => ok(sites.update(r.actor, r.params.siteId, r.input)))),
  gated(GEO, route("DELETE", SITE, (r, sites) => {
    sites.delete(r.actor, r.params.siteId);
    return noContent();
  })),
  gated(GEO, route("POST", `${SITE}/repair`, (r, sites) => ok(sites.repair(r.actor, r.params.siteId)))),
];
