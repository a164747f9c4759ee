import { z } from "zod";
import { GEO_CAPACITY_DEFAULTS } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { modelValidationError } from "../../core/errors";
import type { Actor } from "../../core/records";
import { paramBoolean, paramEnum, paramInteger, paramString, validate } from "../../core/validation";

const SYNC_TYPES = ["namespaces", "shards"] as const;

/** A replication site of a self-managed installation (the API's Geo replication site record). */
export interface GeoSiteRecord {
  id: number;
  name: string;
  /** Stored with a trailing slash, as the service stores it. */
  url: string;
  /** null when unset: the record then shows `url`. */
  internal_url: string | null;
  primary: boolean;
  enabled: boolean;
  files_max_capacity: number;
  repos_max_capacity: number;
  verification_max_capacity: number;
  container_repositories_max_capacity: number;
  sync_object_storage: boolean;
  selective_sync_type: (typeof SYNC_TYPES)[number] | null;
  selective_sync_shards: string[];
  selective_sync_namespace_ids: number[];
  minimum_reverification_interval: number;
  /** Times `POST /geo_sites/:id/repair` ran (the emulator has no OAuth application to lose). */
  repairs: number;
}

/** The defaults of the table of POST /geo_sites (and the service's 90-day reverification). */
const DEFAULTS = {
  enabled: true,
  ...GEO_CAPACITY_DEFAULTS,
  sync_object_storage: false,
  minimum_reverification_interval: 90,
} as const;

const stringList = () =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter((item) => item !== "") : value),
    z.array(paramString(), { error: "is invalid" }),
  );
const integerList = () =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").filter((item) => item !== "") : value),
    z.array(paramInteger(), { error: "is invalid" }),
  );

const writable = {
  enabled: paramBoolean().optional(),
  name: paramString().optional(),
  url: paramString().optional(),
  internal_url: paramString().nullable().optional(),
  files_max_capacity: paramInteger().optional(),
  repos_max_capacity: paramInteger().optional(),
  verification_max_capacity: paramInteger().optional(),
  container_repositories_max_capacity: paramInteger().optional(),
  selective_sync_type: paramEnum(SYNC_TYPES).nullable().optional(),
  selective_sync_shards: stringList().optional(),
  selective_sync_namespace_ids: integerList().optional(),
  minimum_reverification_interval: paramInteger().optional(),
};
const createParams = z.object({
  ...writable,
  name: paramString(),
  url: paramString(),
  primary: paramBoolean().optional(),
  sync_object_storage: paramBoolean().optional(),
});
const updateParams = z.object(writable);

/** The replicable kinds whose counters a status carries (the API's Geo site status). */
const REPLICABLE_KINDS = [
  "ci_secure_files",
  "container_repositories",
  "dependency_proxy_blobs",
  "dependency_proxy_manifests",
  "design_management_repositories",
  "group_wiki_repositories",
  "job_artifacts",
  "lfs_objects",
  "merge_request_diffs",
  "package_files",
  "pages_deployments",
  "pipeline_artifacts",
  "project_repositories",
  "project_wiki_repositories",
  "snippet_repositories",
] as const;

/**
 * Geo replication sites: administrators only (the routes are gated to Premium, self-managed).
 * One primary at most; names unique regardless of case.
 */
export class GeoSites {
  constructor(
    private readonly core: Core,
    private readonly sites: Collection<GeoSiteRecord>,
  ) {}

  list(actor: Actor): Record<string, unknown>[] {
    this.core.permissions.requireAdmin(actor);
    return this.sites.list().map((site) => this.serialize(site));
  }

