import { z } from "zod";
import { GEO_CAPACITY_DEFAULTS, GEO_PRIMARY_SITES_MAX } from "../../api";
import { defineResource } from "../engine/declaration";
import { crossFieldRule, nonBlank, serverId, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** The forge's reverification interval when none is given, in days. */
const DEFAULT_REVERIFICATION_DAYS = 90;

const siteUrl = z.string().check(
  valueRule({
    format: "url",
    rule: "an http(s) URL",
    holds: (value) => {
      try {
        return ["http:", "https:"].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    message: (value) => `${show(value)} is not an http(s) URL. Write it in full, such as "https://geo.example.com/".`,
  }),
);

/** The forge stores URLs with a trailing slash: with or without one is the same site. */
const withSlash = (value: unknown) => (typeof value === "string" && value !== "" && !value.endsWith("/") ? `${value}/` : value);

const capacity = (what: string) =>
  z
    .number()
    .int()
    .min(0, { error: `A ${what} capacity cannot be negative.` })
    .optional();

/**
 * A Geo replication site of a self-managed installation (administrator; Premium and Ultimate):
 * the primary that others replicate from, or a secondary, with what and how much it syncs.
 */
export const geoSite = defineResource({
  name: "GeoSite",
  summary: "A Geo replication site (primary or secondary) of a self-managed installation.",
  inputs: z
    .object({
      /** The site's unique name (case-insensitive): the node name configured on it, or else its external URL. */
      name: nonBlank("site's name", 255),
      /** The user-facing URL. With or without a trailing slash: the forge adds one. */
      url: siteUrl,
      /** The URL secondaries use to reach the primary. The forge shows `url` when it is unset: that is no diff; dropping it goes back to `url`. */
      internalUrl: siteUrl.optional(),
      /** Whether this is the primary site (one per installation). Set at creation only: a change replaces the site. */
      primary: z.boolean().optional(),
      /** Whether the site replicates (default true). */
      enabled: z.boolean().optional(),
      /** Concurrency of file backfill on a secondary (default 10). */
      filesMaxCapacity: capacity("files"),
      /** Concurrency of repository backfill (default 25). */
      reposMaxCapacity: capacity("repositories"),
      /** Concurrency of verification (default 100). */
      verificationMaxCapacity: capacity("verification"),
      /** Concurrency of container repository backfill (default 10). */
      containerRepositoriesMaxCapacity: capacity("container repositories"),
      /** Whether a secondary also replicates content in object storage (default false). Set at creation only: a change replaces the site. */
      syncObjectStorage: z.boolean().optional(),
      /** Selective sync: `shards` (the storages in `selectiveSyncShards`) or `namespaces` (the groups in `selectiveSyncNamespaceIds`). Unset: everything. */
      selectiveSyncType: z.enum(["namespaces", "shards"]).optional(),
      /** The repository storages a secondary syncs, with `selectiveSyncType: "shards"`. */
      selectiveSyncShards: z.array(z.string().min(1)).optional(),
      /** The groups (by id) a secondary syncs, with `selectiveSyncType: "namespaces"`. */
      selectiveSyncNamespaceIds: z.array(serverId).optional(),
      /** Days between reverifications of checksums (default 90); no effect on a secondary. */
      minimumReverificationInterval: z.number().int().min(1, { error: "The reverification interval is at least one day." }).optional(),
    })
    .check(
      crossFieldRule({
        rule: "selective sync lists match selectiveSyncType",
        problem: ({ selectiveSyncType, selectiveSyncShards, selectiveSyncNamespaceIds }) => {
          if (selectiveSyncShards?.length && selectiveSyncType !== "shards") {
            return {
              path: ["selectiveSyncShards"],
              message: `Shards apply with selectiveSyncType "shards", and it is ${show(selectiveSyncType ?? "unset")}. Set selectiveSyncType to "shards", or remove selectiveSyncShards.`,
            };
          }
          if (selectiveSyncNamespaceIds?.length && selectiveSyncType !== "namespaces") {
            return {
              path: ["selectiveSyncNamespaceIds"],
              message: `Namespace ids apply with selectiveSyncType "namespaces", and it is ${show(selectiveSyncType ?? "unset")}. Set selectiveSyncType to "namespaces", or remove selectiveSyncNamespaceIds.`,
            };
          }
          return undefined;
        },
      }),
    ),
  outputs: z.object({
    /** The site's id. */
    siteId: serverId,
    /** True for the site this API answers from. */
    current: z.boolean(),
    /** The site's page in the admin area. */
    webEditUrl: z.string(),
  }),
  recordId: "siteId",
  idParts: ["siteId"],
  create: routes.geoSites.create,
  read: routes.geoSites.get,
  update: routes.geoSites.update,
  delete: routes.geoSites.delete,
  // Names are unique regardless of case: that finds a site whose create answer was lost.
  identity: {
    fields: ["name"],
    ignoreCase: ["name"],
    describe: (state) => `the Geo site ${show(state["name"])}`,
    find: { list: routes.geoSites.list },
  },
  limits: [
    {
      policy: "geo-site-one-primary",
      per: [],
      max: GEO_PRIMARY_SITES_MAX,
      counts: (state) => state["primary"] === true,
      what: { one: "primary site", many: "primary sites" },
      scope: "an installation",
      parent: () => "the installation",
      advice: "Make one of them a secondary (primary: false).",
    },
  ],
  // The PUT takes neither `primary` nor `sync_object_storage`.
  replaceOn: ["primary", "syncObjectStorage"],
  // A unique name, and one primary: the old site goes first.
  deleteBeforeReplace: true,
  normalize: {
    url: withSlash,
    internalUrl: withSlash,
    selectiveSyncShards: (value) => (Array.isArray(value) ? [...value].sort() : value),
    selectiveSyncNamespaceIds: (value) => (Array.isArray(value) ? [...value].sort((a, b) => Number(a) - Number(b)) : value),
  },
  resets: {
    // Back to `url`, what the forge shows when none is set.
    internalUrl: (state: Record<string, unknown>) => state["url"],
    enabled: true,
    filesMaxCapacity: GEO_CAPACITY_DEFAULTS.files_max_capacity,
    reposMaxCapacity: GEO_CAPACITY_DEFAULTS.repos_max_capacity,
    verificationMaxCapacity: GEO_CAPACITY_DEFAULTS.verification_max_capacity,
    containerRepositoriesMaxCapacity: GEO_CAPACITY_DEFAULTS.container_repositories_max_capacity,
    selectiveSyncType: null,
    selectiveSyncShards: [],
    selectiveSyncNamespaceIds: [],
    minimumReverificationInterval: DEFAULT_REVERIFICATION_DAYS,
  },
  notes: [
    "Administrator only, on self-managed Premium and Ultimate. `repairGeoSite` repairs a site's OAuth authentication (an action, not a resource input).",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  geoSite: defineAdopt({
    scope: "instance",
    // Premium, self-managed, administrator: a forge without Geo refuses the listing, which is noted.
    find: async ({ client }) => (await list("listGeoSites", {}, client)).map((site) => ({ siteId: site["id"] })),
    name: (inputs) => `geo site ${text(inputs["name"])}`,
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { geoSite };
