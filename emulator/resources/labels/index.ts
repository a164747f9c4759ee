import { defineResource } from "../../core/resource";
import { type LabelRecord, Labels } from "./model";
import { labelRoutes } from "./routes";

/** Group labels and their subscriptions. */
export const labels = defineResource({
  name: "labels",
  collections: { labels: [] as LabelRecord[] },
  model: (core, collections) => new Labels(core, collections.labels),
  routes: labelRoutes,
});
