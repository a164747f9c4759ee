import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { groupRef, normalizers, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** The calling user's subscription to a group label (notifications for issues and merge requests with it). */
export const groupLabelSubscription = defineResource({
  name: "GroupLabelSubscription",
  summary: "Subscribes the token's user to a group label.",
  inputs: z.object({
    /** The group: its id or full path. */
    group: groupRef,
    /** The label: its id or its title. Digits are read as an id first: give a numeric title's label by its id. */
    labelId: z.union([z.number().int().positive(), z.string().min(1)]),
  }),
  outputs: z.object({
    /** The label's name. */
    labelName: z.string(),
    /** True while the subscription exists. */
    subscribed: z.boolean(),
  }),
  idParts: ["group", "labelId"],
  identity: {
    fields: ["group", "labelId"],
    describe: (state) => `the subscription to label ${show(state["labelId"])} of group ${show(state["group"])}`,
  },
  // 304 = already subscribed (create) or not subscribed (delete): the desired state holds.
  create: { route: routes.groupLabels.subscribe, accept: [304] },
  read: { route: routes.groupLabels.get, exists: (label) => label["subscribed"] === true },
  delete: { route: routes.groupLabels.unsubscribe, accept: [304] },
  readNames: { labelName: "name" },
  replaceOn: "all",
  normalize: { group: normalizers.ref },
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  groupLabelSubscription: defineAdopt({
    scope: "group",
    // The token's user's own subscriptions: the resource subscribes whoever runs the program.
    find: async ({ path, client }) =>
      (await list("listGroupLabels", { group: path, includeAncestorGroups: false }, client))
        .filter((label) => label["subscribed"] === true)
        .map((label) => ({ group: path, labelId: label["id"] })),
    name: (inputs) => `label ${text(inputs["labelName"] ?? inputs["labelId"])} subscription`,
    references: { labelId: "groupLabel" },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { groupLabelSubscription };
