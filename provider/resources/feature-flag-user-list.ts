import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { commaSeparated, normalizers, projectRef, serverId, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** One external user id: what feature flag strategies match users by; a comma would split it. */
const userXid = z.string().check(
  valueRule({
    format: "user-xid",
    rule: "an external user id is not blank and holds no comma",
    holds: (value) => value.trim() !== "" && !value.includes(","),
    message: (value) =>
      `${show(value)} is not an external user id the forge can store: give one id per entry, not blank and without commas.`,
  }),
);

/** The same ids in any order, spaces around them and repeats aside: what the list means. */
const idSet = (value: unknown) => (Array.isArray(value) ? [...new Set(value.map((id) => String(id).trim()))].sort() : value);

/** A named list of users that a project's feature flags can target (Developer role). */
export const featureFlagUserList = defineResource({
  name: "FeatureFlagUserList",
  summary: "A named list of users that a project's feature flags can be rolled out to.",
  inputs: z.object({
    /** The project: id or full path. Changing it replaces the list. */
    project: projectRef,
    /** The list's name, unique in the project. */
    name: z.string().trim().min(1, { error: "The list needs a name that is not blank." }),
    /**
     * External user ids, as your application identifies users. Sent comma-separated; order and
     * repeats do not matter (a strategy asks whether a user is on the list), so they are no diff.
     */
    userXids: z
      .array(userXid, { error: (issue) => `${show(issue.input)} is not a list of user ids. Give a list such as ["user-1", "user-2"].` })
      .min(1, {
        error: "The list needs at least one user id.",
      }),
  }),
  outputs: z.object({
    /** The list's id within the project: what paths and feature flag strategies use. */
    iid: serverId,
    /** The list's id across the instance. */
    userListId: serverId,
    /** When it was created. */
    createdAt: z.string(),
  }),
  // Paths and strategies name a list by its `iid`, not its `id`.
  recordId: { output: "iid", wire: "iid" },
  idParts: ["project", "iid"],
  create: routes.featureFlagUserLists.create,
  read: routes.featureFlagUserLists.get,
  update: routes.featureFlagUserLists.update,
  delete: routes.featureFlagUserLists.delete,
  // A name is unique in the project: that finds a list whose create answer was lost.
  identity: {
    fields: ["project", "name"],
    describe: (state) => `the feature flag user list ${show(state["name"])} of project ${show(state["project"])}`,
    find: { list: routes.featureFlagUserLists.list, search: "name" },
  },
  replaceOn: ["project"],
  wireFormats: { userXids: commaSeparated },
  normalize: { project: normalizers.ref, userXids: idSet, name: (value) => (typeof value === "string" ? value.trim() : value) },
  readNames: { userListId: "id" },
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  featureFlagUserList: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list("listFeatureFlagUserLists", { project: path }, client)).map((userList) => ({
        project: path,
        iid: userList["iid"],
      })),
    name: (inputs) => `user list ${text(inputs["name"])}`,
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { featureFlagUserList };
