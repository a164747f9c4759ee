import { z } from "zod";
import { groupRef, projectRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const protectedEnvironmentLookups = [
  defineLookup({
    name: "listProjectProtectedEnvironments",
    summary: "The protected environments of a project.",
    route: routes.projectProtectedEnvironments.list,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
    }),
    many: true,
  }),
  defineLookup({
    name: "listGroupProtectedEnvironments",
    summary: "The protected deployment tiers of a group.",
    route: routes.groupProtectedEnvironments.list,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
    }),
    many: true,
  }),
] as const;
