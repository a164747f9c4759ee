import { defineResource } from "../../core/resource";
import { type GroupTokenRecord, GroupTokens } from "./model";
import { groupTokenRoutes } from "./routes";

/** The tokens a group's Owners revoke and see in the credentials inventory. */
export const groupTokens = defineResource({
  name: "groupTokens",
  collections: { group_tokens: [] as GroupTokenRecord[] },
  model: (core, collections) => new GroupTokens(core, collections.group_tokens),
  routes: groupTokenRoutes,
});
