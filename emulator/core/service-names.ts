import { declareParameters } from "./validation";

/*
 * Where the spec writes `vendor` for a product's name (the spec's conventions), the service's
 * wire has the product's: clients written for the service send and read those. The emulator
 * takes both spellings in requests (the spec's wins when both come) and answers with the
 * service's names beside the spec's where the service's answer carries them. The library's own
 * requests keep the spec's names.
 */
export const SERVICE_NAMES = {
  /** `POST /admin/clusters/add`, `PUT /admin/clusters/:cluster_id`. */
  platform_vendor_attributes: "platform_kubernetes_attributes",
  /** Instance cluster record. */
  platform_vendor: "platform_kubernetes",
  provider_vendor: "provider_gcp",
  /** Error tracking settings. */
  vendor_external_url: "sentry_external_url",
  /** Error tracking client key. */
  vendor_dsn: "sentry_dsn",
  /** The group record (`GET /groups/:id`) and `PUT /groups/:id`. */
  vendor_features_enabled: "duo_features_enabled",
  lock_vendor_features_enabled: "lock_duo_features_enabled",
  vendor_availability: "duo_availability",
} as const;

export type SpecName = keyof typeof SERVICE_NAMES;

/** The request's parameters with the service's names of `names` under the spec's (a spec's name given wins). */
export function withSpecNames(input: Record<string, unknown>, names: readonly SpecName[]): Record<string, unknown> {
  const renamed = { ...input };
  for (const name of names) {
    const wire = SERVICE_NAMES[name];
    if (!(wire in input)) continue;
    declareParameters([wire]);
    if (renamed[name] === undefined) renamed[name] = input[wire];
    delete renamed[wire];
  }
  return renamed;
}

/** An answer with the service's name of each of `names` it holds beside the spec's, same value. */
export function withServiceNames(record: Record<string, unknown>, names: readonly SpecName[]): Record<string, unknown> {
  const both = { ...record };
  for (const name of names) if (name in record) both[SERVICE_NAMES[name]] = record[name];
  return both;
}
