import { defineResource } from "../../core/resource";
import { FeatureFlagUserLists, type UserListRecord } from "./model";
import { userListRoutes } from "./routes";

/** Feature flag user lists of projects. */
export const featureFlagUserLists = defineResource({
  name: "featureFlagUserLists",
  collections: { featureFlagUserLists: [] as UserListRecord[] },
  model: (core, collections) => new FeatureFlagUserLists(core, collections.featureFlagUserLists),
  routes: userListRoutes,
});
