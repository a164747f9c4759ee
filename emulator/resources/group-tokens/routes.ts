import { routes } from "../../../api/routes";
import { ok, paged, routesOf } from "../../core/routes";
import type { GroupTokens } from "./model";

const route = routesOf<GroupTokens>();

/** Token revocation (every edition) and the credentials inventory (Premium, hosted offering). */
export const groupTokenRoutes = [
  route(routes.groups.revokeToken, (r, tokens) => ok(tokens.revoke(r.actor, r.params.group, r.input))),
  route(routes.groups.personalAccessTokens, (r, tokens) => paged(tokens.personalAccessTokens(r.actor, r.params.group, r.input))),
  route(routes.groups.resourceAccessTokens, (r, tokens) => paged(tokens.resourceAccessTokens(r.actor, r.params.group, r.input))),
];
