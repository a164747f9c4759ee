import { z } from "zod";
import { defineResource, fieldMeta } from "../engine/declaration";
import { groupRef, labelColor, normalizers, serverId, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** A label of a group, available to every project and subgroup of that group. */
export const groupLabel = defineResource({
  name: "GroupLabel",
  summary: "A label of a group, available to all its projects and subgroups.",
  inputs: z.object({
    /** The group: its id or full path. Changing it replaces the label. */
    group: groupRef,
    /**
     * The label's name. A rename is an update (sent as `new_name`), not a replacement. The forge
     * trims names, so spaces at either end are refused rather than sent.
     */
    name: z
      .string()
      .min(1)
      .check(
        // Refused, not trimmed for the user: the name is the label's identity (it is found by
        // it, and labels are addressed by title), so " x" and "x" must not look like two labels
        // in a program while the forge holds one.
        valueRule({
          format: "trimmed",
          rule: "no spaces at either end (the forge trims them)",
          holds: (value) => value === "" || value === value.trim(),
          message: (value) =>
            value.trim() === ""
              ? `${show(value)} is only whitespace, and the forge refuses a blank name. Write the label's name.`
              : `${show(value)} has spaces at either end, which the forge removes. Write ${show(value.trim())}.`,
        }),
      ),
    /** `#RRGGBB` or a CSS colour name (`red`); the forge stores names as hex, and that is not a change. */
    color: labelColor,
    /** A description of the label; null, like leaving it out at creation, means none. */
    description: z.string().nullable().optional(),
    /**
     * Archived labels are hidden from pickers. Needs the forge's `labels_archive` flag: without
     * it the forge ignores the value, the label stays unarchived, and each preview shows the
     * difference.
     */
    archived: z.boolean().optional(),
  }),
  outputs: z.object({
    /** The label's id. */
    labelId: serverId,
    /** The colour of the label's text, chosen by the forge for contrast. */
    textColor: z.string(),
    /** The description rendered as HTML. */
    descriptionHtml: z.string().nullable().register(fieldMeta, { derivedFrom: "description" }),
  }),
  recordId: "labelId",
  idParts: ["group", "labelId"],
  // A label is found by listing and matching the name exactly: read by title, a name made of
  // digits would be taken for another label's id. The listing's search narrows it to a page:
  // all of a group's labels, page after page, made every create cost O(labels) requests.
  identity: {
    fields: ["group", "name"],
    describe: (state) => `the label ${show(state["name"])} of group ${show(state["group"])}`,
    find: { list: routes.groupLabels.list, search: "name" },
    // A group's reads show its ancestors' labels too (include_ancestor_groups, default true), and a
    // name is unique across a group and its ancestors; PUT and DELETE reach the group's own only.
    inherited: { parent: "group", ownOnly: { include_ancestor_groups: false } },
  },
  create: routes.groupLabels.create,
  // A refresh of many labels reads their group's listing, a page per 100 labels.
  read: { route: routes.groupLabels.get, sharedListing: routes.groupLabels.list },
  update: { route: routes.groupLabels.update, names: { name: "new_name" } },
  delete: routes.groupLabels.delete,
  replaceOn: ["group"],
  // A name is unique across a group and its ancestors: a label moved to a subgroup would clash
  // with itself if the new one were created first.
  deleteBeforeReplace: true,
  // Dropping archived sends false: it unarchives with the labels_archive flag, and is ignored
  // (harmlessly: nothing can be archived) without it.
  resets: { description: "", archived: false },
  normalize: { color: normalizers.color, group: normalizers.ref },
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  groupLabel: defineAdopt({
    scope: "group",
    // The group's own labels: an ancestor's are adopted with the ancestor.
    find: async ({ path, client }) =>
      (await list("listGroupLabels", { group: path, includeAncestorGroups: false }, client)).map((label) => ({
        group: path,
        labelId: label["id"],
      })),
    name: (inputs) => `label ${text(inputs["name"])}`,
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { groupLabel };
