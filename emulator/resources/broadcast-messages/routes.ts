import { AVAILABILITY } from "../../../spec/editions";
import { anonymous, created, gated, noContent, ok, paged, routesOf } from "../../core/routes";
import type { BroadcastMessages } from "./model";

const route = routesOf<BroadcastMessages>();
const MESSAGES = "/broadcast_messages";
const MESSAGE = "/broadcast_messages/:messageId";
const WRITES = AVAILABILITY.broadcastMessageWrites;

/** Broadcast messages: reads are public, writes need an administrator. */
export const broadcastMessageRoutes = [
  anonymous(route("GET", MESSAGES, (_r, messages) => paged(messages.list()))),
  anonymous(route("GET", MESSAGE, (r, messages) => ok(messages.get(r.params.messageId)))),
  gated(WRITES, route("POST", MESSAGES, (r, messages) => created(messages.create(r.actor, r.input)))),
  gated(WRITES, route("PUT", MESSAGE, (r, messages) => ok(messages.update(r.actor, r.params.messageId, r.input)))),
  gated(WRITES, route("DELETE", MESSAGE, (r, messages) => {
    messages.delete(r.actor, r.params.messageId);
    return noContent();
  })),
];
