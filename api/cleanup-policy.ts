/*
 * Virtual registry cleanup policies (the API's limits; its parameter rules). The
 * defaults are not in the spec: they are the service's (a weekly run keeping entries downloaded
 * in the last 30 days, off until enabled, no notifications), used by the emulator for a POST
 * without them and by the provider as what dropping an input resets to.
 */

/** Days between runs: daily, weekly, bi-weekly, monthly, quarterly. */
export const CLEANUP_CADENCES = [1, 7, 14, 30, 90] as const;

/** `keep_n_days_after_download`: from 1 to 365. */
export const CLEANUP_KEEP_DAYS = { min: 1, max: 365 } as const;

/** What a policy created without a value has. */
export const CLEANUP_POLICY_DEFAULTS = {
  cadence: 7,
  keepNDaysAfterDownload: 30,
  enabled: false,
  notifyOnSuccess: false,
  notifyOnFailure: false,
} as const;
