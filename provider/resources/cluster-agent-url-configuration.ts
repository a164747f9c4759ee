import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { AGENT_URL_CONFIGURATIONS_MAX, isAgentUrl } from "../../api";
import { crossFieldRule, normalizers, projectRef, serverId, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { agentChildren, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/**
 * How the forge reaches a receptive agent (a cluster that cannot connect out). Authentication is
 * JWT (the forge generates a key pair and returns the public key) or mutual TLS (a client
 * certificate and its key). Ultimate, self-managed.
 */
export const clusterAgentUrlConfiguration = defineResource({
  name: "ClusterAgentUrlConfiguration",
  summary: "The URL and authentication the forge uses to connect to a receptive cluster agent.",
  inputs: z
    .object({
      /** The agent's project: id or full path. */
      project: projectRef,
      /** The agent's id (`ClusterAgent.agentId`). */
      agentId: serverId,
      /** The agent's URL: `grpc://` or `grpcs://` with its host, e.g. `grpcs://agent.example.com:443`. */
      url: z.string().check(
        valueRule({
          format: "agent-url",
          rule: "a grpc:// or grpcs:// URL with a host",
          holds: isAgentUrl,
          message: (value) =>
            `${show(value)} is not an agent URL. Write it with grpc:// or grpcs:// and the agent's host, such as "grpcs://agent.example.com:443".`,
        }),
      ),
      /** PEM client certificate for mutual TLS; with `clientKey`. Without both, JWT is used. */
      clientCert: z
        .string()
        .min(1)
        .check(
          valueRule({
            format: "pem-certificate",
            rule: "a PEM certificate",
            holds: (value) => /-----BEGIN CERTIFICATE-----/.test(value),
            message: () => 'It is not a PEM certificate. Give the client certificate in PEM ("-----BEGIN CERTIFICATE-----").',
          }),
        )
        .optional(),
      /** PEM private key of `clientCert`. Write-only: never returned, kept encrypted in state. */
      clientKey: z
        .string()
        .min(1)
        .check(
          valueRule({
            format: "pem-private-key",
            rule: "a PEM private key",
            holds: (value) => /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/.test(value),
            message: () => 'It is not a PEM private key. Give the certificate\'s private key in PEM ("-----BEGIN PRIVATE KEY-----").',
          }),
        )
        .optional(),
      /** PEM CA certificate to verify the agent's server certificate. */
      caCert: z.string().min(1).optional(),
      /** The TLS server name to expect. */
      tlsHost: z.string().min(1).optional(),
    })
    .check(
      crossFieldRule({
        rule: "clientCert and clientKey together (mutual TLS) or neither (JWT)",
        problem: ({ clientCert, clientKey }) => {
          if ((clientCert === undefined) === (clientKey === undefined)) return undefined;
          // The missing half is the field reported: a certificate without its key lacks clientKey.
          const [given, missing] = clientKey === undefined ? ["clientCert", "clientKey"] : ["clientKey", "clientCert"];
          return {
            path: [missing],
            message: `It is needed with ${given}: mutual TLS takes the certificate and its private key. Add ${missing}, or remove ${given} to use JWT authentication.`,
          };
        },
      }),
    ),
  outputs: z.object({
    /** The configuration's id. */
    urlConfigurationId: serverId,
    /** With JWT: the public key the agent verifies the forge with (base64). */
    publicKey: z.string().optional(),
  }),
  recordId: "urlConfigurationId",
  idParts: ["project", "agentId", "urlConfigurationId"],
  create: routes.clusterAgentUrlConfigurations.create,
  read: routes.clusterAgentUrlConfigurations.get,
  delete: routes.clusterAgentUrlConfigurations.delete,
  // Nothing names a configuration: after a lost answer, the agent's new one is a candidate (reported).
  identity: { none: "a configuration has no name", search: { list: routes.clusterAgentUrlConfigurations.list, where: () => true } },
  limits: [
    {
      policy: "cluster-agent-url-configuration-one-per-agent",
      per: ["project", "agentId"],
      max: AGENT_URL_CONFIGURATIONS_MAX,
      what: { one: "URL configuration", many: "URL configurations" },
      scope: "a cluster agent",
      parent: (state) => `agent ${show(state["agentId"])} of project ${show(state["project"])}`,
      advice: "Keep one of them (to change it, edit that one: a replacement deletes the old configuration first).",
    },
  ],
  replaceOn: "all",
  // One configuration per agent: the old one must go before its replacement can be created.
  deleteBeforeReplace: true,
  writeOnly: ["clientKey"],
  secretOutputs: ["clientCert"],
  normalize: { project: normalizers.ref },
  notes: ["At most one per agent: a replacement deletes the old configuration first."],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  clusterAgentUrlConfiguration: defineAdopt({
    scope: "project",
    find: ({ path, client }) => agentChildren(path, client, "listClusterAgentUrlConfigurations", "urlConfigurationId"),
    name: (inputs) =>
      `agent url ${text(inputs["url"])
        .replace(/^grpcs?:\/\//, "")
        .replace(/:\d+$/, "")}`,
    references: { agentId: "clusterAgent" },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { clusterAgentUrlConfiguration };
