import { z } from "zod";
import { groupRef, serverId } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

const flag = z.boolean().optional();

export const labelLookups = [
  defineLookup({
    name: "listGroupLabels",
    summary: "The labels of a group, by default with those of its ancestors.",
    route: routes.groupLabels.list,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
      /** Include the counts of open issues and merge requests. */
      withCounts: flag,
      /** Include the labels of the ancestor groups (default true). */
      includeAncestorGroups: flag,
      /** Include the labels of the descendant groups. */
      includeDescendantGroups: flag,
      /** Only the group's own labels, not its projects'. */
      onlyGroupLabels: flag,
      /** Only labels whose title contains this text. */
      search: z.string().optional(),
      /** Only archived (true) or unarchived (false) labels. */
      archived: flag,
    }),
    many: true,
  }),
  defineLookup({
    name: "getGroupLabel",
    summary: "One label of a group, by id or title.",
    route: routes.groupLabels.get,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
      /** The label's id or its title. Digits are read as an id first: find a label titled "123" with listGroupLabels. */
      labelId: z.union([serverId, z.string().min(1)]),
      /** Look in the ancestor groups too. */
      includeAncestorGroups: flag,
      /** Look in the descendant groups too. */
      includeDescendantGroups: flag,
    }),
    many: false,
  }),
] as const;
