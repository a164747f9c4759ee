import { routes } from "../../../api/routes";
import { created, noContent, ok, routesOf } from "../../core/routes";
import type { Features } from "./model";

const route = routesOf<Features>();

/** Instance feature gates: administrators, self-managed. The listings are not paginated. */
export const featureRoutes = [
  route(routes.features.list, (r, features) => ok(features.list(r.actor))),
  route(routes.features.definitions, (r, features) => ok(features.definitions(r.actor))),
  // 201 with the feature, whether it was created or changed.
  route(routes.features.set, (r, features) => created(features.set(r.actor, r.params.name, r.input))),
  route(routes.features.delete, (r, features) => {
    features.delete(r.actor, r.params.name);
    return noContent();
  }),
];
