import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { groupRef, labelColor, normalizers, serverId } from "./common";

/** A label of a group, available to every project and subgroup of that group. */
export const groupLabel = defineResource({
  name: "GroupLabel",
  summary: "A label of a group, available to all its projects and subgroups.",
  inputs: z.object({
    /** The group: its id or full path. Changing it replaces the label. */
    group: groupRef,
    /** The label's name. A rename is an update (sent as `new_name`), not a replacement. */
    name: z.string().min(1),
    /** `#RRGGBB` or a CSS colour name (`red`); the forge stores names as hex, and that is not a change. */
    color: labelColor,
    /** A description of the label. */
    description: z.string().optional(),
    /** Archived labels are hidden from pickers (needs the forge's `labels_archive` flag). */
    archived: z.boolean().optional(),
  }),
  outputs: z.object({
    /** The label's id. */
    labelId: serverId,
    /** The colour of the label's text, chosen by the forge for contrast. */
    textColor: z.string(),
    /** The description rendered as HTML. */
    descriptionHtml: z.string().nullable(),
  }),
  recordId: "labelId",
  idParts: ["group", "labelId"],
  create: "POST /groups/:group/labels",
  read: "GET /groups/:group/labels/:labelId",
  update: "PUT /groups/:group/labels/:labelId",
  delete: "DELETE /groups/:group/labels/:labelId",
  // The label endpoints accept a title where an id goes: that finds a label after a lost answer.
  findExisting: "GET /groups/:group/labels/:name",
  replaceOn: ["group"],
  // A name is unique across a group and its ancestors: a label moved to a subgroup would clash
  // with itself if the new one were created first.
  deleteBeforeReplace: true,
  updateWireNames: { name: "new_name" },
  resets: { description: "", archived: false },
  normalize: { color: normalizers.color, group: normalizers.ref },
});
