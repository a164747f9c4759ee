import { z } from "zod";
import { AccessLevel } from "../../../api";
import {
  EVENT_FLAG_DEFAULTS,
  INTEGRATION_FORMATS,
  INTEGRATIONS,
  USE_INHERITED_SETTINGS,
  type IntegrationKind,
  type IntegrationParameter,
} from "../../../api/integrations";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { modelValidationError, thingNotFound } from "../../core/errors";
import type { Actor, GroupRecord } from "../../core/records";
import { paramBoolean, paramEnum, paramString, validate } from "../../core/validation";

/** The API's roles table: group integrations need Maintainer in the group, reads included. */
const INTEGRATION_LEVEL = AccessLevel.Maintainer;

/**
 * One integration of a group, once set up. The spec shows no record; the shape is the real
 * service's: settings are kept by wire name, credentials among them, and left out when read.
 */
export interface IntegrationRecord {
  id: number;
  group_id: number;
  slug: string;
  created_at: string;
  updated_at: string;
  active: boolean;
  /** use_inherited_settings as last set. No instance-level integrations are modelled (the spec
   *  shows none), so the flag is kept and read back as `inherited`. */
  inherited: boolean;
  /** Every parameter of the slug, by wire name (credentials included): null when never set. */
  values: Record<string, string | boolean | null>;
}

const KINDS: readonly IntegrationKind[] = Object.values(INTEGRATIONS);

function parameterSchema(parameter: IntegrationParameter): z.ZodType {
  const schema =
    parameter.type === "boolean"
      ? paramBoolean()
      : parameter.values
        ? paramEnum(parameter.values as readonly [string, ...string[]])
        : paramString();
  return parameter.required ? schema : schema.optional();
}

/** The set-up's parameters: grape's `requires` and `optional` of each slug. */
const setUpParams = new Map(
  KINDS.map((kind) => [
    kind.slug,
    z.object({
      use_inherited_settings: parameterSchema(USE_INHERITED_SETTINGS),
      ...Object.fromEntries(Object.entries(kind.parameters).map(([wire, parameter]) => [wire, parameterSchema(parameter)])),
    }),
  ]),
);

/** What a parameter holds before any set-up and after a DELETE. */
function defaults(kind: IntegrationKind): Record<string, string | boolean | null> {
  return Object.fromEntries(Object.entries(kind.parameters).map(([wire, parameter]) => [wire, parameter.default ?? null]));
}

/** Group integrations: set up (PUT), read, disable (DELETE), and the listing of active ones. */
export class Integrations {
  constructor(
    private readonly core: Core,
    private readonly integrations: Collection<IntegrationRecord>,
  ) {}

  /** The active integrations of a group, as list entries, by id. */
  list(actor: Actor, groupRef: string): Record<string, unknown>[] {
    const group = this.group(actor, groupRef);
    return this.integrations.list((record) => record.group_id === group.id && record.active).map((record) => this.listEntry(record));
  }

  get(actor: Actor, groupRef: string, slug: string): Record<string, unknown> {
    return this.serialize(this.require(this.group(actor, groupRef), slug));
  }

  setUp(actor: Actor, groupRef: string, slug: string, input: Record<string, unknown>): Record<string, unknown> {
    const group = this.group(actor, groupRef);
    const kind = kindOf(slug);
    const params = validate(setUpParams.get(slug)!, input) as Record<string, string | boolean | undefined>;
    for (const [wire, parameter] of Object.entries(kind.parameters)) {
      const value = params[wire];
      if (typeof value !== "string") continue;
      // The service's model validations: required text cannot be blank, and a value of a format
      // (an address, e-mail recipients, key:value lines, a branch list) must be one. The same rule
      // the provider's check applies (api/integrations.ts), so that what the emulator takes a
      // program can declare, and an adopted object previews clean.
      if (parameter.required && value.trim() === "") throw modelValidationError(wire, "can't be blank");
      const format = parameter.format && INTEGRATION_FORMATS[parameter.format];
      if (format && value.trim() !== "" && !format.holds(value))
        throw modelValidationError(wire, parameter.format === "url" ? "must be a valid URL" : `must be ${format.rule}`);
    }
    const now = this.core.clock.iso();
    const record =
      this.find(group, slug) ??
      this.integrations.insert({
        id: this.core.nextId("integration"),
        group_id: group.id,
        slug,
        created_at: now,
        updated_at: now,
        active: false,
        inherited: false,
        values: defaults(kind),
      });
    for (const wire of Object.keys(kind.parameters)) if (params[wire] !== undefined) record.values[wire] = params[wire]!;
    // A deprecated switch without effect keeps its default (verification is always on).
    for (const [wire, parameter] of Object.entries(kind.parameters))
      if (parameter.deprecated) record.values[wire] = parameter.default ?? null;
    if (params["use_inherited_settings"] !== undefined) record.inherited = params["use_inherited_settings"] as boolean;
    record.active = true;
    record.updated_at = now;
    return this.serialize(record);
  }

  /** Disables the integration and resets its settings; the record stays, inactive. */
  disable(actor: Actor, groupRef: string, slug: string): void {
    const record = this.require(this.group(actor, groupRef), slug);
    record.values = defaults(kindOf(slug));
    record.active = false;
    record.inherited = false;
    record.updated_at = this.core.clock.iso();
  }

  private group(actor: Actor, groupRef: string): GroupRecord {
    return this.core.permissions.requireGroup(actor, groupRef, INTEGRATION_LEVEL);
  }

  private find(group: GroupRecord, slug: string): IntegrationRecord | undefined {
    return this.integrations.find((record) => record.group_id === group.id && record.slug === slug);
  }

  /** Never set up: `404 Integration Not Found`, as the service answers. */
  private require(group: GroupRecord, slug: string): IntegrationRecord {
    const record = this.find(group, slug);
    if (!record) throw thingNotFound("Integration");
    return record;
  }

  /** The API's list entry: identity, state and the event flags. */
  private listEntry(record: IntegrationRecord): Record<string, unknown> {
    const kind = kindOf(record.slug);
    const { vulnerability_events: _higherEdition, ...common } = EVENT_FLAG_DEFAULTS;
    // Vulnerability_events only in the higher edition (Ultimate).
    const events: Record<string, boolean> = this.core.editions.current().tier === "ultimate" ? { ...EVENT_FLAG_DEFAULTS } : { ...common };
    for (const [wire, parameter] of Object.entries(kind.parameters)) if (parameter.event) events[wire] = record.values[wire] === true;
    return {
      id: record.id,
      title: kind.title,
      slug: record.slug,
      created_at: record.created_at,
      updated_at: record.updated_at,
      active: record.active,
      inherited: record.inherited,
      ...events,
    };
  }

  /** The read of one integration: the list entry plus `properties`, credentials left out. */
  private serialize(record: IntegrationRecord): Record<string, unknown> {
    const kind = kindOf(record.slug);
    const properties = Object.fromEntries(
      Object.entries(kind.parameters)
        .filter(([, parameter]) => !parameter.event && parameter.secret !== "write-only")
        .map(([wire]) => [wire, record.values[wire] ?? null]),
    );
    return { ...this.listEntry(record), properties };
  }
}

function kindOf(slug: string): IntegrationKind {
  const kind = KINDS.find((candidate) => candidate.slug === slug);
  if (!kind) throw thingNotFound("Integration");
  return kind;
}
