import { defineResource } from "../../core/resource";
import { type ClientKeyRecord, ErrorTracking, type ErrorTrackingSettingsRecord } from "./model";
import { errorTrackingRoutes } from "./routes";

/** Integrated error tracking of projects: settings and client keys. */
export const errorTracking = defineResource({
  name: "errorTracking",
  collections: {
    errorTrackingSettings: [] as ErrorTrackingSettingsRecord[],
    errorTrackingClientKeys: [] as ClientKeyRecord[],
  },
  model: (core, collections) => new ErrorTracking(core, collections.errorTrackingSettings, collections.errorTrackingClientKeys),
  routes: errorTrackingRoutes,
});
