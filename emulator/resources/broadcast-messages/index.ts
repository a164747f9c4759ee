import { defineResource } from "../../core/resource";
import { type BroadcastMessageRecord, BroadcastMessages } from "./model";
import { broadcastMessageRoutes } from "./routes";

/** Instance-wide broadcast messages (banners and notifications). */
export const broadcastMessages = defineResource({
  name: "broadcastMessages",
  collections: { broadcastMessages: [] as BroadcastMessageRecord[] },
  model: (core, collections) => new BroadcastMessages(core, collections.broadcastMessages),
  routes: broadcastMessageRoutes,
});
