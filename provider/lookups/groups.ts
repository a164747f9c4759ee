import { z } from "zod";
import { groupRef } from "../resources/common";
import { defineLookup } from "./lookup";

export const groupLookups = [
  defineLookup({
    name: "getGroup",
    summary: "A group, by id or full path.",
    route: "GET /groups/:group",
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
      /** Include the group's projects and the projects shared with it, at most 100 each (default true; deprecated by the forge). */
      withProjects: z.boolean().optional(),
      /** Include the group's custom attributes (administrators only; ignored for others). */
      withCustomAttributes: z.boolean().optional(),
    }),
    many: false,
  }),
] as const;
