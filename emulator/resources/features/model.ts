import { z } from "zod";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { badRequest } from "../../core/errors";
import type { Actor } from "../../core/records";
import { paramBoolean, paramEnum, paramString, validate } from "../../core/validation";

/** A stored feature and its gates (the service's feature flag library keeps one row per gate). */
export interface FeatureRecord {
  name: string;
  boolean: boolean;
  percentage_of_time: number | null;
  percentage_of_actors: number | null;
  /** Actor gates as the service names them: `User:4`, `Group:2`, `Namespace:2`, `Project:1`, `Repository:1`. */
  actors: string[];
  /** Feature group gates, by name. */
  groups: string[];
}

/**
 * The definitions this emulated instance ships (the service has one per feature in its code;
 * the spec shows no list, so a small fixed set). `GET /features/definitions` lists them, and a
 * POST of a name outside it is refused unless `force`.
 */
const FEATURE_DEFINITIONS = [
  definition("ci_pipeline_fast_start", "development", "group::pipeline execution", false, "17.2"),
  definition("merge_request_dashboard", "beta", "group::code review", false, "17.5"),
  definition("search_index_v2", "ops", "group::global search", true, "16.9"),
  definition("packages_cleanup_worker", "ops", "group::package registry", false, "17.0"),
];

/** Feature groups the instance knows (the service's `Feature.register_feature_groups`). */
const FEATURE_GROUPS = ["team_members", "beta_testers"] as const;

function definition(name: string, type: string, group: string, defaultEnabled: boolean, milestone: string) {
  return {
    name,
    introduced_by_url: `https://forge.example.com/forge/forge/-/merge_requests/${name.length * 1000}`,
    rollout_issue_url: `https://forge.example.com/forge/forge/-/issues/${name.length * 100}`,
    milestone,
    log_state_changes: null,
    type,
    group,
    default_enabled: defaultEnabled,
  };
}

const postParams = z.object({
  value: z.union([z.boolean(), z.number(), z.string()], { error: (issue) => (issue.input === undefined ? "is missing" : "is invalid") }),
  key: paramEnum(["percentage_of_actors", "percentage_of_time"]).optional(),
  feature_group: paramString().optional(),
  user: paramString().optional(),
  group: paramString().optional(),
  namespace: paramString().optional(),
  project: paramString().optional(),
  repository: paramString().optional(),
  force: paramBoolean().optional(),
});

type PostParams = z.output<typeof postParams>;

/** `true`/`false` as a boolean, an integer percentage as a number; anything else is invalid. */
function gateValue(value: PostParams["value"]): boolean | number {
  const text = String(value).trim().toLowerCase();
  if (text === "true" || text === "false") return text === "true";
  if (/^\d+$/.test(text)) {
    const percentage = Number(text);
    // Where the spec is silent: the service's percentage gates take 0 to 100.
    if (percentage > 100) throw badRequest("Value must be a percentage between 0 and 100");
    return percentage;
  }
  throw badRequest(`Value ${String(value)} is not a boolean or an integer percentage`);
}

const names = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");

/** Instance feature gates: administrators, self-managed. */
export class Features {
  constructor(
    private readonly core: Core,
    private readonly features: Collection<FeatureRecord>,
  ) {}

  list(actor: Actor): Record<string, unknown>[] {
    this.core.permissions.requireAdmin(actor);
    return [...this.features.all()].sort((a, b) => a.name.localeCompare(b.name)).map(serialize);
  }

  definitions(actor: Actor): Record<string, unknown>[] {
    this.core.permissions.requireAdmin(actor);
    return FEATURE_DEFINITIONS.map((entry) => ({ ...entry }));
  }

