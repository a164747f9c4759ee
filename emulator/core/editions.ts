import { type Availability, type Edition, offeringIncludes, offeringName, tierIncludes, tierName } from "../../api/editions";
import { forbidden, routeNotFound, unauthorized } from "./errors";
import type { Actor } from "./records";
import type { Database } from "./state";

/**
 * The instance's edition (tier and offering, an instance setting) and the gate of the features
 * it lacks (the API's availability table). The spec does not show the answers; the emulator
 * gives the ones the service gives for the same situation elsewhere:
 * - a feature absent from the offering: 404 `{"error":"404 Not Found"}`, the unknown-route
 *   answer, before credentials are looked at, because the endpoint does not exist there;
 * - a tier below the feature's: 403 `{"message":"403 Forbidden"}`, the answer of a role too low
 *   (the service checks the licence as a permission), after credentials (anonymous: 401).
 */
export class Editions {
  constructor(private readonly database: Database) {}

  /** The edition the instance runs now. */
  current(): Edition {
    const { tier, offering } = this.database.state.settings;
    return { tier, offering };
  }

  /** 404 as an unknown route when the instance's offering lacks the feature. */
  requireOffering(availability: Availability): void {
    if (!offeringIncludes(this.current().offering, availability)) throw routeNotFound();
  }

  /** 401 for anonymous callers, then 403 when the instance's tier is below the feature's. */
  requireTier(availability: Availability, actor: Actor): void {
    if (tierIncludes(this.current().tier, availability.tier)) return;
    throw actor ? forbidden() : unauthorized();
  }

  /** Both checks, for a model method that gates part of what it does. */
  require(availability: Availability, actor: Actor): void {
    this.requireOffering(availability);
    this.requireTier(availability, actor);
  }
}

/** `Ultimate, self-managed`: for banners. */
export function editionLabel(edition: Edition): string {
  return `${tierName(edition.tier)}, ${offeringName(edition.offering)}`;
}
