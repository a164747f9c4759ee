import { z } from "zod";
import { projectRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const featureFlagLookups = [
  defineLookup({
    name: "listFeatureFlagUserLists",
    summary: "The feature flag user lists of a project (`userXids` as the forge sends it: comma-separated).",
    route: routes.featureFlagUserLists.list,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
      /** Only lists whose name contains this text. */
      search: z.string().optional(),
    }),
    many: true,
  }),
] as const;
