import { defineResource } from "../../core/resource";
import { GroupManagement, type LdapSyncRecord, type ReleaseRecord } from "./model";
import { groupRoutes } from "./routes";

/** Group settings and avatar, the group's projects and releases, LDAP sync. */
export const groupManagement = defineResource({
  name: "groupManagement",
  collections: { releases: [] as ReleaseRecord[], ldap_syncs: [] as LdapSyncRecord[] },
  model: (core, collections) => new GroupManagement(core, collections.releases, collections.ldap_syncs),
  routes: groupRoutes,
});
