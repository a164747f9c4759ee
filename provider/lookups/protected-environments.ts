import { z } from "zod";
import { groupRef, projectRef } from "../resources/common";
import { defineLookup } from "./lookup";

export const protectedEnvironmentLookups = [
  defineLookup({
    name: "listProjectProtectedEnvironments",
    summary: "The protected environments of a project.",
    route: "GET /projects/:project/protected_environments",
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
    }),
    many: true,
  }),
  defineLookup({
    name: "listGroupProtectedEnvironments",
    summary: "The protected deployment tiers of a group.",
    route: "GET /groups/:group/protected_environments",
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
    }),
    many: true,
  }),
] as const;
