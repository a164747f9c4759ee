/**
 * The contract rows of the sixteen group integrations, derived from the API's table of group integrations
 * (api/integrations.ts) rather than written sixteen times: sample values by parameter kind,
 * the required parameters as inputs, every optional one for the removal steps, a credential
 * rotated (or the required text changed) as the update, a readable setting changed by hand as
 * the drift, a readable setting and the readable secrets changed (credentials too) as the
 * program an import must refuse.
 */
import type { State } from "../../provider/engine/declaration";
import { toCamel } from "../../provider/engine/naming";
import { groupIntegrations } from "../../provider/resources/group-integrations";
import { INTEGRATIONS, integrationTypeSuffix, type IntegrationKind, type IntegrationParameter } from "../../api/integrations";
import type { ContractFixture } from "./fixtures";

type Variant = 1 | 2;

/** A value the parameter accepts; the two variants differ (and variant 1 is never the default). */
export function sampleValue(slug: string, wire: string, parameter: IntegrationParameter, variant: Variant): string | boolean {
  if (parameter.type === "boolean")
    return parameter.deprecated ? true : variant === 1 ? !(parameter.default ?? false) : (parameter.default ?? false);
  if (parameter.values) {
    const others = parameter.values.filter((value) => value !== parameter.default);
    return others[variant - 1] ?? others[0]!;
  }
  const secret = parameter.secret === "write-only" ? "secret-" : "";
  switch (parameter.format) {
    case "url":
      return `https://${slug}.example.com/${wire.replace(/_/g, "-")}/${secret}v${variant}`;
    case "recipients":
      return `ops${variant}@example.com dev@example.com`;
    case "key-value-lines":
      return `env:production\nteam:platform-${variant}`;
    case "branch-list":
      return `main,release-${variant}`;
    default:
      return `${wire.replace(/_/g, "-")}-${secret}${variant}`;
  }
}

/** An input of the right type the check must refuse, and why. */
function invalidValue(parameter: IntegrationParameter): string {
  return parameter.format === "url" ? "ftp:/not-an-address" : parameter.format === "recipients" ? "not-an-address" : "   ";
}

const readable = ([, parameter]: [string, IntegrationParameter]) =>
  parameter.secret !== "write-only" && !parameter.event && !parameter.deprecated;

function integrationFixture(kind: IntegrationKind): ContractFixture {
  const declaration = groupIntegrations[`groupIntegration${integrationTypeSuffix(kind.slug)}` as keyof typeof groupIntegrations];
  const parameters = Object.entries(kind.parameters);
  const required = parameters.filter(([, parameter]) => parameter.required);
  const optional = parameters.filter(([, parameter]) => !parameter.required);
  // Drift needs a managed setting the forge returns: a required one, else the first optional one.
  const drifting = required.find(readable) ?? optional.find(readable);
  if (!drifting) throw new Error(`${kind.slug}: no readable parameter to drift`);
  const base = drifting[1].required ? required : [...required, drifting];
  const values = (entries: [string, IntegrationParameter][], variant: Variant): State =>
    Object.fromEntries(entries.map(([wire, parameter]) => [toCamel(wire), sampleValue(kind.slug, wire, parameter, variant)]));
  const invalid = required.find(([, parameter]) => parameter.type === "string" && !parameter.values)!;
  const readableSecrets = parameters.filter(([, parameter]) => parameter.secret === "readable");
  const writeOnly = parameters.filter(([, parameter]) => parameter.secret === "write-only");
  return {
    declaration,
    inputs: async () => ({ group: "acme", ...values(base, 1) }),
    // Credentials rotated and the required text changed: every set-up sends them all again.
    update: (inputs) => ({ ...inputs, ...values(required, 2) }),
    replace: (inputs) => ({ ...inputs, group: "acme/platform" }),
    // A readable setting and the readable secrets (the chat webhook's per-event webhooks) differ;
    // the credentials, write-only, differ too but cannot be compared.
    importMismatch: {
      inputs: (inputs) => ({ ...inputs, ...values([drifting, ...readableSecrets], 2), ...values(writeOnly, 2) }),
      fields: [...new Set([drifting, ...readableSecrets].map(([wire]) => toCamel(wire)))],
    },
    optional: () => ({ useInheritedSettings: true, ...values(optional, 1) }),
    drift: async (world, outs) => {
      const [wire, parameter] = drifting;
      const body = Object.fromEntries(required.map(([name]) => [name, outs[toCamel(name)]]));
      const other = ([1, 2] as const)
        .map((variant) => sampleValue(kind.slug, wire, parameter, variant))
        .find((value) => value !== outs[toCamel(wire)]);
      await world.api.request("PUT", `/groups/:group/integrations/${kind.slug}`, { group: outs["group"], ...body, [wire]: other });
      return toCamel(wire);
    },
    invalid: { inputs: (inputs) => ({ ...inputs, [toCamel(invalid[0])]: invalidValue(invalid[1]) }), property: toCamel(invalid[0]) },
    // The API's roles: Maintainer of the group; a Developer is refused.
    apiError: { inputs: async (inputs) => inputs, actAs: "dev", status: 403, message: "403 Forbidden" },
  };
}

export const integrationFixtures: ContractFixture[] = Object.values(INTEGRATIONS).map((kind) => integrationFixture(kind));
