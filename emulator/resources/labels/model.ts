import { z } from "zod";
import { AccessLevel } from "../../../api";
import type { Collection } from "../../core/collection";
import { normaliseColor, textColorFor } from "../../core/colors";
import type { Core } from "../../core/core";
import { conflict, modelValidationError, thingNotFound } from "../../core/errors";
import type { Actor, GroupRecord, ProjectRecord } from "../../core/records";
import { paramBoolean, paramString, requireAtLeastOne, validate } from "../../core/validation";

/**
 * A label. Subscriptions are per user. Group labels have a `group_id`; project labels (which
 * the emulator has no routes to make, but a state file can hold) a `project_id` instead: group
 * listings show them with `only_group_labels=false`.
 */
export interface LabelRecord {
  id: number;
  group_id: number | null;
  project_id?: number;
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

/** Parameters of `GET /groups/:id/labels/:label_id`: the scope of the lookup. */
const getLabelParams = z.object({
  include_ancestor_groups: optionalBoolean,
  include_descendant_groups: optionalBoolean,
  only_group_labels: optionalBoolean,
});

/** Parameters of `GET /groups/:id/labels`. */
const listLabelsParams = getLabelParams.extend({
  with_counts: optionalBoolean,
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
    const search = query.search?.toLowerCase();
    // Without the labels_archive flag the service ignores `archived` (no label is archived then).
    const archived = this.archiving() ? query.archived : undefined;
    return this.readable(actor, group, query)
      .filter((label) => archived === undefined || label.archived === archived)
      .filter((label) => !search || label.title.toLowerCase().includes(search) || (label.description ?? "").toLowerCase().includes(search))
      .sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id)
      .map((label) => this.serialize(label, actor, { counts: query.with_counts ?? false }));
  }

