import { defineResource } from "../../core/resource";
import { type UrlConfigurationRecord, UrlConfigurations } from "./model";
import { urlConfigurationRoutes } from "./routes";

/** URL configurations of receptive cluster agents (removed with their agent). */
export const urlConfigurations = defineResource({
  name: "urlConfigurations",
  collections: { urlConfigurations: [] as UrlConfigurationRecord[] },
  model: (core, collections) => new UrlConfigurations(core, core.agents.children(collections.urlConfigurations, "url_configuration_id")),
  routes: urlConfigurationRoutes,
});
