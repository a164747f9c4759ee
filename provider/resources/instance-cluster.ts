import { z } from "zod";
import { CLUSTER_AUTHORIZATION_TYPES, isClusterApiUrl } from "../../api";
import { defineResource } from "../engine/declaration";
import { toWire } from "../engine/naming";
import { nonBlank, serverId, show, valueRule, wordList } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { field, list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** What the platform attributes mean: blanks are no value, `rbac` is the default. */
function platformMeaning(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const meaning = Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null && item !== undefined && item !== ""));
  if (meaning["authorizationType"] === "rbac") delete meaning["authorizationType"];
  return meaning;
}

/**
 * The platform attributes on the wire: optional ones the program leaves out are sent blank, so
 * that dropping `caCert` or `namespace` clears it on the forge (their reset) rather than leaving
 * the old value behind.
 */
const platformWire = {
  toWire: (value: unknown) => toWire({ caCert: "", namespace: "", ...(value as object) }),
  fromWire: (value: unknown) => value,
};

/**
 * An instance-wide cluster connected by certificate (administrator, self-managed). Deprecated by
 * the forge: prefer cluster agents (`ClusterAgent`).
 */
export const instanceCluster = defineResource({
  name: "InstanceCluster",
  summary: "A certificate-based cluster connected to the whole instance (deprecated: use cluster agents).",
  inputs: z.object({
    /** The cluster's name as the forge shows it. */
    name: nonBlank("cluster's name"),
    /** Base domain of the cluster's applications, e.g. `apps.example.com`. */
    domain: z.string().optional(),
    /** Which environments deploy to the cluster: `*` (the default) or a pattern such as `production/*`. */
    environmentScope: z
      .string()
      .min(1, { error: 'The environment scope is blank. Use "*" for every environment, or a pattern such as "production/*".' })
      .optional(),
    /** The id of the project that manages the cluster's applications. */
    managementProjectId: serverId.optional(),
    /** Whether the cluster is in use (default true). */
    enabled: z.boolean().optional(),
    /** Whether the forge manages namespaces and service accounts in the cluster (default true). */
    managed: z.boolean().optional(),
    /**
     * How the forge reaches the cluster's API. Kept secret in state as a whole: it holds the
     * token (write-only: the forge never returns it) and the CA certificate.
     */
    platformVendorAttributes: z.object({
      /** The cluster API's URL (http or https). */
      apiUrl: z.string().check(
        valueRule({
          format: "cluster-api-url",
          rule: "an http:// or https:// URL with a host",
          holds: isClusterApiUrl,
          message: (value) =>
            `${show(value)} is not a cluster API URL. Write it with https:// (or http://) and the host, such as "https://k8s.example.com:6443".`,
        }),
      ),
      /** The token the forge authenticates to the cluster with. Write-only and secret. */
      token: nonBlank("token the forge authenticates to the cluster with"),
      /** PEM CA certificate, needed when the API's TLS certificate is self-signed. Secret. Dropping it clears it on the forge. */
      caCert: z.string().optional(),
      /** The namespace the forge deploys to. Dropping it clears it on the forge. */
      namespace: z.string().optional(),
      /**
       * `rbac` (default), `abac` or `unknown_authorization`. The forge cannot change it on an
       * existing cluster, so a change (or dropping a value other than `rbac`) replaces the cluster.
       */
      authorizationType: z
        .enum(CLUSTER_AUTHORIZATION_TYPES, {
          error: (issue) => `${show(issue.input)} is not an authorization type. Use ${wordList(CLUSTER_AUTHORIZATION_TYPES)}.`,
        })
        .optional(),
    }),
  }),
  outputs: z.object({
    /** The cluster's id. */
    clusterId: serverId,
    /** When it was added. */
    createdAt: z.string(),
    /** `user` for clusters added by hand, as every cluster this resource adds is. */
    providerType: z.string(),
    /** `instance_type`. */
    clusterType: z.string(),
  }),
  recordId: "clusterId",
  idParts: ["clusterId"],
  create: routes.instanceClusters.add,
  read: routes.instanceClusters.get,
  update: routes.instanceClusters.update,
  delete: routes.instanceClusters.delete,
  // Names are not unique: after a lost answer, a new cluster with its name and API URL that
  // another user did not make is a candidate, reported and never adopted.
  identity: {
    none: "cluster names need not be unique",
    search: {
      list: routes.instanceClusters.list,
      where: (record, state) =>
        record["name"] === state["name"] &&
        (record["platform_vendor"] as { api_url?: unknown } | null)?.api_url ===
          (state["platformVendorAttributes"] as { apiUrl?: unknown })?.apiUrl,
      madeBy: "user.id",
    },
  },
  // Every cluster this resource adds came through the add-existing path, so the forge lets
  // name, API URL, CA certificate and token change in place; the PUT has no authorization type.
  replaceOn: ["platformVendorAttributes.authorizationType"],
  writeOnly: ["platformVendorAttributes.token"],
  // The record names the management project as an object, the input by its id.
  readNames: { platformVendorAttributes: "platform_vendor", managementProjectId: "management_project.id" },
  wireFormats: { platformVendorAttributes: platformWire },
  // The forge stores a blank domain as no domain.
  normalize: { platformVendorAttributes: platformMeaning, domain: (value) => (value === "" ? null : value) },
  resets: { domain: "", environmentScope: "*", managementProjectId: null, enabled: true, managed: true },
  notes: [
    "Deprecated by the forge: certificate-based clusters are being removed in favour of cluster agents (`ClusterAgent`); its endpoints are deprecated and the policy `deprecated-endpoints` says so at preview.",
    "Deleting the cluster disconnects it; what runs inside the cluster is not removed.",
    "`platformVendorAttributes.authorizationType` cannot be changed on an existing cluster: a change replaces it.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  instanceCluster: defineAdopt({
    scope: "instance",
    find: async ({ client }) => (await list("listInstanceClusters", {}, client)).map((cluster) => ({ clusterId: cluster["id"] })),
    name: (inputs) => `cluster ${text(inputs["name"])}`,
    // The platform attributes are a secret of the resource: the CA certificate is read from
    // secret config like the token, never written into the program.
    secretInputs: ["platformVendorAttributes.caCert"],
    describe: async (inputs, _outputs, { client }): Promise<Record<string, string>> =>
      inputs["managementProjectId"] === undefined
        ? {}
        : {
            managementProjectId:
              (await field(client, routes.projects.get, { project: Number(inputs["managementProjectId"]) }, "path_with_namespace")) ?? "",
          },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { instanceCluster };
