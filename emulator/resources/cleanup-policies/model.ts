import { z } from "zod";
import { AccessLevel } from "../../../api";
import { CLEANUP_CADENCES, CLEANUP_KEEP_DAYS, CLEANUP_POLICY_DEFAULTS } from "../../../api/cleanup-policy";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { forbidden, modelValidationError, recordNotFound } from "../../core/errors";
import type { Actor, GroupRecord } from "../../core/records";
import { paramBoolean, paramInteger, paramIntegerOf, requireAtLeastOne, validate } from "../../core/validation";

/**
 * The spec's roles table does not name cleanup policies. The service asks for the Maintainer
 * role in the top-level group (the role that administers its virtual registries), for reads and
 * writes alike: chosen here, unconfirmed.
 */
const CLEANUP_POLICY_LEVEL = AccessLevel.Maintainer;

const DAY_MS = 86_400_000;

/** A group's cleanup policy (the API's virtual registry cleanup policy record). */
export interface CleanupPolicyRecord {
  group_id: number;
  next_run_at: string;
  last_run_at: string | null;
  last_run_deleted_size: number;
  last_run_deleted_entries_count: number;
  keep_n_days_after_download: number;
  status: string;
  cadence: number;
  enabled: boolean;
  notify_on_success: boolean;
  notify_on_failure: boolean;
  failure_message: string | null;
  last_run_detailed_metrics: Record<string, { deleted_entries_count: number; deleted_size: number }>;
  created_at: string;
  updated_at: string;
}

/** Out-of-range values are parameter errors (`... does not have a valid value`), as the service's
 *  parameter declarations (`values:`) report them. */
const keepDays = paramInteger().refine((n) => n >= CLEANUP_KEEP_DAYS.min && n <= CLEANUP_KEEP_DAYS.max, {
  error: "does not have a valid value",
});

const policyParams = z.object({
  cadence: paramIntegerOf(CLEANUP_CADENCES).optional(),
  enabled: paramBoolean().optional(),
  keep_n_days_after_download: keepDays.optional(),
  notify_on_success: paramBoolean().optional(),
  notify_on_failure: paramBoolean().optional(),
});

const POLICY_FIELDS = Object.keys(policyParams.shape);

type PolicyParams = z.output<typeof policyParams>;

/** One cleanup policy per top-level group. */
export class CleanupPolicies {
  constructor(
    private readonly core: Core,
    private readonly policies: Collection<CleanupPolicyRecord>,
  ) {}

  get(actor: Actor, groupRef: string): CleanupPolicyRecord {
    return { ...this.require(this.topLevelGroup(actor, groupRef)) };
  }

  create(actor: Actor, groupRef: string, input: Record<string, unknown>): CleanupPolicyRecord {
    const group = this.topLevelGroup(actor, groupRef);
    const params = validate(policyParams, input);
    if (this.find(group)) throw modelValidationError("group", "has already been taken");
    const now = this.core.clock.iso();
    const cadence = params.cadence ?? CLEANUP_POLICY_DEFAULTS.cadence;
    const record: CleanupPolicyRecord = {
      group_id: group.id,
      next_run_at: nextRun(now, cadence),
      last_run_at: null,
      last_run_deleted_size: 0,
      last_run_deleted_entries_count: 0,
      keep_n_days_after_download: params.keep_n_days_after_download ?? CLEANUP_POLICY_DEFAULTS.keepNDaysAfterDownload,
      status: "scheduled",
      cadence,
      enabled: params.enabled ?? CLEANUP_POLICY_DEFAULTS.enabled,
      notify_on_success: params.notify_on_success ?? CLEANUP_POLICY_DEFAULTS.notifyOnSuccess,
      notify_on_failure: params.notify_on_failure ?? CLEANUP_POLICY_DEFAULTS.notifyOnFailure,
      failure_message: null,
      last_run_detailed_metrics: {},
      created_at: now,
      updated_at: now,
    };
    return { ...this.policies.insert(record) };
  }

  update(actor: Actor, groupRef: string, input: Record<string, unknown>): CleanupPolicyRecord {
    const record = this.require(this.topLevelGroup(actor, groupRef));
    requireAtLeastOne(input, POLICY_FIELDS);
    const params: PolicyParams = validate(policyParams, input);
    if (params.cadence !== undefined && params.cadence !== record.cadence) {
      // Spec silent: the next run is counted from the last run (or the creation) with the new cadence.
      record.cadence = params.cadence;
      record.next_run_at = nextRun(record.last_run_at ?? record.created_at, record.cadence);
    }
    if (params.keep_n_days_after_download !== undefined) record.keep_n_days_after_download = params.keep_n_days_after_download;
    if (params.enabled !== undefined) record.enabled = params.enabled;
    if (params.notify_on_success !== undefined) record.notify_on_success = params.notify_on_success;
    if (params.notify_on_failure !== undefined) record.notify_on_failure = params.notify_on_failure;
    record.updated_at = this.core.clock.iso();
    return { ...record };
  }

  delete(actor: Actor, groupRef: string): void {
    this.policies.remove(this.require(this.topLevelGroup(actor, groupRef)));
  }

  /** The group, which must be top-level: a subgroup is refused with 403 (api-semantics.md). */
  private topLevelGroup(actor: Actor, ref: string): GroupRecord {
    const group = this.core.permissions.requireGroup(actor, ref, CLEANUP_POLICY_LEVEL);
    if (group.parent_id !== null) throw forbidden();
    return group;
  }

  private find(group: GroupRecord): CleanupPolicyRecord | undefined {
    return this.policies.find((policy) => policy.group_id === group.id);
  }

  /** A group without a policy: `404 Not found` (api-semantics.md). */
  private require(group: GroupRecord): CleanupPolicyRecord {
    const record = this.find(group);
    if (!record) throw recordNotFound();
    return record;
  }
}

function nextRun(from: string, cadenceDays: number): string {
  return new Date(Date.parse(from) + cadenceDays * DAY_MS).toISOString();
}
