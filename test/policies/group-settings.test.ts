import { describe, expect, it } from "vitest";
import { groupSettingsDeprecatedInputs } from "../../policies/rules/deprecations";
import { oneResourcePerObject } from "../../policies/rules/uniqueness";
import { groupSettingsPublicVisibility, groupSettingsTopLevelOnly, groupSettingsTwoFactor } from "../../policies/rules/group-settings";
import { inputSchema } from "../../policies/input-schema";
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { UNKNOWN, urnOf, validateResource, validateStack, type StackCase } from "./harness";

const settings = (name: string, props: Record<string, unknown>): StackCase => ({ declaration: declarations.groupSettings, name, props });

describe("group-settings-top-level-only", () => {
  it("reports a top-level-only setting on a group given by id that another resource of the program shows is a subgroup", async () => {
    const violations = await validateStack(groupSettingsTopLevelOnly, [
      settings("platform", { group: "acme/platform", groupId: 2, fullPath: "acme/platform", description: "Platform" }),
      settings("platform-limits", { group: 2, uniqueProjectDownloadLimit: 50, preventSharingGroupsOutsideHierarchy: true }),
    ]);
    expect(violations).toEqual([
      {
        message:
          'GroupSettings "platform-limits" sets preventSharingGroupsOutsideHierarchy, uniqueProjectDownloadLimit on group 2, but GroupSettings "platform" shows group 2 is "acme/platform", a subgroup; the forge takes these on top-level groups only. Set them on the top-level group "acme" instead.',
        urn: urnOf(typeToken(declarations.groupSettings), "platform-limits"),
      },
    ]);
  });

  it("reports one whose own state shows a parent, and accepts top-level groups, unknown groups and the schema's cases", async () => {
    expect(
      await validateStack(groupSettingsTopLevelOnly, [settings("s", { group: 2, parentId: 1, uniqueProjectDownloadLimit: 5 })]),
    ).toHaveLength(1);
    expect(
      await validateStack(groupSettingsTopLevelOnly, [
        settings("acme", { group: "acme", groupId: 1 }),
        settings("limits", { group: 1, uniqueProjectDownloadLimit: 5 }),
      ]),
    ).toEqual([]);
    expect(
      await validateStack(groupSettingsTopLevelOnly, [
        settings("p", { group: "acme/platform", groupId: 2 }),
        settings("u", { group: UNKNOWN, uniqueProjectDownloadLimit: 5 }),
      ]),
    ).toEqual([]);
    expect(
      await validateStack(groupSettingsTopLevelOnly, [settings("p", { group: "acme/platform", uniqueProjectDownloadLimit: 5 })]),
    ).toEqual([]);
    expect(
      await validateStack(groupSettingsTopLevelOnly, [
        settings("p", { group: "acme/platform", groupId: 2 }),
        settings("q", { group: 2, description: "no top-level-only setting" }),
      ]),
    ).toEqual([]);
  });
});

describe("forge-input-schema on GroupSettings", () => {
  it("reports a top-level-only setting on a subgroup's path, naming the fix", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.groupSettings,
        name: "s",
        props: { group: "acme/platform", preventSharingGroupsOutsideHierarchy: true },
      }),
    ).toEqual([
      'GroupSettings "s" has an invalid preventSharingGroupsOutsideHierarchy: "acme/platform" is a subgroup, and preventSharingGroupsOutsideHierarchy can be set on top-level groups only. Set it on "acme" instead.',
    ]);
  });
});

