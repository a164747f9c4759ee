import { defineResource } from "../../core/resource";
import { GeoSites, type GeoSiteRecord } from "./model";
import { geoSiteRoutes } from "./routes";

/** Geo replication sites of the (self-managed) instance. */
export const geoSites = defineResource({
  name: "geoSites",
  collections: { geoSites: [] as GeoSiteRecord[] },
  model: (core, collections) => new GeoSites(core, collections.geoSites),
  routes: geoSiteRoutes,
});
