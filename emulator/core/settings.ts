import { type Edition, HIGHEST_SELF_MANAGED } from "../../api/editions";

/**
 * The release the emulator reports unless told otherwise (`GET /version`): the spec states release
 * 17.0's rules and plans for 18.0, so a 17 release.
 */
export const DEFAULT_REPORTED_VERSION = "17.11.0";

/** Instance-wide application settings the emulated endpoints depend on. */
export interface InstanceSettings extends Edition {
  /** When on, every project's job token allowlist is enforced and cannot be disabled. */
  job_token_scope_enforced: boolean;
  /** `enable_member_promotion_management`: promotions into billable roles are queued. */
  member_promotion_management: boolean;
  /** The `labels_archive` feature flag: labels can be archived and listings filtered by it. */
  labels_archive: boolean;
  /** How long a repository storage move takes, in milliseconds (0: done when scheduled). */
  storage_move_ms: number;
  /** When not empty, repository storage moves end `failed` with this error message. */
  storage_move_error: string;
  /**
   * The release `GET /version` reports (`17.11.0`; `-ee` is added on a paid tier). It changes
   * nothing else: the emulator serves the spec's endpoints whatever it reports.
   */
  version: string;
}

/**
 * Settings of a fresh instance: no enforcement, no promotion queue, no label archiving (the flag
 * is off by default), storage moves that take a second and succeed, and the highest self-managed edition (Ultimate), so that every feature a
 * self-managed instance can have works.
 */
export function defaultSettings(): InstanceSettings {
  return {
    job_token_scope_enforced: false,
    member_promotion_management: false,
    labels_archive: false,
    // Long enough to see a move in progress, short enough for a test to wait for it.
    storage_move_ms: 1_000,
    storage_move_error: "",
    version: DEFAULT_REPORTED_VERSION,
    ...HIGHEST_SELF_MANAGED,
  };
}
