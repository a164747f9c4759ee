import { routes } from "../../../api/routes";
import { created, ok, paged, routesOf } from "../../core/routes";
import type { ErrorTracking } from "./model";

const route = routesOf<ErrorTracking>();

/** Error tracking: the project's settings (GET, PUT, PATCH) and its client keys. */
export const errorTrackingRoutes = [
  route(routes.errorTrackingSettings.get, (r, tracking) => ok(tracking.getSettings(r.actor, r.params.project))),
  route(routes.errorTrackingSettings.set, (r, tracking) => ok(tracking.putSettings(r.actor, r.params.project, r.input))),
  route(routes.errorTrackingSettings.update, (r, tracking) => ok(tracking.patchSettings(r.actor, r.params.project, r.input))),
  route(routes.errorTrackingClientKeys.list, (r, tracking) => paged(tracking.listKeys(r.actor, r.params.project))),
  route(routes.errorTrackingClientKeys.create, (r, tracking) => created(tracking.createKey(r.actor, r.params.project))),
  route(routes.errorTrackingClientKeys.delete, (r, tracking) => ok(tracking.deleteKey(r.actor, r.params.project, r.params.keyId))),
];
