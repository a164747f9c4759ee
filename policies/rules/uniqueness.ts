/**
 * One object per identity: the forge holds one label of a name in a group, one agent of a name in
 * a project, one setting of a kind per project... Two resources of a program that name the same
 * object would fail at the second create (after the first one is made), or, for settings, fight
 * over one value on every `up`. The schema sees one resource at a time; this sees the program.
 */
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { declarations as d } from "../../provider/resources";
import { groupIntegrations, integrationKindOf } from "../../provider/resources/group-integrations";
import { stackPolicy, type StackResource } from "../lib/define";
import { isKnown, refKey, show, type Bag } from "../lib/values";

/** What identifies a resource's object on the forge, and how a message names it. */
interface Identity {
  declaration: AnyDeclaration;
  /** The inputs that together name the object (all must be known at preview to judge). */
  fields: string[];
  /** `the label "bug" of group "acme"` */
  describe(props: Bag): string;
  /** Names the forge compares regardless of case (a Geo site's name, a username). */
  caseInsensitive?: string[];
}

/** Projects and groups match however they are spelled (id, path, encoded path); names as the
 *  forge stores them (trimmed). */
const keyOf = (field: string, value: unknown) =>
  field === "project" || field === "group" ? refKey(value) : typeof value === "string" ? value.trim() : JSON.stringify(value);

const IDENTITIES: Identity[] = [
  { declaration: d.groupLabel, fields: ["group", "name"], describe: (p) => `the label ${show(p["name"])} of group ${show(p["group"])}` },
  { declaration: d.groupLabelSubscription, fields: ["group", "labelId"], describe: (p) => `the subscription to label ${show(p["labelId"])} of group ${show(p["group"])}` },
  { declaration: d.clusterAgent, fields: ["project", "name"], describe: (p) => `the cluster agent ${show(p["name"])} of project ${show(p["project"])}` },
  { declaration: d.jobTokenScope, fields: ["project"], describe: (p) => `the job token scope of project ${show(p["project"])}` },
  { declaration: d.jobTokenScopeProjectAllowlistEntry, fields: ["project", "targetProjectId"], describe: (p) => `project ${show(p["targetProjectId"])} on the allowlist of project ${show(p["project"])}` },
  { declaration: d.jobTokenScopeGroupAllowlistEntry, fields: ["project", "targetGroupId"], describe: (p) => `group ${show(p["targetGroupId"])} on the allowlist of project ${show(p["project"])}` },
  { declaration: d.projectProtectedEnvironment, fields: ["project", "name"], describe: (p) => `the protected environment ${show(p["name"])} of project ${show(p["project"])}` },
  { declaration: d.groupProtectedEnvironment, fields: ["group", "name"], describe: (p) => `the protected tier ${show(p["name"])} of group ${show(p["group"])}` },
  { declaration: d.featureFlagUserList, fields: ["project", "name"], describe: (p) => `the feature flag user list ${show(p["name"])} of project ${show(p["project"])}` },
  { declaration: d.errorTrackingSettings, fields: ["project"], describe: (p) => `the error tracking settings of project ${show(p["project"])}` },
  { declaration: d.feature, fields: ["name"], describe: (p) => `the feature gate ${show(p["name"])}` },
  { declaration: d.groupSettings, fields: ["group"], describe: (p) => `the settings of group ${show(p["group"])}` },
  { declaration: d.groupAvatar, fields: ["group"], describe: (p) => `the avatar of group ${show(p["group"])}` },
  // A user named by id in one resource and by username in another is not matched: the program cannot tell.
  { declaration: d.projectMember, fields: ["project", "user"], caseInsensitive: ["user"], describe: (p) => `the membership of user ${show(p["user"])} in project ${show(p["project"])}` },
  { declaration: d.geoSite, fields: ["name"], caseInsensitive: ["name"], describe: (p) => `the Geo site ${show(p["name"])}` },
  { declaration: d.repositoryStorageMove, fields: ["kind", "sourceStorageName"], describe: (p) => `the ${String(p["kind"])} repositories of storage ${show(p["sourceStorageName"])}` },
  // One integration of each slug per group: two would overwrite each other's settings on every up.
  ...(Object.values(groupIntegrations) as AnyDeclaration[]).map((declaration) => ({
    declaration,
    fields: ["group"],
    describe: (p: Bag) => `the ${integrationKindOf(declaration.name)?.slug ?? declaration.name} integration of group ${show(p["group"])}`,
  })),
];

export const oneResourcePerObject = stackPolicy({
  name: "one-resource-per-object",
  description: "Two resources of a program do not name the same object of the forge (a label's name in a group, an agent's name in a project, a project's setting, a group's integration of a slug...).",
  enforcementLevel: "mandatory",
  resources: IDENTITIES.map((identity) => identity.declaration),
  check({ resources, report }) {
    const byObject = new Map<string, { identity: Identity; members: StackResource[] }>();
    // Ordered by name: the engine hands resources over in no fixed order, messages must not vary.
    const ordered = [...resources].sort((a, b) => a.resource.name.localeCompare(b.resource.name) || a.resource.urn.localeCompare(b.resource.urn));
    for (const member of ordered) {
      const identity = IDENTITIES.find((candidate) => member.resource.type.endsWith(`:${candidate.declaration.name}`));
      if (!identity) continue;
      const values = identity.fields.map((field) => member.props[field]);
      // Not known yet (at preview), or not given: not judged.
      if (!values.every((value) => value !== undefined && isKnown(value))) continue;
      const part = (field: string, index: number) => {
        const key = keyOf(field, values[index]);
        return identity.caseInsensitive?.includes(field) ? key.toLowerCase() : key;
      };
      const key = `${identity.declaration.name}|${identity.fields.map(part).join("|")}`;
      const entry = byObject.get(key) ?? { identity, members: [] };
      entry.members.push(member);
      byObject.set(key, entry);
    }
    for (const { identity, members } of byObject.values()) {
      const [first, ...extra] = members;
      for (const member of extra) {
        report(
          `${member.subject} declares ${identity.describe(member.props)}, which ${first!.subject} already declares; the forge holds one. ` +
            `Keep one of the two resources.`,
          member.resource.urn,
        );
      }
    }
  },
});
