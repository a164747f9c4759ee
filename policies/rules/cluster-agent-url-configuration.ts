/**
 * ClusterAgentUrlConfiguration: at most one per agent (spec document 1, "Limits"; document 2,
 * "Receptive agent URL configurations"), and exactly one way to authenticate: JWT (no client
 * certificate) or mutual TLS (client_cert with its client_key).
 */
import { clusterAgentUrlConfiguration } from "../../provider/resources/cluster-agent-url-configuration";
import { byAgent } from "../lib/agents";
import { resourcePolicy, resourceRules, stackPolicy } from "../lib/define";
import { isKnown, isUnknown } from "../lib/values";

export const clusterAgentUrlConfigurationOnePerAgent = stackPolicy({
  name: "cluster-agent-url-configuration-one-per-agent",
  description: "A cluster agent has at most one URL configuration.",
  enforcementLevel: "mandatory",
  resources: [clusterAgentUrlConfiguration],
  check({ resources, report }) {
    for (const group of byAgent(resources)) {
      const [first, ...extra] = group.members;
      if (!first) continue;
      for (const member of extra) {
        report(
          `${member.subject} is a second URL configuration of ${group.label}, which ${first.subject} already configures; an agent can have only one. ` +
            `Keep one of them (to change it, edit that one: a replacement deletes the old configuration first).`,
          member.resource.urn,
        );
      }
    }
  },
});

export const clusterAgentUrlConfigurationAuthentication = resourcePolicy({
  name: "cluster-agent-url-configuration-authentication",
  description: "A URL configuration uses exactly one way to authenticate: JWT (no client certificate) or mutual TLS (clientCert with its clientKey).",
  enforcementLevel: "mandatory",
  resources: [clusterAgentUrlConfiguration],
  check({ inputs, subject, report }) {
    const cert = inputs["clientCert"];
    const key = inputs["clientKey"];
    // An unknown value may still turn out to be absent: judge only what is known.
    if (isUnknown(cert) || isUnknown(key)) return;
    const hasCert = cert !== undefined && cert !== null;
    const hasKey = key !== undefined && key !== null;
    if (hasCert && !hasKey) {
      report(`${subject} has clientCert without clientKey; mutual TLS needs the certificate and its private key. Add clientKey, or remove clientCert to use JWT authentication.`);
    } else if (hasKey && !hasCert) {
      report(`${subject} has clientKey without clientCert; mutual TLS needs the certificate and its private key. Add clientCert, or remove clientKey to use JWT authentication.`);
    }
    if (isKnown(cert) && !(typeof cert === "string" && /-----BEGIN CERTIFICATE-----/.test(cert))) {
      report(`${subject} has a clientCert that is not a PEM certificate. Give the client certificate in PEM ("-----BEGIN CERTIFICATE-----").`);
    }
    if (isKnown(key) && !(typeof key === "string" && /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----/.test(key))) {
      report(`${subject} has a clientKey that is not a PEM private key. Give the certificate's private key in PEM ("-----BEGIN PRIVATE KEY-----").`);
    }
  },
});

export const rules = resourceRules(clusterAgentUrlConfiguration, {
  covers: ["clientCert", "clientKey"],
  policies: [clusterAgentUrlConfigurationOnePerAgent, clusterAgentUrlConfigurationAuthentication],
});
