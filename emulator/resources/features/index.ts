import { defineResource } from "../../core/resource";
import { type FeatureRecord, Features } from "./model";
import { featureRoutes } from "./routes";

/** Instance feature gates. */
export const features = defineResource({
  name: "features",
  collections: { features: [] as FeatureRecord[] },
  model: (core, collections) => new Features(core, collections.features),
  routes: featureRoutes,
});
