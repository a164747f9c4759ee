import { z } from "zod";
import { serverId } from "../resources/common";
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
  defineLookup({
    name: "repairGeoSite",
    summary:
      "Action: repairs the OAuth authentication between the sites when the forge reports a missing OAuth application for a site; returns the site. It runs at each call: call it from a script, or guard it with `pulumi.runtime.isDryRun()` in a program.",
    route: "POST /geo_sites/:siteId/repair",
    args: z.object({
      /** The site's id (`GeoSite.siteId`). */
      siteId: serverId,
    }),
    many: false,
  }),
] as const;
