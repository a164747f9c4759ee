import { z } from "zod";
import { AccessLevel } from "../../../spec";
import type { Collection } from "../../core/collection";
import { normaliseColor, textColorFor } from "../../core/colors";
import type { Core } from "../../core/core";
import { conflict, modelValidationError, thingNotFound } from "../../core/errors";
import { isoTimestamp } from "../../core/time";
import type { Actor, GroupRecord } from "../../core/records";
import { paramBoolean, paramString, requireAtLeastOne, validate } from "../../core/validation";

/** A group label. Subscriptions are per user. */
export interface LabelRecord {
  id: number;
  group_id: number;
  title: string;
  color: string;
  description: string | null;
  archived: boolean;
  subscriber_ids: number[];
  created_at: string;
  updated_at: string;
}

/**
 * Managing labels is the `admin_label` permission, which the real service grants from the
 * Planner role up (Planner was introduced below Reporter and includes label management).
 * Reading only needs the group to be visible.
 */
const LABEL_ADMIN_LEVEL = AccessLevel.Planner;

const optionalBoolean = paramBoolean().optional();

/** Parameters of `GET /groups/:id/labels` (and the single read, which uses the scope flags). */
const listLabelsParams = z.object({
  with_counts: optionalBoolean,
  include_ancestor_groups: optionalBoolean,
  include_descendant_groups: optionalBoolean,
  only_group_labels: optionalBoolean,
  search: paramString().optional(),
  archived: optionalBoolean,
});

/** Body of `POST /groups/:id/labels`. */
const createLabelParams = z.object({
  name: paramString(),
  color: paramString(),
  description: paramString().nullish(),
  archived: optionalBoolean,
});

/** Body of `PUT /groups/:id/labels/:label_id` (at least one field). */
const updateLabelParams = z.object({
  new_name: paramString().optional(),
  color: paramString().optional(),
  description: paramString().nullish(),
  archived: optionalBoolean,
});

const UPDATE_FIELDS = ["new_name", "color", "description", "archived"] as const;

type Params = Record<string, unknown>;

/** Group labels: scope rules (ancestors, descendants), uniqueness, colors, subscriptions. */
export class Labels {
  constructor(
    private readonly core: Core,
    private readonly labels: Collection<LabelRecord>,
  ) {}

