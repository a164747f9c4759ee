import { z } from "zod";
import { CLUSTER_AUTHORIZATION_TYPES, isClusterApiUrl } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { modelValidationError, recordNotFound } from "../../core/errors";
import type { Actor } from "../../core/records";
import { withServiceNames, withSpecNames } from "../../core/service-names";
import { integerPathParam, paramBoolean, paramEnum, paramInteger, paramString, validate } from "../../core/validation";

/** The platform part of a cluster: how the forge reaches the cluster's API. */
interface PlatformRecord {
  api_url: string;
  /** Write-only: never serialised. */
  token: string;
  ca_cert: string | null;
  namespace: string | null;
  authorization_type: (typeof CLUSTER_AUTHORIZATION_TYPES)[number];
}

/** A stored instance cluster. `provider_type` `user`: added by hand (POST /admin/clusters/add). */
export interface ClusterRecord {
  id: number;
  name: string;
  created_at: string;
  managed: boolean;
  enabled: boolean;
  domain: string | null;
  provider_type: string;
  environment_scope: string;
  management_project_id: number | null;
  user_id: number;
  platform: PlatformRecord;
}

/** The platform's product name, as the service's answers write `platform_type`. */
const PLATFORM_TYPE = "kubernetes";
/** Request parameters and record fields whose wire names are the service's product names (core/service-names.ts). */
const CLUSTER_PARAMETER_NAMES = ["platform_vendor_attributes"] as const;
const CLUSTER_RECORD_NAMES = ["platform_vendor", "provider_vendor"] as const;

/** Blank optional text is "no value": the service stores nil for it. */
const optionalText = () =>
  paramString()
    .optional()
    .transform((text) => (text === undefined ? undefined : text.trim() === "" ? null : text));

// `platform_vendor_attributes` arrives as a JSON object or as `platform_vendor_attributes[api_url]`
// form fields; the HTTP layer turns both into the same nested object.
const platformCreate = z.object(
  {
    api_url: paramString(),
    token: paramString(),
    ca_cert: optionalText(),
    namespace: optionalText(),
    authorization_type: paramEnum(CLUSTER_AUTHORIZATION_TYPES).optional(),
  },
  { error: (issue) => (issue.input === undefined ? "is missing" : "is invalid") },
);

// PUT: every name optional, no default applies, and `authorization_type` is not a parameter
//: like the service's framework, the emulator ignores what is not declared.
const platformUpdate = z.object({
  api_url: paramString().optional(),
  token: paramString().optional(),
  ca_cert: optionalText(),
  namespace: optionalText(),
});

const common = {
  domain: optionalText(),
  environment_scope: paramString().optional(),
  management_project_id: paramInteger().nullable().optional(),
  enabled: paramBoolean().optional(),
  managed: paramBoolean().optional(),
};
const createParams = z.object({ name: paramString(), ...common, platform_vendor_attributes: platformCreate });
const updateParams = z.object({ name: paramString().optional(), ...common, platform_vendor_attributes: platformUpdate.optional() });

/**
 * Instance-level clusters (certificate-based, deprecated): administrators only.
 *
 * Where the spec is silent: `name`, `api_url`, `ca_cert` and `token` can be changed only on a
 * cluster added by hand (provider_type `user`); every cluster the API creates is one, so through
 * the API they are always updatable. A cluster of another provider (only a loaded state file can
 * hold one) answers such a change as the service's model validation does: 400
 * `{"message":{"base":["Cannot modify managed cluster"]}}`.
 */
export class InstanceClusters {
  constructor(
    private readonly core: Core,
    private readonly clusters: Collection<ClusterRecord>,
  ) {}

  list(actor: Actor): Record<string, unknown>[] {
    this.core.permissions.requireAdmin(actor);
    return this.clusters.all().map((cluster) => this.serialize(cluster));
  }

  get(actor: Actor, clusterId: string): Record<string, unknown> {
    return this.serialize(this.require(actor, clusterId));
  }

