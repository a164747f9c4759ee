import { z } from "zod";
import { AVAILABILITY } from "../../spec/editions";
import { defineResource } from "../engine/declaration";
import { normalizers, projectRef, serverId } from "./common";

/**
 * How the forge reaches a receptive agent (a cluster that cannot connect out). Authentication is
 * JWT (the forge generates a key pair and returns the public key) or mutual TLS (a client
 * certificate and its key). Ultimate, self-managed.
 */
export const clusterAgentUrlConfiguration = defineResource({
  name: "ClusterAgentUrlConfiguration",
  availability: AVAILABILITY.agentUrlConfigurations,
  summary: "The URL and authentication the forge uses to connect to a receptive cluster agent.",
  inputs: z
    .object({
      /** The agent's project: id or full path. */
      project: projectRef,
      /** The agent's id (`ClusterAgent.agentId`). */
      agentId: serverId,
      /** The agent's URL, e.g. `grpcs://agent.example.com:443`. */
      url: z.url(),
      /** PEM client certificate for mutual TLS; with `clientKey`. Without both, JWT is used. */
      clientCert: z.string().min(1).optional(),
      /** PEM private key of `clientCert`. Write-only: never returned, kept encrypted in state. */
      clientKey: z.string().min(1).optional(),
      /** PEM CA certificate to verify the agent's server certificate. */
      caCert: z.string().min(1).optional(),
      /** The TLS server name to expect. */
      tlsHost: z.string().min(1).optional(),
    })
    .refine((args) => (args.clientCert === undefined) === (args.clientKey === undefined), {
      message: "clientCert and clientKey go together: give both for mutual TLS, or neither for JWT",
      path: ["clientKey"],
    }),
  outputs: z.object({
    /** The configuration's id. */
    urlConfigurationId: serverId,
    /** With JWT: the public key the agent verifies the forge with (base64). */
    publicKey: z.string().optional(),
  }),
  recordId: "urlConfigurationId",
  idParts: ["project", "agentId", "urlConfigurationId"],
  create: "POST /projects/:project/cluster_agents/:agentId/url_configurations",
  read: "GET /projects/:project/cluster_agents/:agentId/url_configurations/:urlConfigurationId",
  delete: "DELETE /projects/:project/cluster_agents/:agentId/url_configurations/:urlConfigurationId",
  replaceOn: "all",
  // One configuration per agent: the old one must go before its replacement can be created.
  deleteBeforeReplace: true,
  writeOnly: ["clientKey"],
  secretOutputs: ["clientCert"],
  normalize: { project: normalizers.ref },
  notes: ["At most one per agent: a replacement deletes the old configuration first."],
});
