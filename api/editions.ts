/*
 * Editions: the API's availability table. A feature needs a lowest tier (licence) and exists
 * on some offerings only. Provider declarations and emulator routes name the same entries, so
 * that the library's hints and its emulator's refusals cannot disagree.
 */

/** Tiers in ascending order: a feature of a tier is in every tier above it. */
export const TIERS = ["free", "premium", "ultimate"] as const;
export type Tier = (typeof TIERS)[number];

/** Offerings: self-managed, hosted multi-tenant (`hosted`), dedicated. */
export const OFFERINGS = ["self-managed", "hosted", "dedicated"] as const;
export type Offering = (typeof OFFERINGS)[number];

/** Where a feature exists: the lowest tier (default free) and the offerings (default all). */
export interface Availability {
  tier?: Tier;
  offerings?: readonly Offering[];
}

/** An instance's edition: its licence tier and its offering. */
export interface Edition {
  tier: Tier;
  offering: Offering;
}

/** The edition of an instance that has everything a self-managed instance can have. */
export const HIGHEST_SELF_MANAGED: Edition = { tier: "ultimate", offering: "self-managed" };

/** The rows of the availability table that have (or will have) a resource here. */
export const AVAILABILITY = {
  instanceClusters: { offerings: ["self-managed"] },
  agentUrlConfigurations: { tier: "ultimate", offerings: ["self-managed"] },
  protectedEnvironments: { tier: "premium" },
  broadcastMessageWrites: { offerings: ["self-managed", "dedicated"] },
  cleanupPolicies: { tier: "premium" },
  featureGates: { offerings: ["self-managed"] },
  geoSites: { tier: "premium", offerings: ["self-managed"] },
  projectStorageMoves: { offerings: ["self-managed"] },
  groupStorageMoves: { tier: "premium", offerings: ["self-managed"] },
  credentialsInventory: { tier: "premium", offerings: ["hosted"] },
  ldapGroupSync: { tier: "premium", offerings: ["self-managed"] },
} as const satisfies Record<string, Availability>;

/** True when an instance of `tier` is licensed for a feature that needs `needed`. */
export function tierIncludes(tier: Tier, needed: Tier = "free"): boolean {
  return TIERS.indexOf(tier) >= TIERS.indexOf(needed);
}

/** True when the feature exists on `offering`. */
export function offeringIncludes(offering: Offering, availability: Availability): boolean {
  return availability.offerings === undefined || availability.offerings.includes(offering);
}

const TIER_NAMES: Record<Tier, string> = { free: "Free", premium: "Premium", ultimate: "Ultimate" };
const OFFERING_NAMES: Record<Offering, string> = {
  "self-managed": "self-managed",
  hosted: "hosted multi-tenant",
  dedicated: "dedicated",
};

/** `Ultimate` */
export function tierName(tier: Tier): string {
  return TIER_NAMES[tier];
}

/** `self-managed` or `hosted multi-tenant` */
export function offeringName(offering: Offering): string {
  return OFFERING_NAMES[offering];
}

/** `the Premium tier or higher`; undefined when every tier has it. */
export function describeTier(availability: Availability): string | undefined {
  const { tier } = availability;
  if (tier === undefined || tier === "free") return undefined;
  return tier === "ultimate" ? "the Ultimate tier" : `the ${tierName(tier)} tier or higher`;
}

/** `self-managed or dedicated instances`; undefined when every offering has it. */
export function describeOfferings(availability: Availability): string | undefined {
  const offerings = availability.offerings;
  if (offerings === undefined || OFFERINGS.every((offering) => offerings.includes(offering))) return undefined;
  return `${offerings.map(offeringName).join(" or ")} instances`;
}

/** `Premium tier or higher, self-managed or dedicated instances`, or `every tier and offering`. */
export function describeAvailability(availability: Availability): string {
  const parts = [describeTier(availability), describeOfferings(availability)].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(", on ") : "every tier and offering";
}
