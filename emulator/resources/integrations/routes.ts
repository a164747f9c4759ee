import { INTEGRATIONS, type IntegrationSlug } from "../../../api/integrations";
import { routes } from "../../../api/routes";
import { noContent, ok, type Route, routesOf } from "../../core/routes";
import type { Integrations } from "./model";

const route = routesOf<Integrations>();

/** The three routes of every slug in the API's table of group integrations, and the listing of active ones (not paginated). */
export const integrationRoutes: Route<Integrations>[] = [
  route(routes.groupIntegrations.list, (r, integrations) => ok(integrations.list(r.actor, r.params.group))),
  ...(Object.keys(INTEGRATIONS) as IntegrationSlug[]).flatMap((slug) => [
    route(routes.groupIntegrations.bySlug[slug].get, (r, integrations) => ok(integrations.get(r.actor, r.params.group, slug))),
    route(routes.groupIntegrations.bySlug[slug].set, (r, integrations) => ok(integrations.setUp(r.actor, r.params.group, slug, r.input))),
    route(routes.groupIntegrations.bySlug[slug].disable, (r, integrations) => {
      integrations.disable(r.actor, r.params.group, slug);
      return noContent();
    }),
  ]),
];
