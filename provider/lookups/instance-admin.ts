import { z } from "zod";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const instanceAdminLookups = [
  defineLookup({
    name: "listInstanceClusters",
    summary: "Every instance-level cluster (administrator; deprecated area). Tokens are never returned.",
    route: routes.instanceClusters.list,
    args: z.object({}),
    many: true,
    // InstanceCluster keeps its platform attributes (API URL, CA certificate) secret.
    secretFields: ["platformVendor"],
  }),
  defineLookup({
    name: "listFeatures",
    summary:
      "Every instance feature gate that is set, with its state, gates (actors by the forge's id, such as `User:4`) and definition (administrator).",
    route: routes.features.list,
    args: z.object({}),
    many: true,
  }),
  defineLookup({
    name: "listFeatureDefinitions",
    summary: "The feature definitions the forge ships: name, type, group, default, milestone (administrator).",
    route: routes.features.definitions,
    args: z.object({}),
    many: true,
  }),
] as const;