describe("group-settings-two-factor", () => {
  const check = (props: Record<string, unknown>) =>
    validateResource(groupSettingsTwoFactor, { declaration: declarations.groupSettings, name: "acme", props });

  it("advises two-factor authentication on a top-level group", async () => {
    expect(await check({ group: "acme" })).toEqual([
      'GroupSettings "acme" manages top-level group "acme" without requiring two-factor authentication. Set requireTwoFactorAuthentication: true (and a twoFactorGracePeriod in hours for members to set it up).',
    ]);
    expect(await check({ group: "acme", requireTwoFactorAuthentication: false })).toEqual([expect.stringContaining("(it turns it off)")]);
  });

  it("is satisfied by it, and does not judge subgroups, ids or unknown values", async () => {
    expect(await check({ group: "acme", requireTwoFactorAuthentication: true })).toEqual([]);
    expect(await check({ group: "acme/platform" })).toEqual([]);
    expect(await check({ group: 1 })).toEqual([]);
    expect(await check({ group: "acme", requireTwoFactorAuthentication: UNKNOWN })).toEqual([]);
  });
});

describe("group-settings-public-visibility", () => {
  const check = (props: Record<string, unknown>, config: Record<string, unknown> = {}) =>
    validateResource(groupSettingsPublicVisibility, { declaration: declarations.groupSettings, name: "acme", props, config });

  it("advises against a public group unless it is listed as meant to be public", async () => {
    expect(await check({ group: "acme", visibility: "public" })).toEqual([
      expect.stringMatching(/^GroupSettings "acme" makes group "acme" public: anyone/),
    ]);
    expect(await check({ group: "acme", visibility: "public" }, { allowedPublicGroups: ["ACME"] })).toEqual([]);
    expect(await check({ group: "acme", visibility: "internal" })).toEqual([]);
  });
});

describe("one-resource-per-object on groups", () => {
  it("reports two settings or two avatars of one group", async () => {
    const violations = await validateStack(oneResourcePerObject, [
      settings("a", { group: "acme" }),
      settings("b", { group: "ACME" }),
      { declaration: declarations.groupAvatar, name: "logo", props: { group: "acme", avatar: "a.png" } },
      { declaration: declarations.groupAvatar, name: "logo-2", props: { group: "acme", avatar: "b.png" } },
    ]);
    expect(violations.map((violation) => violation.message)).toEqual([
      'GroupSettings "b" declares the settings of group "ACME", which GroupSettings "a" already declares; the forge holds one. Keep one of the two resources.',
      'GroupAvatar "logo-2" declares the avatar of group "acme", which GroupAvatar "logo" already declares; the forge holds one. Keep one of the two resources.',
    ]);
  });
});

describe("forge-input-schema on GroupAvatar", () => {
  it("takes the digest the provider's check adds to the inputs as the engine's, not the program's", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.groupAvatar,
        name: "a",
        props: { group: "acme", avatar: "logo.png", avatarSha256: "sha256:00" },
      }),
    ).toEqual([]);
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.groupAvatar,
        name: "a",
        props: { group: "acme", avatar: "logo.svg" },
      }),
    ).toEqual([expect.stringContaining('"logo.svg" is not an image file the forge takes as an avatar')]);
  });
});

describe("group-settings-deprecated-inputs", () => {
  const check = (props: Record<string, unknown>) =>
    validateResource(groupSettingsDeprecatedInputs, {
      declaration: declarations.groupSettings,
      name: "g",
      props: { group: "acme", ...props },
    });

  it("names each deprecated input and what replaces it", async () => {
    expect(await check({ defaultBranchProtection: 2, emailsDisabled: true, sharedRunnersSetting: "disabled_with_override" })).toEqual([
      'GroupSettings "g" sets defaultBranchProtection, which the forge has deprecated. Use defaultBranchProtectionDefaults (who may push and merge, and force pushes) instead.',
      'GroupSettings "g" sets emailsDisabled, which the forge has deprecated. Use emailsEnabled (its opposite) instead.',
      'GroupSettings "g" sets sharedRunnersSetting to "disabled_with_override", a deprecated alias. Write "disabled_and_overridable" instead.',
    ]);
    expect(await check({ emailsEnabled: true, sharedRunnersSetting: "disabled_and_overridable" })).toEqual([]);
  });
});
