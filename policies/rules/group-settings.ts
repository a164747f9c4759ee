/**
 * Group settings across a program: what the schema cannot see of one resource alone (whether a
 * group given by id is a subgroup), and what a security reviewer asks of a group (two-factor
 * authentication on top-level groups, no public groups by accident).
 */
import { TOP_LEVEL_ONLY_SETTINGS } from "../../api/group-settings";
import { fromWire } from "../../provider/engine/naming";
import { groupAvatar } from "../../provider/resources/group-avatar";
import { groupSettings } from "../../provider/resources/group-settings";
import { resourcePolicy, stackPolicy, type StackResource } from "../lib/define";
import { isKnown, refKey, show, type Bag } from "../lib/values";

const TOP_LEVEL_ONLY_INPUTS = TOP_LEVEL_ONLY_SETTINGS.map((wire) => Object.keys(fromWire({ [wire]: null }) as Bag)[0]!);

/** A group's full path as written: `acme%2Fplatform` → `acme/platform`; undefined for an id or an unknown value. */
function pathOf(group: unknown): string | undefined {
  if (typeof group !== "string" || !isKnown(group) || /^\d+$/.test(group)) return undefined;
  try {
    return decodeURIComponent(group).replace(/^\/+|\/+$/g, "");
  } catch {
    return group;
  }
}

/** What the program's group resources tell of a group: its full path, and which resource told it. */
interface Known {
  fullPath: string;
  subject: string;
}

/** Group ids to full paths, from every group resource of the program whose id and path are both known. */
function knownGroups(resources: StackResource[]): Map<string, Known> {
  const known = new Map<string, Known>();
  for (const member of resources) {
    const { groupId, fullPath, group } = member.props;
    const path = isKnown(fullPath) && typeof fullPath === "string" ? fullPath : pathOf(group);
    const ids = [groupId, typeof group === "number" || (typeof group === "string" && /^\d+$/.test(group)) ? group : undefined].filter(
      (id) => isKnown(id),
    );
    if (path === undefined) continue;
    for (const id of ids) known.set(refKey(id), { fullPath: path, subject: member.subject });
    known.set(refKey(path), { fullPath: path, subject: member.subject });
  }
  return known;
}

export const groupSettingsTopLevelOnly = stackPolicy({
  name: "group-settings-top-level-only",
  description: "Settings only a top-level group takes are not set on a group the program shows to be a subgroup.",
  enforcementLevel: "mandatory",
  resources: [groupSettings, groupAvatar],
  check({ resources, report }) {
    const known = knownGroups(resources);
    const ordered = [...resources].sort((a, b) => a.resource.name.localeCompare(b.resource.name));
    for (const member of ordered) {
      if (!member.resource.type.endsWith(":GroupSettings")) continue;
      const set = TOP_LEVEL_ONLY_INPUTS.filter((key) => member.props[key] !== undefined && member.props[key] !== null);
      const group = member.props["group"];
      // A full path with a / is the schema's to report; an unknown group cannot be judged.
      if (set.length === 0 || !isKnown(group) || pathOf(group) !== undefined) continue;
      const parentId = member.props["parentId"];
      const found = known.get(refKey(group));
      const subgroup = (isKnown(parentId) && parentId !== null) || (found !== undefined && found.fullPath.includes("/"));
      if (!subgroup) continue;
      const where = found
        ? `${found.subject} shows group ${show(group)} is ${show(found.fullPath)}, a subgroup`
        : `group ${show(group)} has a parent group`;
      report(
        `${member.subject} sets ${set.join(", ")} on group ${show(group)}, but ${where}; the forge takes ${set.length > 1 ? "these" : "this"} on top-level groups only. ` +
          `Set ${set.length > 1 ? "them" : "it"} on the top-level group${found ? ` ${show(found.fullPath.split("/")[0])}` : ""} instead.`,
        member.resource.urn,
      );
    }
  },
});

export const groupSettingsTwoFactor = resourcePolicy({
  name: "group-settings-two-factor",
  description: "A top-level group's settings require two-factor authentication of its members.",
  enforcementLevel: "advisory",
  resources: [groupSettings],
  check({ inputs, subject, report }) {
    const path = pathOf(inputs["group"]);
    // Only a group known to be top-level: its full path has no /.
    if (path === undefined || path.includes("/")) return;
    const required = inputs["requireTwoFactorAuthentication"];
    if (required === true || (required !== undefined && !isKnown(required))) return;
    report(
      `${subject} manages top-level group ${show(path)} without requiring two-factor authentication${required === false ? " (it turns it off)" : ""}. ` +
        "Set requireTwoFactorAuthentication: true (and a twoFactorGracePeriod in hours for members to set it up).",
    );
  },
});

export const groupSettingsPublicVisibility = resourcePolicy<{ allowedPublicGroups: string[] }>({
  name: "group-settings-public-visibility",
  description: "A group is made public only on purpose: anyone, signed in or not, can see it, its public projects and its members.",
  enforcementLevel: "advisory",
  resources: [groupSettings],
  config: {
    allowedPublicGroups: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "Groups (full paths or ids) meant to be public.",
    },
  },
  check({ inputs, subject, config, report }) {
    if (inputs["visibility"] !== "public") return;
    const group = inputs["group"];
    if (!isKnown(group) || config.allowedPublicGroups.some((allowed) => refKey(allowed) === refKey(group))) return;
    report(
      `${subject} makes group ${show(group)} public: anyone, signed in or not, can see it, its public projects and its members. ` +
        `Use "internal" or "private", or list the group in allowedPublicGroups if it is meant to be public.`,
    );
  },
});