  /**
   * POST /features/:name. Flipper semantics, as the service has them: `true` without targets
   * turns the feature fully on and clears every other gate; `false` without targets clears every
   * gate; with targets, `true` adds and `false` removes those actors' gates. A percentage sets
   * its gate (0 removes it). Where the spec is silent: a percentage with actor targets is refused
   * (400), since the service would apply it to the whole feature and ignore the targets.
   */
  set(actor: Actor, name: string, input: Record<string, unknown>): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    const params = validate(postParams, input);
    const known = FEATURE_DEFINITIONS.some((entry) => entry.name === name);
    if (!known && !params.force) throw badRequest(`The feature flag YAML definition for '${name}' does not exist`);
    const value = gateValue(params.value);
    const targets = this.targets(params);
    const record =
      this.features.find((feature) => feature.name === name) ??
      this.features.insert({ name, boolean: false, percentage_of_time: null, percentage_of_actors: null, actors: [], groups: [] });
    if (typeof value === "number") {
      if (targets.actors.length > 0 || targets.groups.length > 0)
        throw badRequest("A percentage cannot be combined with feature_group, user, group, namespace, project or repository");
      const key = params.key ?? "percentage_of_time";
      record[key] = value === 0 ? null : value;
      // A boolean gate `false` and the percentage gate exist afterwards.
      record.boolean = false;
    } else if (targets.actors.length === 0 && targets.groups.length === 0) {
      Object.assign(record, { boolean: value, percentage_of_time: null, percentage_of_actors: null, actors: [], groups: [] });
    } else if (value) {
      record.actors = [...new Set([...record.actors, ...targets.actors])];
      record.groups = [...new Set([...record.groups, ...targets.groups])];
    } else {
      record.actors = record.actors.filter((id) => !targets.actors.includes(id));
      record.groups = record.groups.filter((group) => !targets.groups.includes(group));
    }
    return serialize(record);
  }

  /** DELETE /features/:name: the same answer whether or not the feature existed. */
  delete(actor: Actor, name: string): void {
    this.core.permissions.requireAdmin(actor);
    const record = this.features.find((feature) => feature.name === name);
    if (record) this.features.remove(record);
  }

  /** The actor ids of the targets; an unknown one is `400 Bad request - <name> is not found!`. */
  private targets(params: PostParams): { actors: string[]; groups: string[] } {
    const resolve = (list: string | undefined, find: (name: string) => string | undefined) =>
      names(list).map((name) => {
        const id = find(name);
        if (!id) throw badRequest(`${name} is not found!`);
        return id;
      });
    const { users, groups, projects } = this.core;
    const groupId = (ref: string) => groups.byRef(ref)?.id;
    const projectId = (ref: string) => projects.byRef(ref)?.id;
    const actors = [
      ...resolve(params.user, (name) => maybe("User", users.byUsername(name)?.id)),
      ...resolve(params.group, (ref) => maybe("Group", groupId(ref))),
      // A namespace is a group's or a user's.
      ...resolve(params.namespace, (ref) => maybe("Namespace", groupId(ref) ?? users.byUsername(ref)?.id)),
      ...resolve(params.project, (ref) => maybe("Project", projectId(ref))),
      ...resolve(params.repository, (ref) => maybe("Repository", projectId(ref))),
    ];
    const featureGroups = names(params.feature_group);
    for (const group of featureGroups)
      if (!(FEATURE_GROUPS as readonly string[]).includes(group)) throw badRequest(`${group} is not found!`);
    return { actors, groups: featureGroups };
  }
}

const maybe = (kind: string, id: number | undefined) => (id === undefined ? undefined : `${kind}:${id}`);

/** The feature record: state, gates (only those set), definition. */
function serialize(record: FeatureRecord): Record<string, unknown> {
  const gates: { key: string; value: unknown }[] = [{ key: "boolean", value: record.boolean }];
  if (record.percentage_of_time !== null) gates.push({ key: "percentage_of_time", value: record.percentage_of_time });
  if (record.percentage_of_actors !== null) gates.push({ key: "percentage_of_actors", value: record.percentage_of_actors });
  if (record.actors.length > 0) gates.push({ key: "actors", value: [...record.actors] });
  if (record.groups.length > 0) gates.push({ key: "groups", value: [...record.groups] });
  const state = record.boolean ? "on" : gates.length > 1 ? "conditional" : "off";
  const found = FEATURE_DEFINITIONS.find((entry) => entry.name === record.name);
  const definition = found
    ? {
        name: found.name,
        introduced_by_url: found.introduced_by_url,
        rollout_issue_url: found.rollout_issue_url,
        group: found.group,
        type: found.type,
        default_enabled: found.default_enabled,
      }
    : null;
  return { name: record.name, state, gates, definition };
}
