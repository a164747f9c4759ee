import { routes } from "../../../api/routes";
import { collectionRoutes } from "../../core/routes";
import type { UrlConfigurations } from "./model";

/** Receptive agent URL configurations. The list is not paginated (a plain array, no headers). */
export const urlConfigurationRoutes = collectionRoutes<UrlConfigurations, typeof routes.clusterAgentUrlConfigurations.list.path>(
  routes.clusterAgentUrlConfigurations,
  "whole",
);
