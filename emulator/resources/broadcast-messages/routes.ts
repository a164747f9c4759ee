import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { BroadcastMessages } from "./model";

const route = routesOf<BroadcastMessages>();

/** Broadcast messages: reads are public, writes need an administrator. */
export const broadcastMessageRoutes = [
  route(routes.broadcastMessages.list, (_r, messages) => paged(messages.list())),
  route(routes.broadcastMessages.get, (r, messages) => ok(messages.get(r.params.messageId))),
  route(routes.broadcastMessages.create, (r, messages) => created(messages.create(r.actor, r.input))),
  route(routes.broadcastMessages.update, (r, messages) => ok(messages.update(r.actor, r.params.messageId, r.input))),
  route(routes.broadcastMessages.delete, (r, messages) => {
    messages.delete(r.actor, r.params.messageId);
    return noContent();
  }),
];
