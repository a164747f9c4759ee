import { z } from "zod";
import { BROADCAST_FONT, BROADCAST_TARGET_LEVELS, BROADCAST_THEMES, BROADCAST_TYPES } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { modelValidationError } from "../../core/errors";
import { addMilliseconds } from "../../core/time";
import type { Actor } from "../../core/records";
import { paramBoolean, paramDatetime, paramEnum, paramIntegerArrayOf, paramString, validate } from "../../core/validation";

const ONE_HOUR_MS = 60 * 60 * 1000;

/** A stored broadcast message; `active` is computed from the time window when read. */
export interface BroadcastMessageRecord {
  id: number;
  message: string;
  starts_at: string;
  ends_at: string;
  font: string;
  target_access_levels: number[];
  target_path: string;
  broadcast_type: (typeof BROADCAST_TYPES)[number];
  dismissable: boolean;
  theme: (typeof BROADCAST_THEMES)[number];
}

const optionalFields = {
  starts_at: paramDatetime().optional(),
  ends_at: paramDatetime().optional(),
  font: paramString().optional(),
  target_access_levels: paramIntegerArrayOf(BROADCAST_TARGET_LEVELS).optional(),
  target_path: paramString().optional(),
  broadcast_type: paramEnum(BROADCAST_TYPES).optional(),
  dismissable: paramBoolean().optional(),
  theme: paramEnum(BROADCAST_THEMES).optional(),
};

/** Body of `POST /broadcast_messages` (only `message` is required). */
const createBroadcastMessageParams = z.object({ message: paramString(), ...optionalFields });
/** Body of `PUT /broadcast_messages/:id` (everything optional). */
const updateBroadcastMessageParams = z.object({
  message: paramString().optional(),
  ...optionalFields,
});

type Params = Record<string, unknown>;

/** Broadcast messages: public reads, administrator writes. */
export class BroadcastMessages {
  constructor(
    private readonly core: Core,
    private readonly messages: Collection<BroadcastMessageRecord>,
  ) {}

  /** Newest first, as the service lists them. */
  list(): Record<string, unknown>[] {
    return this.messages.list(undefined, (a, b) => b.id - a.id).map((message) => this.serialize(message));
  }

  get(id: string): Record<string, unknown> {
    return this.serialize(this.find(id));
  }

  create(actor: Actor, params: Params): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const input = validate(createBroadcastMessageParams, params);
    const startsAt = input.starts_at ?? this.core.clock.iso();
    const record: BroadcastMessageRecord = {
      id: this.core.nextId("broadcast_message"),
      message: input.message,
      starts_at: startsAt,
      ends_at: input.ends_at ?? addMilliseconds(this.core.clock.iso(), ONE_HOUR_MS),
      font: checkedFont(input.font) ?? "#FFFFFF",
      target_access_levels: input.target_access_levels ?? [],
      target_path: input.target_path ?? "",
      broadcast_type: input.broadcast_type ?? "banner",
      dismissable: input.dismissable ?? false,
      theme: input.theme ?? "indigo",
    };
    checkRecord(record, input.theme);
    this.messages.insert(record);
    return this.serialize(record);
  }

  update(actor: Actor, id: string, params: Params): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const record = this.find(id);
    const input = validate(updateBroadcastMessageParams, params);
    const font = checkedFont(input.font);
    const next: BroadcastMessageRecord = {
      ...record,
      ...definedOnly({ ...input, font }),
    };
    checkRecord(next, input.theme);
    Object.assign(record, next);
    return this.serialize(record);
  }

  delete(actor: Actor, id: string): void {
    this.core.permissions.requireAdmin(actor);
    const record = this.find(id);
    this.messages.remove(record);
  }

  serialize(record: BroadcastMessageRecord, now: Date = this.core.clock.date()): Record<string, unknown> {
    const time = now.getTime();
    return {
      id: record.id,
      message: record.message,
      starts_at: record.starts_at,
      ends_at: record.ends_at,
      font: record.font,
      active: Date.parse(record.starts_at) <= time && time < Date.parse(record.ends_at),
      target_access_levels: record.target_access_levels,
      target_path: record.target_path,
      broadcast_type: record.broadcast_type,
      dismissable: record.dismissable,
      // Themes are for banners only (S1, S2): a notification has none. A banner's theme is kept
      // while the message is a notification and shows again if it becomes a banner.
      theme: record.broadcast_type === "banner" ? record.theme : null,
    };
  }

  private find(id: string): BroadcastMessageRecord {
    return this.messages.requirePathId("id", id);
  }
}

/** The spec's "foreground color hex code": `#RGB` or `#RRGGBB`, kept as sent (no colour names). */
function checkedFont(font: string | undefined): string | undefined {
  if (font !== undefined && !BROADCAST_FONT.test(font)) throw modelValidationError("font", "must be a valid color code");
  return font;
}

/** Rules across fields, on the record as it would be stored; `theme` is the one sent, if any. */
function checkRecord(record: BroadcastMessageRecord, theme: string | undefined): void {
  if (!record.message.trim()) throw modelValidationError("message", "can't be blank");
  // The spec does not say whether an empty window (ends_at = starts_at) is allowed; the
  // service's message says "after", and such a message would never show: refused, as the
  // provider's check does.
  if (Date.parse(record.ends_at) <= Date.parse(record.starts_at)) {
    throw modelValidationError("ends_at", "must be after the start date");
  }
  // "Banners only" (S2): a theme sent for a notification is refused rather than dropped, as the
  // provider's check does; the spec gives no wording, this is the model error's usual form.
  if (theme !== undefined && record.broadcast_type === "notification") {
    throw modelValidationError("theme", "is only available for banners");
  }
}

function definedOnly<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}
