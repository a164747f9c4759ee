import { z } from "zod";
import { groupRef } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const integrationLookups = [
  defineLookup({
    name: "listGroupIntegrations",
    summary: "The active integrations of a group: id, title, slug, timestamps, active, inherited and the event flags (Maintainer).",
    route: routes.groupIntegrations.list,
    args: z.object({
      /** The group: its id or full path. */
      group: groupRef,
    }),
    many: true,
  }),
] as const;
