import { routes } from "../../../api/routes";
import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { FeatureFlagUserLists } from "./model";

const route = routesOf<FeatureFlagUserLists>();

/** Feature flag user lists: list (with `search`), read, create, update, delete, by iid. */
export const userListRoutes = [
  route(routes.featureFlagUserLists.list, (r, lists) => paged(lists.list(r.actor, r.params, r.input))),
  route(routes.featureFlagUserLists.create, (r, lists) => created(lists.create(r.actor, r.params, r.input))),
  route(routes.featureFlagUserLists.get, (r, lists) => ok(lists.get(r.actor, r.params, r.params.iid))),
  route(routes.featureFlagUserLists.update, (r, lists) => ok(lists.update(r.actor, r.params, r.params.iid, r.input))),
  route(routes.featureFlagUserLists.delete, (r, lists) => {
    lists.delete(r.actor, r.params, r.params.iid);
    return noContent();
  }),
];
