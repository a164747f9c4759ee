import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { FeatureFlagUserLists } from "./model";

const route = routesOf<FeatureFlagUserLists>();
const LISTS = "/projects/:project/feature_flags_user_lists";
const LIST = `${LISTS}/:iid` as const;

/** Feature flag user lists: list (with `search`), read, create, update, delete, by iid. */
export const userListRoutes = [
  route("GET", LISTS, (r, lists) => paged(lists.list(r.actor, r.params, r.input))),
  route("POST", LISTS, (r, lists) => created(lists.create(r.actor, r.params, r.input))),
  route("GET", LIST, (r, lists) => ok(lists.get(r.actor, r.params, r.params.iid))),
  route("PUT", LIST, (r, lists) => ok(lists.update(r.actor, r.params, r.params.iid, r.input))),
  route("DELETE", LIST, (r, lists) => {
    lists.delete(r.actor, r.params, r.params.iid);
    return noContent();
  }),
];
