import { z } from "zod";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const geoSiteLookups = [
  defineLookup({
    name: "listGeoSites",
    summary: "Every Geo replication site (administrator; Premium, self-managed).",
    route: routes.geoSites.list,
    args: z.object({}),
    many: true,
  }),
  defineLookup({
    name: "listGeoSiteStatuses",
    summary:
      "The replication status of every Geo site: `geoNodeId`, `projectsCount` and per replicable kind counters such as `projectRepositoriesSyncedCount` (administrator).",
    route: routes.geoSites.statuses,
    args: z.object({}),
    many: true,
  }),
] as const;
