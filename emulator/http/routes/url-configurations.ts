import type { RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

const CONFIGS = "/projects/:id/cluster_agents/:agent_id/url_configurations";

/** Receptive agent URL configurations. The list is not paginated (a plain array, no headers). */
export const urlConfigurationRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: CONFIGS,
    handler: (r, store) => ok(store.urlConfigurations.list(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"))),
  },
  {
    method: "GET",
    path: `${CONFIGS}/:url_configuration_id`,
    handler: (r, store) =>
      ok(
        store.urlConfigurations.get(
          r.actor,
          pathParam(r, "id"),
          pathParam(r, "agent_id"),
          pathParam(r, "url_configuration_id"),
        ),
      ),
  },
  {
    method: "POST",
    path: CONFIGS,
    handler: (r, store) =>
      created(store.urlConfigurations.create(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"), r.params)),
  },
  {
    method: "DELETE",
    path: `${CONFIGS}/:url_configuration_id`,
    handler: (r, store) => {
      store.urlConfigurations.delete(
        r.actor,
        pathParam(r, "id"),
        pathParam(r, "agent_id"),
        pathParam(r, "url_configuration_id"),
      );
      return noContent();
    },
  },
];
