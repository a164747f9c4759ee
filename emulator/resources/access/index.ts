import { defineResource } from "../../core/resource";
import { AccessReads } from "./model";
import { accessRoutes } from "./routes";

/** `GET /groups/:id`, `/projects/:id` and the listings over core's users, groups and projects (no state of its own). */
export const access = defineResource({
  name: "access",
  collections: {},
  model: (core) => new AccessReads(core),
  routes: accessRoutes,
});
