import { created, noContent, ok, routesOf } from "../../core/routes";
import type { Features } from "./model";

const route = routesOf<Features>();

/** Instance feature gates: administrators, self-managed. The listings are not paginated. */
export const featureRoutes = [
  route("GET", "/features", (r, features) => ok(features.list(r.actor))),
  route("GET", "/features/definitions", (r, features) => ok(features.definitions(r.actor))),
  // 201 with the feature, whether it was created or changed.
  route("POST", "/features/:name", (r, features) => created(features.set(r.actor, r.params.name, r.input))),
  route("DELETE", "/features/:name", (r, features) => {
    features.delete(r.actor, r.params.name);
    return noContent();
  }),
];