  get(actor: Actor, groupRef: string, labelRef: string, params: Params): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef);
    const query = validate(getLabelParams, params);
    return this.serialize(findIn(this.readable(actor, group, query), labelRef), actor);
  }

  create(actor: Actor, groupRef: string, params: Params): Record<string, unknown> {
    const group = this.core.permissions.requireGroup(actor, groupRef, LABEL_ADMIN_LEVEL);
    const input = validate(createLabelParams, params);
    const title = input.name.trim();
    if (!title) throw modelValidationError("title", "can't be blank");
    const color = this.checkedColor(input.color);
    if (this.titleTaken(group, title)) throw conflict("Label already exists");
    const now = this.core.clock.iso();
    const label: LabelRecord = {
      id: this.core.nextId("label"),
      group_id: group.id,
      title,
      color,
      description: input.description ?? null,
      archived: (this.archiving() && input.archived) || false,
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
    const label = findIn(this.labelsOf([group]), labelRef);
    if (input.new_name !== undefined) {
      const title = input.new_name.trim();
      if (!title) throw modelValidationError("title", "can't be blank");
      // The same uniqueness as create (the group and its ancestors), answered as update answers
      // a clash in the group itself: a model error. The spec gives neither; create's 409 is the
      // API's own check before it creates, update's clash comes from the record's validation.
      if (this.titleTaken(group, title, label)) throw modelValidationError("title", "has already been taken");
      label.title = title;
    }
    if (input.color !== undefined) label.color = this.checkedColor(input.color);
    if (input.description !== undefined) label.description = input.description;
    if (input.archived !== undefined && this.archiving()) label.archived = input.archived;
    label.updated_at = this.core.clock.iso();
    return this.serialize(label, actor);
  }

  /** `DELETE /groups/:id/labels/:label_id`; only labels of the group itself. */
  delete(actor: Actor, groupRef: string, labelRef: string): void {
    const group = this.core.permissions.requireGroup(actor, groupRef, LABEL_ADMIN_LEVEL);
    const label = findIn(this.labelsOf([group]), labelRef);
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
    const label = findIn(this.labelsOf(this.core.groups.selfAndAncestors(group)), labelRef);
    const isSubscribed = label.subscriber_ids.includes(user.id);
    if (isSubscribed === subscribed) return { changed: false, label: this.serialize(label, user) };
    label.subscriber_ids = subscribed ? [...label.subscriber_ids, user.id] : label.subscriber_ids.filter((id) => id !== user.id);
    return { changed: true, label: this.serialize(label, user) };
  }

  /**
   * The wire record. `subscribed` is the caller's own subscription. The counts come only with
   * `with_counts=true` (the service computes them on request); no issues or merge requests
   * exist in the emulator, so they are zero.
   */
  serialize(label: LabelRecord, actor: Actor, options: { counts?: boolean } = {}): Record<string, unknown> {
    const counts = options.counts ? { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 } : {};
    return {
      id: label.id,
      name: label.title,
      description: label.description,
      description_html: label.description === null ? null : renderDescription(label.description),
      text_color: textColorFor(label.color),
      color: label.color,
      archived: label.archived,
      ...counts,
      subscribed: actor ? label.subscriber_ids.includes(actor.id) : false,
      is_project_label: label.project_id !== undefined,
    };
  }

  private checkedColor(input: string): string {
    const color = normaliseColor(input);
    if (color === undefined) throw modelValidationError("color", "must be a valid color code");
    return color;
  }

  /** Whether the `labels_archive` flag is on; without it `archived` is ignored, as the service does. */
  private archiving(): boolean {
    return this.core.state.settings.labels_archive;
  }

  /** True when `title` is a label of the group or of an ancestor (`except`: the label being renamed). */
  private titleTaken(group: GroupRecord, title: string, except?: LabelRecord): boolean {
    return this.labelsOf(this.core.groups.selfAndAncestors(group)).some((l) => l.title === title && l !== except);
  }

  /**
   * The labels a read of `group` sees: its own, its ancestors' (default) and its visible
   * descendants' (on request); with `only_group_labels=false` also the labels of the projects
   * of those groups the caller can see.
   */
  private readable(actor: Actor, group: GroupRecord, query: z.infer<typeof getLabelParams>): LabelRecord[] {
    const groups = this.scopeGroups(actor, group, {
      ancestors: query.include_ancestor_groups ?? true,
      descendants: query.include_descendant_groups ?? false,
    });
    if (query.only_group_labels ?? true) return this.labelsOf(groups);
    const projects = new Set(this.projectsOf(actor, groups).map((project) => project.id));
    return [...this.labelsOf(groups), ...this.labels.list((label) => label.project_id !== undefined && projects.has(label.project_id))];
  }

  private projectsOf(actor: Actor, groups: GroupRecord[]): ProjectRecord[] {
    const ids = new Set(groups.map((g) => g.id));
    return this.core.projects.all().filter((p) => ids.has(p.namespace_id) && this.core.permissions.canSeeProject(actor, p));
  }

  private scopeGroups(actor: Actor, group: GroupRecord, scope: { ancestors: boolean; descendants: boolean }): GroupRecord[] {
    const groups = [group];
    if (scope.ancestors) groups.push(...this.core.groups.ancestors(group));
    if (scope.descendants) {
      const visible = this.core.groups.descendants(group).filter((g) => this.core.permissions.canSeeGroup(actor, g));
      groups.push(...visible);
    }
    return groups;
  }

  /** The group labels of these groups (project labels have no group). */
  private labelsOf(groups: GroupRecord[]): LabelRecord[] {
    const ids = new Set(groups.map((g) => g.id));
    return this.labels.list((label) => label.group_id !== null && ids.has(label.group_id));
  }
}

/**
 * `:label_id` is an id or a title (S3). Digits are tried as an id first, then as a title: the
 * service looks a label up that way (by id, else by title), so a label titled "123" is reached
 * by its title only while no label in scope has the id 123. Clients that mean a title should
 * list and match the name (the provider does).
 */
function findIn(candidates: LabelRecord[], labelRef: string): LabelRecord {
  const byId = /^\d+$/.test(labelRef) ? candidates.find((l) => l.id === Number(labelRef)) : undefined;
  const label = byId ?? candidates.find((l) => l.title === labelRef);
  if (!label) throw thingNotFound("Label");
  return label;
}

function renderDescription(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<p dir="auto">${escaped}</p>`;
}
