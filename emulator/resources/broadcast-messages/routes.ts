import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { BroadcastMessages } from "./model";

const route = routesOf<BroadcastMessages>();
const MESSAGES = "/broadcast_messages";
const MESSAGE = "/broadcast_messages/:messageId";

/** Broadcast messages: reads are public, writes need an administrator. */
export const broadcastMessageRoutes = [
  route("GET", MESSAGES, (_r, messages) => paged(messages.list())),
  route("GET", MESSAGE, (r, messages) => ok(messages.get(r.params.messageId))),
  route("POST", MESSAGES, (r, messages) => created(messages.create(r.actor, r.input))),
  route("PUT", MESSAGE, (r, messages) => ok(messages.update(r.actor, r.params.messageId, r.input))),
  route("DELETE", MESSAGE, (r, messages) => {
    messages.delete(r.actor, r.params.messageId);
    return noContent();
  }),
];
