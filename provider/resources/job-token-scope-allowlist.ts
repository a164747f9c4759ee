import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { normalizers, projectRef, serverId, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { field, list, projectRecord, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/**
 * An entry of a project's CI/CD job token allowlist. The project and group lists have the same
 * shape on the wire (`allowlist` / `groups_allowlist`, `target_project_id` / `target_group_id`),
 * so both resources come from this one description; only the nouns differ.
 */
function allowlistEntry<Target extends "targetProjectId" | "targetGroupId", Extra extends z.ZodRawShape>(options: {
  name: string;
  summary: string;
  /** The allowlist's endpoints, whose delete names the entry by `target`. */
  routes: typeof routes.jobTokenScopeProjectAllowlist | typeof routes.jobTokenScopeGroupAllowlist;
  target: Target;
  targetDoc: string;
  outputs: z.ZodObject<Extra>;
  /** Outputs read from record fields of other names. */
  readNames: Record<keyof Extra & string, string>;
  /** The entry in messages: `project 7`. */
  noun: string;
}) {
  return defineResource({
    name: options.name,
    summary: options.summary,
    inputs: z.object({
      /** The project whose allowlist this is: id or full path. */
      project: projectRef,
      ...({ [options.target]: serverId.describe(options.targetDoc) } as { [K in Target]: typeof serverId }),
    }),
    outputs: options.outputs,
    idParts: ["project", options.target],
    identity: {
      fields: ["project", options.target],
      describe: (state) =>
        `the entry of ${options.noun} ${show(state[options.target])} on the allowlist of project ${show(state["project"])}`,
    },
    // The create answer is {source, target}; the state holds the listing's record.
    create: { route: options.routes.create, readBack: true },
    // The API has no single-entry read: the entry is found in the (paginated) allowlist.
    read: { list: options.routes.list, where: (record, state) => record["id"] === state[options.target] },
    delete: options.routes.delete,
    replaceOn: "all",
    normalize: { project: normalizers.ref },
    readNames: options.readNames,
  });
}

/** Lets another project's CI/CD job tokens reach this project. */
export const jobTokenScopeProjectAllowlistEntry = allowlistEntry({
  name: "JobTokenScopeProjectAllowlistEntry",
  summary: "Adds a project to a project's CI/CD job token allowlist.",
  routes: routes.jobTokenScopeProjectAllowlist,
  target: "targetProjectId",
  targetDoc: "The id of the project allowed in.",
  outputs: z.object({
    /** The allowed project's full path. */
    targetPathWithNamespace: z.string(),
    /** The allowed project's web address. */
    targetWebUrl: z.string(),
  }),
  readNames: { targetPathWithNamespace: "path_with_namespace", targetWebUrl: "web_url" },
  noun: "project",
});

/** Lets the CI/CD job tokens of a group's projects reach this project. */
export const jobTokenScopeGroupAllowlistEntry = allowlistEntry({
  name: "JobTokenScopeGroupAllowlistEntry",
  summary: "Adds a group to a project's CI/CD job token allowlist.",
  routes: routes.jobTokenScopeGroupAllowlist,
  target: "targetGroupId",
  targetDoc: "The id of the group allowed in.",
  outputs: z.object({
    /** The allowed group's name. */
    targetName: z.string(),
    /** The allowed group's web address. */
    targetWebUrl: z.string(),
  }),
  readNames: { targetName: "name", targetWebUrl: "web_url" },
  noun: "group",
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  jobTokenScopeProjectAllowlistEntry: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list("listJobTokenScopeProjectAllowlist", { project: path }, client)).map((target) => ({
        project: path,
        targetProjectId: target["id"],
      })),
    name: (inputs) => `job token allows ${text(inputs["targetPathWithNamespace"] ?? inputs["targetProjectId"])}`,
    describe: async (_inputs, outputs) => ({ targetProjectId: text(outputs["targetPathWithNamespace"]) }),
    // A project's job tokens always reach it; where the forge lists the project on its own allowlist, that entry is the forge's.
    forgeOwn: async (inputs, _outputs, { path, client }) =>
      (await projectRecord(client, path))?.["id"] === inputs["targetProjectId"]
        ? "the project itself, which the forge always lets its own job tokens reach"
        : undefined,
  }),
  jobTokenScopeGroupAllowlistEntry: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list("listJobTokenScopeGroupAllowlist", { project: path }, client)).map((target) => ({
        project: path,
        targetGroupId: target["id"],
      })),
    name: (inputs) => `job token allows group ${text(inputs["targetName"] ?? inputs["targetGroupId"])}`,
    describe: async (inputs, _outputs, { client }) => ({
      targetGroupId: (await field(client, routes.groups.get, { group: Number(inputs["targetGroupId"]) }, "full_path")) ?? "",
    }),
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { jobTokenScopeProjectAllowlistEntry, jobTokenScopeGroupAllowlistEntry };
