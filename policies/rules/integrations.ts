/**
 * What a security reviewer asks of a group's integrations: notifications and builds reached over
 * https, and TLS certificates verified. Both are advice: an internal service on plain http, or
 * behind a private CA, may be a decision someone made. The addresses and switches come from
 * the API's table of group integrations (api/integrations.ts), so a slug added there is covered here.
 */
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { toCamel } from "../../provider/engine/naming";
import { groupIntegrations, integrationKindOf } from "../../provider/resources/group-integrations";
import { resourcePolicy } from "../lib/define";
import { isKnown, show } from "../lib/values";

const INTEGRATION_DECLARATIONS = Object.values(groupIntegrations) as AnyDeclaration[];

export const groupIntegrationHttps = resourcePolicy({
  name: "group-integration-https",
  description:
    "A group integration reaches its service, webhooks and trackers over https, so that credentials and notifications are not sent in clear text.",
  enforcementLevel: "advisory",
  resources: INTEGRATION_DECLARATIONS,
  check({ inputs, subject, declaration, report }) {
    const kind = integrationKindOf(declaration.name);
    for (const [wire, parameter] of Object.entries(kind?.parameters ?? {})) {
      if (parameter.format !== "url") continue;
      const field = toCamel(wire);
      const value = inputs[field];
      if (!isKnown(value) || typeof value !== "string" || !/^http:\/\//i.test(value.trim())) continue;
      // A webhook address carries its token: name the field, never the value.
      const shown = parameter.secret ? "an http:// address" : show(value);
      report(`${subject} sets ${field} to ${shown}, which sends over plain http. Use the https:// address of the service.`);
    }
  },
});

export const groupIntegrationSslVerification = resourcePolicy({
  name: "group-integration-ssl-verification",
  description: "A group integration verifies the TLS certificate of the service it calls.",
  enforcementLevel: "advisory",
  resources: INTEGRATION_DECLARATIONS.filter((declaration) => "enableSslVerification" in declaration.inputs.shape),
  check({ inputs, subject, report }) {
    if (inputs["enableSslVerification"] !== false) return;
    report(
      `${subject} sets enableSslVerification to false: anyone on the path can impersonate the service and read its credentials. ` +
        "Drop it (verification is on by default) and have the forge trust the service's CA instead.",
    );
  },
});
