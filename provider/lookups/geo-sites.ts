import { z } from "zod";
import { defineLookup } from "./lookup";

export const geoSiteLookups = [
  defineLookup({
    name: "listGeoSites",
    summary: "Every Geo replication site (administrator; Premium, self-managed).",
    route: "GET /geo_sites",
    args: z.object({}),
    many: true,
  }),
  defineLookup({
    name: "listGeoSiteStatuses",
    summary: "The replication status of every Geo site: `geoNodeId`, `projectsCount` and per replicable kind counters such as `projectRepositoriesSyncedCount` (administrator).",
    route: "GET /geo_sites/status",
    args: z.object({}),
    many: true,
  }),
] as const;
