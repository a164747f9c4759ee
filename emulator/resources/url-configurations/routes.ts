import { collectionRoutes } from "../../core/routes";
import type { UrlConfigurations } from "./model";

const CONFIGS = "/projects/:project/cluster_agents/:agentId/url_configurations";

/** Receptive agent URL configurations. The list is not paginated (a plain array, no headers). */
export const urlConfigurationRoutes = collectionRoutes<UrlConfigurations, typeof CONFIGS>(
  CONFIGS,
  "configurationId",
  "whole",
);
