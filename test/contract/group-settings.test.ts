/**
 * GroupSettings and GroupAvatar beyond the table: the removals the table cannot set together,
 * the rules check states before any request, the edition refusals by name, what delete restores,
 * and the avatar's digest, blank value and secrets.
 */
import { expect, it } from "vitest";
import { ForgeApiError } from "../../provider/client";
import type { State } from "../../provider/engine/declaration";
import { dynamicFaceOf } from "../../provider/runtime";
import { imageFile } from "./fixtures";
import { byField, instanceSettings, useWorld } from "./world";

const world = useWorld();
const settings = () => dynamicFaceOf("GroupSettings");
const avatar = () => dynamicFaceOf("GroupAvatar");

async function group(ref: string): Promise<Record<string, unknown>> {
  return (await world().api.request<Record<string, unknown>>("GET", "/groups/:group", { group: ref })).body;
}

/** Create, drop `key`, update: the forge's value afterwards. */
async function dropped(inputs: State, key: string): Promise<State> {
  const created = await settings().create(inputs);
  const { [key]: _gone, ...rest } = inputs;
  expect(await settings().diff(created.id, created.outs as State, rest)).toMatchObject({ changes: true, replaces: [] });
  const updated = await settings().update(created.id, created.outs as State, rest);
  expect(await settings().diff(created.id, updated.outs as State, rest)).toMatchObject({ changes: false });
  return (await settings().read(created.id, updated.outs as State)).props as State;
}

it("resets webBasedCommitSigningEnabled on the hosted offering, the only one that has it", async () => {
  await instanceSettings(world(), { offering: "hosted" });
  const read = await dropped({ group: "acme", webBasedCommitSigningEnabled: true }, "webBasedCommitSigningEnabled");
  expect(read["webBasedCommitSigningEnabled"]).toBe(false);
});

it("resets the deprecated emailsDisabled, and emailsEnabled follows", async () => {
  const read = await dropped({ group: "acme", emailsDisabled: true }, "emailsDisabled");
  expect(read).toMatchObject({ emailsDisabled: false, emailsEnabled: true });
});

it("refuses in check, before any request, what the schema can see: a top-level-only setting on a subgroup's path, both email switches, a path change of a group found by path", async () => {
  const before = await world().requestCount();
  const failures = async (inputs: State) => byField((await settings().check({}, inputs)).failures);
  expect(await failures({ group: "acme/platform", uniqueProjectDownloadLimit: 5 })).toEqual([
    {
      property: "uniqueProjectDownloadLimit",
      reason:
        '"acme/platform" is a subgroup, and uniqueProjectDownloadLimit can be set on top-level groups only. Set it on "acme" instead.',
    },
  ]);
  expect(await failures({ group: "acme", emailsEnabled: true, emailsDisabled: false })).toEqual([
    expect.objectContaining({ property: "emailsDisabled" }),
  ]);
  expect(await failures({ group: "acme", path: "acme-corp" })).toEqual([expect.objectContaining({ property: "path" })]);
  expect(await failures({ group: 1, path: "acme-corp" })).toBeUndefined();
  expect(await failures({ group: "acme", uniqueProjectDownloadLimit: 10_001 })).toEqual([
    { property: "uniqueProjectDownloadLimit", reason: "must be at most 10,000 projects (the forge's limit)" },
  ]);
  expect(await failures({ group: "acme", ipRestrictionRanges: "10.0.0.0/8, 1.2.3" })).toEqual([
    expect.objectContaining({
      property: "ipRestrictionRanges",
      reason: expect.stringContaining('"1.2.3" is not a valid IP address range'),
    }),
  ]);
  expect(
    await failures({ group: "acme", uniqueProjectDownloadLimitAlertlist: Array.from({ length: 101 }, (_, index) => index + 1) }),
  ).toEqual([expect.objectContaining({ property: "uniqueProjectDownloadLimitAlertlist" })]);
  expect(await world().requestCount()).toBe(before);
});

it("fails with the forge's refusal naming the field and the tier it needs", async () => {
  await instanceSettings(world(), { tier: "free" });
  const error = await settings()
    .create({ group: "acme", membershipLock: true })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ForgeApiError);
  expect((error as Error).message).toContain("membership_lock");
  expect((error as Error).message).toContain("needs the Premium tier or higher");
});

it("restores on delete what it found, including inputs the program started to set in an update", async () => {
  const created = await settings().create({ group: "acme", description: "managed" });
  const updated = await settings().update(created.id, created.outs as State, {
    group: "acme",
    description: "managed",
    twoFactorGracePeriod: 12,
    visibility: "internal",
  });
  expect(await group("acme")).toMatchObject({ description: "managed", two_factor_grace_period: 12, visibility: "internal" });
  await settings().delete(created.id, updated.outs as State);
  expect(await group("acme")).toMatchObject({ description: "", two_factor_grace_period: 48, visibility: "private" });
});

it("keeps the group's runner token out of state", async () => {
  const created = await settings().create({ group: "acme", lfsEnabled: false });
  const token = (await group("acme"))["runners_token"] as string;
  expect(token).toMatch(/^GR1348941/);
  expect(JSON.stringify(created.outs)).not.toContain(token);
  expect(JSON.stringify((await settings().read(created.id, created.outs as State)).props)).not.toContain(token);
});

it("compares an avatar by content: the same file elsewhere is no diff, new content under the same path is", async () => {
  const path = imageFile("digest.png", "version one");
  const checked = await avatar().check({}, { group: "acme", avatar: path });
  const created = await avatar().create(checked.inputs!);
  expect(created.outs["avatarSha256"]).toMatch(/^sha256:/);
  const elsewhere = await avatar().check({}, { group: "acme", avatar: imageFile("moved.png", "version one") });
  expect(await avatar().diff(created.id, created.outs as State, elsewhere.inputs!)).toMatchObject({ changes: false });
  imageFile("digest.png", "version two");
  const changed = await avatar().check({}, { group: "acme", avatar: path });
  expect(await avatar().diff(created.id, created.outs as State, changed.inputs!)).toMatchObject({ changes: true, replaces: [] });
  const updated = await avatar().update(created.id, created.outs as State, changed.inputs!);
  const served = await world().api.request<Buffer>("GET", "/groups/:group/avatar", { group: "acme" });
  expect(served.body.toString()).toBe("version two");
  expect(updated.outs["avatarSha256"]).toBe(changed.inputs!["avatarSha256"]);
});

it("takes a blank avatar as no avatar: it removes one, and one added by hand is drift", async () => {
  const created = await avatar().create({ group: "acme", avatar: imageFile("blank.png", "logo") });
  const blank = await avatar().update(created.id, created.outs as State, { group: "acme", avatar: "" });
  expect((await group("acme"))["avatar_url"]).toBeNull();
  expect(blank.outs["avatarSha256"]).toBeUndefined();
  const read = await avatar().read(created.id, blank.outs as State);
  expect(read.id).toBe(created.id);
  expect(await avatar().diff(created.id, read.props as State, { group: "acme", avatar: "" })).toMatchObject({ changes: false });
  const form = new FormData();
  form.append("avatar", new Blob(["by hand"]), "hand.png");
  await fetch(`${world().emulator.url}/api/v4/groups/acme`, {
    method: "PUT",
    headers: { "PRIVATE-TOKEN": world().user("root").token },
    body: form,
  });
  const drifted = await avatar().read(created.id, read.props as State);
  expect(await avatar().diff(created.id, drifted.props as State, { group: "acme", avatar: "" })).toMatchObject({ changes: true });
});
