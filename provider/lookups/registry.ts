import { broadcastMessageLookups } from "./broadcast-messages";
import { cleanupPolicyLookups } from "./cleanup-policies";
import { clusterAgentLookups } from "./cluster-agents";
import { errorTrackingLookups } from "./error-tracking";
import { featureFlagLookups } from "./feature-flags";
import { geoSiteLookups } from "./geo-sites";
import { groupLookups } from "./groups";
import { instanceAdminLookups } from "./instance-admin";
import { integrationLookups } from "./integrations";
import { jobTokenScopeLookups } from "./job-token-scope";
import { labelLookups } from "./labels";
import { lookupsByName } from "./lookup";
import { projectMemberLookups } from "./project-members";
import { protectedEnvironmentLookups } from "./protected-environments";
import { snippetLookups } from "./snippets";
import { storageMoveLookups } from "./storage-moves";

/**
 * Every lookup of the library, by name: one line per area file (`provider/lookups/<area>.ts`).
 * `npm run generate` exports each under its name and lists it in the docs.
 */
export const lookupDeclarations = lookupsByName([
  ...groupLookups,
  ...labelLookups,
  ...broadcastMessageLookups,
  ...clusterAgentLookups,
  ...jobTokenScopeLookups,
  ...protectedEnvironmentLookups,
  ...featureFlagLookups,
  ...cleanupPolicyLookups,
  ...errorTrackingLookups,
  ...storageMoveLookups,
  ...instanceAdminLookups,
  ...integrationLookups,
  ...projectMemberLookups,
  ...snippetLookups,
  ...geoSiteLookups,
]);