  add(actor: Actor, input: Record<string, unknown>): Record<string, unknown> {
    const user = this.core.permissions.requireAdmin(actor);
    const params = validate(createParams, withSpecNames(input, CLUSTER_PARAMETER_NAMES));
    const platform = params.platform_vendor_attributes;
    this.checkName(params.name);
    const record: ClusterRecord = {
      id: this.core.nextId("cluster"),
      name: params.name,
      created_at: this.core.clock.iso(),
      managed: params.managed ?? true,
      enabled: params.enabled ?? true,
      domain: params.domain ?? null,
      provider_type: "user",
      environment_scope: params.environment_scope ?? "*",
      management_project_id: this.managementProject(params.management_project_id),
      user_id: user.id,
      platform: {
        api_url: platform.api_url,
        token: platform.token,
        ca_cert: platform.ca_cert ?? null,
        namespace: platform.namespace ?? null,
        authorization_type: platform.authorization_type ?? "rbac",
      },
    };
    this.checkApiUrl(record.platform.api_url);
    return this.serialize(this.clusters.insert(record));
  }

  update(actor: Actor, clusterId: string, input: Record<string, unknown>): Record<string, unknown> {
    const cluster = this.require(actor, clusterId);
    const params = validate(updateParams, withSpecNames(input, CLUSTER_PARAMETER_NAMES));
    const platform: Partial<z.output<typeof platformUpdate>> = params.platform_vendor_attributes ?? {};
    const touchesConnection = [params.name, platform.api_url, platform.ca_cert, platform.token].some((value) => value !== undefined);
    if (touchesConnection && cluster.provider_type !== "user") throw modelValidationError("base", "Cannot modify managed cluster");
    if (params.name !== undefined) {
      this.checkName(params.name);
      cluster.name = params.name;
    }
    if (params.domain !== undefined) cluster.domain = params.domain;
    if (params.environment_scope !== undefined) cluster.environment_scope = params.environment_scope;
    if (params.management_project_id !== undefined) cluster.management_project_id = this.managementProject(params.management_project_id);
    if (params.enabled !== undefined) cluster.enabled = params.enabled;
    if (params.managed !== undefined) cluster.managed = params.managed;
    if (platform.api_url !== undefined) {
      this.checkApiUrl(platform.api_url);
      cluster.platform.api_url = platform.api_url;
    }
    if (platform.token !== undefined) cluster.platform.token = platform.token;
    if (platform.ca_cert !== undefined) cluster.platform.ca_cert = platform.ca_cert;
    if (platform.namespace !== undefined) cluster.platform.namespace = platform.namespace;
    // The update answer carries `project: null`.
    return { ...this.serialize(cluster), project: null };
  }

  delete(actor: Actor, clusterId: string): void {
    this.clusters.remove(this.require(actor, clusterId));
  }

  private require(actor: Actor, clusterId: string): ClusterRecord {
    this.core.permissions.requireAdmin(actor);
    const cluster = this.clusters.byId(integerPathParam("cluster_id", clusterId));
    if (!cluster) throw recordNotFound();
    return cluster;
  }

  private checkName(name: string): void {
    if (name.trim() === "") throw modelValidationError("name", "can't be blank");
  }

  /** The cluster API must be an http(s) URL (the service validates it as a public URL). */
  private checkApiUrl(url: string): void {
    if (!isClusterApiUrl(url)) throw modelValidationError("platform_vendor.api_url", "is blocked: Only allowed schemes are http, https");
  }

  private managementProject(id: number | null | undefined): number | null {
    if (id === undefined || id === null) return null;
    if (!this.core.projects.byId(id)) throw modelValidationError("management_project_id", "is invalid");
    return id;
  }

  private serialize(cluster: ClusterRecord): Record<string, unknown> {
    const user = this.core.users.byId(cluster.user_id);
    const project = cluster.management_project_id === null ? undefined : this.core.projects.byId(cluster.management_project_id);
    const { token: _token, ...platform } = cluster.platform;
    const record = {
      id: cluster.id,
      name: cluster.name,
      created_at: cluster.created_at,
      managed: cluster.managed,
      enabled: cluster.enabled,
      domain: cluster.domain,
      provider_type: cluster.provider_type,
      // The spec's conventions: "written as the product name in responses".
      platform_type: PLATFORM_TYPE,
      environment_scope: cluster.environment_scope,
      cluster_type: "instance_type",
      user: user ? this.core.users.basic(user) : null,
      platform_vendor: platform,
      provider_vendor: null,
      management_project: project ? this.core.projects.configProject(project) : null,
    };
    return withServiceNames(record, CLUSTER_RECORD_NAMES);
  }
}
