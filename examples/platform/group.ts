/**
 * The group itself: its settings and its avatar. The settings are those of an existing group:
 * `pulumi destroy` gives the group back the values it had before this program managed them, and
 * deletes the avatar.
 */
import * as path from "node:path";
import * as forge from "pulumi-forge";

export function groupSettings(group: string) {
  const settings = new forge.GroupSettings("group-settings", {
    group,
    description: "The acme platform team: deployment clusters, CI/CD and the tooling around them",
    // Security review: members sign in with a second factor, and get a day to set it up.
    requireTwoFactorAuthentication: true,
    twoFactorGracePeriod: 24,
    // Maintainers create projects, Owners create subgroups.
    projectCreationLevel: "maintainer",
    subgroupCreationLevel: "owner",
    // Nothing of the group is shared outside it (a top-level group's setting).
    preventSharingGroupsOutsideHierarchy: true,
    defaultBranch: "main",
    defaultBranchProtectionDefaults: { allowedToPush: [{ accessLevel: 40 }], allowForcePush: false, allowedToMerge: [{ accessLevel: 40 }] },
  });
  // Compared by its content's SHA-256: a second `up` with the same file uploads nothing.
  const avatar = new forge.GroupAvatar("group-avatar", { group, avatar: path.join("assets", "acme-logo.png") });
  return { settings, avatar };
}
