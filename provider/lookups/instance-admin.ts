import { z } from "zod";
import { defineLookup } from "./lookup";

export const instanceAdminLookups = [
  defineLookup({
    name: "listInstanceClusters",
    summary: "Every instance-level cluster (administrator; deprecated area). Tokens are never returned.",
    route: "GET /admin/clusters",
    args: z.object({}),
    many: true,
  }),
] as const;