  get(actor: Actor, id: string): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    return this.serialize(this.sites.requirePathId("id", id));
  }

  create(actor: Actor, input: Record<string, unknown>): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const params = validate(createParams, input);
    const site: GeoSiteRecord = {
      id: 0,
      name: params.name,
      url: params.url,
      internal_url: null,
      primary: params.primary ?? false,
      enabled: params.enabled ?? DEFAULTS.enabled,
      files_max_capacity: DEFAULTS.files_max_capacity,
      repos_max_capacity: DEFAULTS.repos_max_capacity,
      verification_max_capacity: DEFAULTS.verification_max_capacity,
      container_repositories_max_capacity: DEFAULTS.container_repositories_max_capacity,
      sync_object_storage: params.sync_object_storage ?? DEFAULTS.sync_object_storage,
      selective_sync_type: null,
      selective_sync_shards: [],
      selective_sync_namespace_ids: [],
      minimum_reverification_interval: DEFAULTS.minimum_reverification_interval,
      repairs: 0,
    };
    const checked = this.applied(site, params);
    checked.id = this.core.nextId("geo_site");
    return this.serialize(this.sites.insert(checked));
  }

  update(actor: Actor, id: string, input: Record<string, unknown>): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const site = this.sites.requirePathId("id", id);
    Object.assign(site, this.applied(site, validate(updateParams, input)));
    return this.serialize(site);
  }

  delete(actor: Actor, id: string): void {
    this.core.permissions.requireAdmin(actor);
    this.sites.remove(this.sites.requirePathId("id", id));
  }

  /** Repairs the OAuth authentication between the sites; answers the site. */
  repair(actor: Actor, id: string): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const site = this.sites.requirePathId("id", id);
    site.repairs += 1;
    return this.serialize(site);
  }

  /** One status per site. The emulator replicates nothing: a secondary's counters show its
   *  share of the projects and snippets as synced and verified, the other kinds as empty. */
  statuses(actor: Actor): Record<string, unknown>[] {
    this.core.permissions.requireAdmin(actor);
    const projects = this.core.projects.all().length;
    return this.sites.list().map((site) => {
      const status: Record<string, unknown> = {
        geo_node_id: site.id,
        projects_count: projects,
        container_repositories_replication_enabled: false,
      };
      for (const kind of REPLICABLE_KINDS) {
        const count = kind === "project_repositories" ? projects : 0;
        const done = site.primary || !site.enabled ? null : count;
        status[`${kind}_count`] = count;
        status[`${kind}_checksum_total_count`] = count;
        status[`${kind}_checksummed_count`] = count;
        status[`${kind}_checksum_failed_count`] = 0;
        status[`${kind}_synced_count`] = done;
        status[`${kind}_failed_count`] = site.primary ? null : 0;
        status[`${kind}_registry_count`] = done;
        status[`${kind}_verification_total_count`] = done;
        status[`${kind}_verified_count`] = done;
        status[`${kind}_verification_failed_count`] = site.primary ? null : 0;
      }
      return status;
    });
  }

  /** A copy of `site` with `params` applied, after the model's validations (nothing is changed on failure). */
  private applied(site: GeoSiteRecord, params: z.output<typeof updateParams> & { primary?: boolean }): GeoSiteRecord {
    const next: GeoSiteRecord = { ...site };
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
    }
    if (params.internal_url === "") next.internal_url = null;
    next.url = siteUrl("url", next.url);
    if (next.internal_url !== null) next.internal_url = siteUrl("internal_url", next.internal_url);
    if (next.name.trim() === "") throw modelValidationError("name", "can't be blank");
    if (next.name.length > 255) throw modelValidationError("name", "is too long (maximum is 255 characters)");
    const lower = next.name.toLowerCase();
    if (this.sites.find((other) => other.id !== site.id && other.name.toLowerCase() === lower))
      throw modelValidationError("name", "has already been taken");
    if (next.primary && this.sites.find((other) => other.id !== site.id && other.primary))
      throw modelValidationError("primary", "node already exists");
    for (const key of [
      "files_max_capacity",
      "repos_max_capacity",
      "verification_max_capacity",
      "container_repositories_max_capacity",
    ] as const) {
      if (next[key] < 0) throw modelValidationError(key, "must be greater than or equal to 0");
    }
    if (next.minimum_reverification_interval < 1)
      throw modelValidationError("minimum_reverification_interval", "must be greater than or equal to 1");
    return next;
  }

  private serialize(site: GeoSiteRecord): Record<string, unknown> {
    const api = `${this.core.baseUrl}/api/v4/geo_sites/${site.id}`;
    const { repairs: _repairs, ...fields } = site;
    return {
      ...fields,
      internal_url: site.internal_url ?? site.url,
      // The emulator plays the primary site: it is the current one.
      current: site.primary,
      web_edit_url: `${this.core.baseUrl}/admin/geo/sites/${site.id}/edit`,
      ...(site.primary ? {} : { web_geo_replication_details_url: `${site.url}admin/geo/sites/${site.id}/replication/lfs_objects` }),
      _links: { self: api, status: `${api}/status`, repair: `${api}/repair` },
    };
  }
}

/** An http(s) URL, stored with a trailing slash (api-semantics.md). */
function siteUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw modelValidationError(field, "is invalid");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw modelValidationError(field, "is invalid");
  return value.endsWith("/") ? value : `${value}/`;
}
