import { z } from "zod";
import { groupRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const cleanupPolicyLookups = [
  defineLookup({
    name: "getVirtualRegistryCleanupPolicy",
    summary:
      "The virtual registry cleanup policy of a top-level group, with its last run's results; fails with 404 when the group has none (Premium).",
    route: routes.virtualRegistryCleanupPolicy.get,
    args: z.object({
      /** The top-level group: its id or full path. */
      group: groupRef,
    }),
    many: false,
  }),
] as const;
