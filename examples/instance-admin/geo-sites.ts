/**
 * Geo replication: the primary site and a secondary that replicates only the groups it serves
 * (administrator; Premium or Ultimate, self-managed). Capacities left out keep the forge's
 * defaults (10 / 25 / 100 / 10), and an internal URL left out is the site's URL: neither is a diff.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();

/** The group the secondary replicates (seed: acme, id 1). */
const replicatedGroupId = config.getNumber("geoReplicatedGroupId") ?? 1;

export const geoPrimary = new forge.GeoSite("geo-primary", {
  name: config.get("geoPrimaryName") ?? "forge-eu",
  url: config.get("geoPrimaryUrl") ?? "https://forge.example.com/",
  primary: true,
});

export const geoSecondary = new forge.GeoSite(
  "geo-secondary-us",
  {
    name: config.get("geoSecondaryName") ?? "forge-us",
    url: config.get("geoSecondaryUrl") ?? "https://us.forge.example.com/",
    // Reached over the private network by the primary.
    internalUrl: config.get("geoSecondaryInternalUrl") ?? "https://us.forge.internal.example.com/",
    reposMaxCapacity: 50,
    selectiveSyncType: "namespaces",
    selectiveSyncNamespaceIds: [replicatedGroupId],
  },
  // Sites are listed in creation order: the primary first.
  { dependsOn: [geoPrimary] },
);

export const geoSecondarySiteId = geoSecondary.siteId;
