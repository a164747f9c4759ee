import { INTEGRATIONS } from "../../../api/integrations";
import { noContent, ok, type Route, routesOf } from "../../core/routes";
import type { Integrations } from "./model";

const route = routesOf<Integrations>();

/** The three routes of every slug in Document 3's table, and the listing of active ones (not paginated). */
export const integrationRoutes: Route<Integrations>[] = [
  route("GET", "/groups/:group/integrations", (r, integrations) => ok(integrations.list(r.actor, r.params.group))),
  ...Object.keys(INTEGRATIONS).flatMap((slug) => [
    route("GET", `/groups/:group/integrations/${slug}`, (r, integrations) => ok(integrations.get(r.actor, r.params.group, slug))),
    route("PUT", `/groups/:group/integrations/${slug}`, (r, integrations) => ok(integrations.setUp(r.actor, r.params.group, slug, r.input))),
    route("DELETE", `/groups/:group/integrations/${slug}`, (r, integrations) => {
      integrations.disable(r.actor, r.params.group, slug);
      return noContent();
    }),
  ]),
];
