import { z } from "zod";
import { defineLookup } from "./lookup";

export const broadcastMessageLookups = [
  defineLookup({
    name: "listBroadcastMessages",
    summary: "Every broadcast message of the instance (no authentication needed).",
    route: "GET /broadcast_messages",
    args: z.object({}),
    many: true,
  }),
] as const;
