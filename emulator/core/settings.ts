import { type Edition, HIGHEST_SELF_MANAGED } from "../../api/editions";

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
    ...HIGHEST_SELF_MANAGED,
  };
}
