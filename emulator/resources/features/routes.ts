import { AVAILABILITY } from "../../../spec/editions";
import { created, gated, noContent, ok, routesOf } from "../../core/routes";
import type { Features } from "./model";

const route = routesOf<Features>();
const AREA = AVAILABILITY.featureGates;

/** Instance feature gates: administrators, self-managed. The listings are not paginated. */
export const featureRoutes = [
  gated(AREA, route("GET", "/features", (r, features) => ok(features.list(r.actor)))),
  gated(AREA, route("GET", "/features/definitions", (r, features) => ok(features.definitions(r.actor)))),
  // 201 with the feature, whether it was created or changed.
  gated(AREA, route("POST", "/features/:name", (r, features) => created(features.set(r.actor, r.params.name, r.input)))),
  gated(AREA, route("DELETE", "/features/:name", (r, features) => {
    features.delete(r.actor, r.params.name);
    return noContent();
  })),
];
