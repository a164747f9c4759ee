import { created, noContent, ok, routesOf } from "../../core/routes";
import type { UrlConfigurations } from "./model";

const route = routesOf<UrlConfigurations>();
const CONFIGS = "/projects/:project/cluster_agents/:agentId/url_configurations";
const CONFIG = "/projects/:project/cluster_agents/:agentId/url_configurations/:configurationId";

/** Receptive agent URL configurations. The list is not paginated (a plain array, no headers). */
export const urlConfigurationRoutes = [
  route("GET", CONFIGS, (r, configs) => ok(configs.list(r.actor, r.params.project, r.params.agentId))),
  route("GET", CONFIG, (r, configs) =>
    ok(configs.get(r.actor, r.params.project, r.params.agentId, r.params.configurationId)),
  ),
  route("POST", CONFIGS, (r, configs) => created(configs.create(r.actor, r.params.project, r.params.agentId, r.input))),
  route("DELETE", CONFIG, (r, configs) => {
    configs.delete(r.actor, r.params.project, r.params.agentId, r.params.configurationId);
    return noContent();
  }),
];
