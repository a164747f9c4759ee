import { created, ok, paged, routesOf } from "../../core/routes";
import type { ErrorTracking } from "./model";

const route = routesOf<ErrorTracking>();
const SETTINGS = "/projects/:project/error_tracking/settings";
const KEYS = "/projects/:project/error_tracking/client_keys";

/** Error tracking: the project's settings (GET, PUT, PATCH) and its client keys. */
export const errorTrackingRoutes = [
  route("GET", SETTINGS, (r, tracking) => ok(tracking.getSettings(r.actor, r.params.project))),
  route("PUT", SETTINGS, (r, tracking) => ok(tracking.putSettings(r.actor, r.params.project, r.input))),
  route("PATCH", SETTINGS, (r, tracking) => ok(tracking.patchSettings(r.actor, r.params.project, r.input))),
  route("GET", KEYS, (r, tracking) => paged(tracking.listKeys(r.actor, r.params.project))),
  route("POST", KEYS, (r, tracking) => created(tracking.createKey(r.actor, r.params.project))),
  route("DELETE", `${KEYS}/:keyId`, (r, tracking) => ok(tracking.deleteKey(r.actor, r.params.project, r.params.keyId))),
];
