import { ok, paged, routesOf } from "../../core/routes";
import type { GroupTokens } from "./model";

const route = routesOf<GroupTokens>();

/** Token revocation (every edition) and the credentials inventory (Premium, hosted offering). */
export const groupTokenRoutes = [
  route("POST", "/groups/:group/tokens/revoke", (r, tokens) => ok(tokens.revoke(r.actor, r.params.group, r.input))),
  route("GET", "/groups/:group/manage/personal_access_tokens", (r, tokens) => paged(tokens.personalAccessTokens(r.actor, r.params.group, r.input))),
  route("GET", "/groups/:group/manage/resource_access_tokens", (r, tokens) => paged(tokens.resourceAccessTokens(r.actor, r.params.group, r.input))),
];