  list(actor: Actor, groupRef: string, params: Params): Record<string, unknown>[] {
    const group = this.core.permissions.requireGroup(actor, groupRef);
    const query = validate(listLabelsParams, params);
    const groups = this.scopeGroups(actor, group, {
      ancestors: query.include_ancestor_groups ?? true,
      descendants: query.include_descendant_groups ?? false,
    });
    const search = query.search?.toLowerCase();
    return this.labelsOf(groups)
      .filter((label) => query.archived === undefined || label.archived === query.archived)
      .filter(
        (label) =>
          !search ||
          label.title.toLowerCase().includes(search) ||
          (label.description ?? "").toLowerCase().includes(search),
      )
      .sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id)
      .map((label) => this.serialize(label, actor));
  }

  get(actor: Actor, groupRef: string, labelRef: string, params: Params): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef);
    const query = validate(listLabelsParams, params);
    const groups = this.scopeGroups(actor, group, {
      ancestors: query.include_ancestor_groups ?? true,
      descendants: query.include_descendant_groups ?? false,
    });
    return this.serialize(this.find(groups, labelRef), actor);
  }

  create(actor: Actor, groupRef: string, params: Params): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef, LABEL_ADMIN_LEVEL);
    const input = validate(createLabelParams, params);
    const title = input.name.trim();
    if (!title) throw modelValidationError("title", "can't be blank");
    const color = this.checkedColor(input.color);
    // Uniqueness covers the group and its ancestors: their labels are available here too.
    const taken = this.labelsOf(this.core.groups.selfAndAncestors(group)).some((l) => l.title === title);
    if (taken) throw conflict("Label already exists");
    const now = isoTimestamp();
    const label: LabelRecord = {
      id: this.core.nextId("label"),
      group_id: group.id,
      title,
      color,
      description: input.description ?? null,
      archived: input.archived ?? false,
      subscriber_ids: [],
      created_at: now,
      updated_at: now,
    };
    this.labels.insert(label);
    return this.serialize(label, actor);
  }

  /** `PUT /groups/:id/labels/:label_id`; only labels of the group itself can be changed. */
  update(actor: Actor, groupRef: string, labelRef: string, params: Params): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef, LABEL_ADMIN_LEVEL);
    const input = validate(updateLabelParams, params);
    requireAtLeastOne(params, UPDATE_FIELDS);
    const label = this.find([group], labelRef);
    if (input.new_name !== undefined) {
      const title = input.new_name.trim();
      if (!title) throw modelValidationError("title", "can't be blank");
      const clash = this.labelsOf([group]).some((l) => l.title === title && l.id !== label.id);
      if (clash) throw modelValidationError("title", "has already been taken");
      label.title = title;
    }
    if (input.color !== undefined) label.color = this.checkedColor(input.color);
    if (input.description !== undefined) label.description = input.description;
    if (input.archived !== undefined) label.archived = input.archived;
    label.updated_at = isoTimestamp();
    return this.serialize(label, actor);
  }

  /** `DELETE /groups/:id/labels/:label_id`; only labels of the group itself. */
  delete(actor: Actor, groupRef: string, labelRef: string): void {
    const group = this.core.permissions.requireGroup(actor, groupRef, LABEL_ADMIN_LEVEL);
    const label = this.find([group], labelRef);
    this.labels.remove(label);
  }

  /**
   * Subscribes (or unsubscribes) the caller. `changed` is false when the caller already was in
   * the requested state: the HTTP layer answers 304 then.
   */
  setSubscription(
    actor: Actor,
    groupRef: string,
    labelRef: string,
    subscribed: boolean,
  ): { changed: boolean; label: Record<string, unknown> } {
    const user = this.core.permissions.requireUser(actor);
    const group = this.core.permissions.requireGroup(user, groupRef);
    const label = this.find(this.core.groups.selfAndAncestors(group), labelRef);
    const isSubscribed = label.subscriber_ids.includes(user.id);
    if (isSubscribed === subscribed) return { changed: false, label: this.serialize(label, user) };
    label.subscriber_ids = subscribed
      ? [...label.subscriber_ids, user.id]
      : label.subscriber_ids.filter((id) => id !== user.id);
    return { changed: true, label: this.serialize(label, user) };
  }

  /** The wire record. `subscribed` is the caller's own subscription. */
  serialize(label: LabelRecord, actor: Actor): Record<string, unknown> {
    return {
      id: label.id,
      name: label.title,
      description: label.description,
      description_html: label.description === null ? null : renderDescription(label.description),
      text_color: textColorFor(label.color),
      color: label.color,
      archived: label.archived,
      // No issues or merge requests exist in the emulator: the counts are always zero.
      open_issues_count: 0,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      subscribed: actor ? label.subscriber_ids.includes(actor.id) : false,
      is_project_label: false,
    };
  }

  private checkedColor(input: string): string {
    const color = normaliseColor(input);
    if (color === undefined) throw modelValidationError("color", "must be a valid color code");
    return color;
  }

  private scopeGroups(
    actor: Actor,
    group: GroupRecord,
    scope: { ancestors: boolean; descendants: boolean },
  ): GroupRecord[] {
    const groups = [group];
    if (scope.ancestors) groups.push(...this.core.groups.ancestors(group));
    if (scope.descendants) {
      const visible = this.core.groups
        .descendants(group)
        .filter((g) => this.core.permissions.canSeeGroup(actor, g));
      groups.push(...visible);
    }
    return groups;
  }

  private labelsOf(groups: GroupRecord[]): LabelRecord[] {
    const ids = new Set(groups.map((g) => g.id));
    return this.labels.list((label) => ids.has(label.group_id));
  }

  /** `:label_id` is an id (when it is all digits and such a label exists) or else a title. */
  private find(groups: GroupRecord[], labelRef: string): LabelRecord {
    const candidates = this.labelsOf(groups);
    const byId = /^\d+$/.test(labelRef) ? candidates.find((l) => l.id === Number(labelRef)) : undefined;
    const label = byId ?? candidates.find((l) => l.title === labelRef);
    if (!label) throw thingNotFound("Label");
    return label;
  }
}

function renderDescription(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<p dir="auto">${escaped}</p>`;
}
