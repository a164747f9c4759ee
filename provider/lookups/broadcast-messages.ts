import { z } from "zod";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const broadcastMessageLookups = [
  defineLookup({
    name: "listBroadcastMessages",
    summary: "Every broadcast message of the instance (no authentication needed).",
    route: routes.broadcastMessages.list,
    args: z.object({}),
    many: true,
  }),
] as const;
