import { z } from "zod";
import type { OperationContext, State, WireRecord } from "../engine/declaration";
import { defineResource } from "../engine/declaration";
import { crossFieldRule, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, presentFeatureActors, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";
import { APPLIED_KEY } from "../engine/bookkeeping";

const SET = routes.features.set;

/** A percentage gate: an integer from 0 (no gate) to 100. */
const percentage = (what: string) =>
  z
    .number()
    .int({ error: (issue) => `${show(issue.input)} is not a whole percentage. Give ${what} as an integer from 0 to 100.` })
    .min(0, { error: (issue) => `${show(issue.input)} is below 0. Give ${what} as an integer from 0 to 100.` })
    .max(100, { error: (issue) => `${show(issue.input)} is above 100. Give ${what} as an integer from 0 to 100.` });

/** A list of actors of one kind, by name or path; compared as a set. */
const actorList = (example: string) =>
  z.array(
    z
      .string()
      .trim()
      .min(1, { error: "An actor is blank. Give its name or path." })
      .check(
        valueRule({
          format: "actor",
          rule: "one name or path, without commas",
          holds: (value) => !value.includes(","),
          message: (value) => `${show(value)} holds a comma. Give one actor per entry, such as ${example}.`,
        }),
      ),
  );

const sortedSet = (value: unknown) => (Array.isArray(value) ? [...new Set(value.map(String))].sort() : value);

/** The actor inputs, their wire parameter and the prefix of the forge's actor ids (`User:4`). */
const ACTOR_KINDS = [
  { input: "users", param: "user", prefix: "User" },
  { input: "groups", param: "group", prefix: "Group" },
  { input: "namespaces", param: "namespace", prefix: "Namespace" },
  { input: "projects", param: "project", prefix: "Project" },
  { input: "repositories", param: "repository", prefix: "Repository" },
] as const;

/** The forge's id of an actor named in the program, or undefined when it does not exist. */
async function actorId(ctx: OperationContext, prefix: string, name: string): Promise<string | undefined> {
  const user = async () => (await ctx.list<{ id: number }>(routes.users.list, {}, { username: name }))[0]?.id;
  const byPath = async (route: typeof routes.groups.get | typeof routes.projects.get, state: State) => {
    try {
      return (await ctx.call<{ id: number }>(route, state)).id;
    } catch {
      return undefined;
    }
  };
  const id =
    prefix === "User"
      ? await user()
      : prefix === "Group"
        ? await byPath(routes.groups.get, { group: name })
        : prefix === "Namespace"
          ? ((await byPath(routes.groups.get, { group: name })) ?? (await user()))
          : await byPath(routes.projects.get, { project: name });
  return id === undefined ? undefined : `${prefix}:${id}`;
}

/**
 * The feature's record with its actor gates named as the program names them: the forge lists
 * actors by id (`User:4`), so each name the state holds is resolved and matched; an actor gate
 * the program does not name stays in its id form, which shows as a change.
 */
async function readFeature(ctx: OperationContext, state: State): Promise<WireRecord | undefined> {
  const features = await ctx.list(routes.features.list, state);
  const record = features.find((feature) => feature["name"] === state["name"]);
  if (!record) return undefined;
  const gates = (record["gates"] as { key: string; value: unknown }[] | undefined) ?? [];
  const actorIds = (gates.find((gate) => gate.key === "actors")?.value as string[] | undefined) ?? [];
  const named: WireRecord = {};
  for (const kind of ACTOR_KINDS) {
    const ids = actorIds.filter((id) => id.startsWith(`${kind.prefix}:`));
    const names: string[] = [];
    const matched = new Set<string>();
    for (const name of (state[kind.input] as string[] | undefined) ?? []) {
      const id = await actorId(ctx, kind.prefix, name);
      if (id !== undefined && ids.includes(id)) {
        names.push(name);
        matched.add(id);
      }
    }
    named[kind.input] = [...names, ...ids.filter((id) => !matched.has(id))];
  }
  return { ...record, ...named };
}

/**
 * Writes the program's gates. `true` alone turns the feature fully on (the forge clears the
 * other gates). Otherwise `false` first clears every gate, then each gate is written: the
 * percentages, then the actors in one call (the forge takes one feature group per call, so a
 * second group is a call of its own). Clearing first is what removes an actor the program
 * dropped; between the two the feature is briefly off for those actors.
 */
async function applyGates(ctx: OperationContext, current: State): Promise<WireRecord> {
  // Only the gates the program sets: the state also holds what was read of the others.
  const applied = (current[APPLIED_KEY] as string[] | undefined) ?? [];
  const state = Object.fromEntries(Object.entries(current).filter(([key]) => key === "name" || applied.includes(key)));
  const force = state["force"] === true ? { force: true } : {};
  const set = (params: Record<string, unknown>) => ctx.call(SET, state, { ...params, ...force });
  if (state["enabled"] === true) {
    await set({ value: true });
  } else {
    await set({ value: false });
    if (state["percentageOfTime"]) await set({ value: state["percentageOfTime"], key: "percentage_of_time" });
    if (state["percentageOfActors"]) await set({ value: state["percentageOfActors"], key: "percentage_of_actors" });
    const joined = (key: string) => ((state[key] as string[] | undefined) ?? []).join(",") || undefined;
    const targets = Object.fromEntries(ACTOR_KINDS.map((kind) => [kind.param, joined(kind.input)]));
    const [firstGroup, ...otherGroups] = (state["featureGroups"] as string[] | undefined) ?? [];
    if (firstGroup !== undefined || Object.values(targets).some((value) => value !== undefined))
      await set({ value: true, ...targets, feature_group: firstGroup });
    for (const group of otherGroups) await set({ value: true, feature_group: group });
  }
  const record = await readFeature(ctx, state);
  if (!record) throw new Error(`Feature ${String(state["name"])}: not listed right after it was written`);
  return record;
}

/** An instance feature gate, typed: one resource per feature name (administrator, self-managed). */
export const feature = defineResource({
  name: "Feature",
  summary: "An instance feature gate: on, off, a percentage of time or of actors, or on for chosen actors.",
  inputs: z
    .object({
      /** The feature's name, as its definition names it (`listFeatureDefinitions`). Changing it replaces the resource. */
      name: z.string().check(
        valueRule({
          format: "feature-name",
          rule: "lower-case letters, digits and underscores",
          holds: (value) => /^[a-z0-9_]+$/.test(value),
          message: (value) =>
            `${show(value)} is not a feature name. Feature names are lower-case words joined by underscores, such as "search_index_v2".`,
        }),
      ),
      /** `true` turns the feature on for everyone (no other gate may be set then); `false` keeps it off except for the gates below. */
      enabled: z.boolean().optional(),
      /** On for this percentage of the time (0 to 100). */
      percentageOfTime: percentage("percentageOfTime").optional(),
      /** On for this percentage of actors, the same actors each time (0 to 100). */
      percentageOfActors: percentage("percentageOfActors").optional(),
      /** On for these users, by username. */
      users: actorList('"dev"').optional(),
      /** On for these groups, by full path. */
      groups: actorList('"acme/platform"').optional(),
      /** On for these namespaces (a group's full path or a username). */
      namespaces: actorList('"acme"').optional(),
      /** On for these projects, by full path. */
      projects: actorList('"acme/web"').optional(),
      /** On for these repositories (of a project, its wiki or a snippet), by path. */
      repositories: actorList('"acme/web"').optional(),
      /** On for these feature groups (groups of users the forge defines, such as `beta_testers`). */
      featureGroups: actorList('"beta_testers"').optional(),
      /** Set a feature that has no definition on the forge (the forge refuses one otherwise). */
      force: z.boolean().optional(),
    })
    .check(
      crossFieldRule({
        rule: "enabled true only without other gates",
        problem: (args) => {
          if (args.enabled !== true) return undefined;
          const others = ["percentageOfTime", "percentageOfActors", ...ACTOR_KINDS.map((kind) => kind.input), "featureGroups"].filter(
            (key) => {
              const value = (args as Record<string, unknown>)[key];
              return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== 0;
            },
          );
          if (others.length === 0) return undefined;
          return {
            path: ["enabled"],
            message: `A feature turned on for everyone has no other gates, and this one also sets ${others.join(", ")}. Remove enabled (or set it to false) to keep those gates, or remove them.`,
          };
        },
      }),
    ),
  outputs: z.object({
    /** `on`, `off` or `conditional` (some gates set). */
    state: z.string(),
    /** The feature's definition on the forge (type, group, default), or null for a forced one. */
    definition: z.record(z.string(), z.unknown()).nullable(),
  }),
  idParts: ["name"],
  identity: { fields: ["name"], describe: (state) => `the feature gate ${show(state["name"])}` },
  create: SET,
  read: routes.features.list,
  update: SET,
  delete: routes.features.delete,
  replaceOn: ["name"],
  // Every gate is written by applyGates from the whole desired state: dropping one sends its
  // empty value, which the next apply leaves out.
  resets: {
    enabled: false,
    percentageOfTime: 0,
    percentageOfActors: 0,
    users: [],
    groups: [],
    namespaces: [],
    projects: [],
    repositories: [],
    featureGroups: [],
    force: false,
  },
  normalize: Object.fromEntries([...ACTOR_KINDS.map((kind) => kind.input), "featureGroups"].map((key) => [key, sortedSet])),
  hooks: {
    read: readFeature,
    create: applyGates,
    update: (ctx, state) => applyGates(ctx, state),
    mapRecord: (record) => {
      const gates = (record["gates"] as { key: string; value: unknown }[] | undefined) ?? [];
      const gate = (key: string) => gates.find((entry) => entry.key === key)?.value;
      return {
        enabled: gate("boolean") === true,
        percentageOfTime: gate("percentage_of_time") ?? 0,
        percentageOfActors: gate("percentage_of_actors") ?? 0,
        featureGroups: gate("groups") ?? [],
      };
    },
  },
  notes: [
    "One resource per feature name, owning every gate of the feature: a change writes the program's gates and clears the others. Deleting it deletes the feature's gates: the forge then falls back to the definition's default.",
    "A change rewrites every gate: `false` clears them, then the program's gates are written again, so a dropped actor loses its gate. Between the calls the feature is briefly off for the actors being rewritten.",
    "The forge lists actor gates by internal id (`User:4`); the resource resolves the names it manages, and an actor gate added behind its back shows in that id form.",
    "A feature without a definition on the forge is refused unless `force` is set.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  feature: defineAdopt({
    scope: "instance",
    find: async ({ client }) => (await list("listFeatures", {}, client)).map((feature) => ({ name: feature["name"] })),
    name: (inputs) => `feature ${text(inputs["name"])}`,
    setting: true,
    present: presentFeatureActors,
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { feature };
