/**
 * The group lookups and actions through the library against the emulator over HTTP: each filter
 * argument changes the answer (so a filter the client dropped or misspelt fails here), keyset
 * pagination walks every group, and the actions do what they say.
 */
import { expect, it } from "vitest";
import { revokeGroupToken, syncGroupLdap } from "../../provider";
import * as lookups from "../../provider/generated/lookups";
import { instanceSettings, useWorld } from "./world";

const world = useWorld();

async function adminPut(target: string, body: unknown): Promise<void> {
  const response = await world().emulator.admin(`/${target}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

const paths = (records: Record<string, unknown>[]) =>
  records.map((record) => record["fullPath"] ?? record["pathWithNamespace"] ?? record["tagName"] ?? record["name"]);

it("listGroups: every filter of the forge", async () => {
  await adminPut("groups/acme%2Fplatform", {
    archived: true,
    custom_attributes: [{ key: "team", value: "infra" }],
    repository_storage: "secondary",
  });
  await adminPut("groups/acme", { visibility: "internal", marked_for_deletion_on: "2030-01-01" });
  const list = async (args: Parameters<typeof lookups.listGroups>[0]) => paths(await lookups.listGroups(args));
  expect(await list({})).toEqual(["acme", "acme/platform"]);
  expect(await list({ skipGroups: [1] })).toEqual(["acme/platform"]);
  expect(await list({ search: "plat" })).toEqual(["acme/platform"]);
  expect(await list({ orderBy: "id", sort: "desc" })).toEqual(["acme/platform", "acme"]);
  expect(await list({ orderBy: "path", sort: "asc" })).toEqual(["acme", "acme/platform"]);
  expect(await list({ orderBy: "similarity", search: "a" })).toEqual(["acme", "acme/platform"]);
  expect(await list({ visibility: "internal" })).toEqual(["acme"]);
  expect(await list({ topLevelOnly: true })).toEqual(["acme"]);
  expect(await list({ repositoryStorage: "secondary" })).toEqual(["acme/platform"]);
  expect(await list({ markedForDeletionOn: "2030-01-01" })).toEqual(["acme"]);
  expect(await list({ archived: true })).toEqual(["acme/platform"]);
  expect(await list({ active: false })).toEqual(["acme", "acme/platform"]);
  expect(await list({ customAttributes: { team: "infra" } })).toEqual(["acme/platform"]);
  const [withAttributes] = await lookups.listGroups({ withCustomAttributes: true, search: "platform" });
  expect(withAttributes!["customAttributes"]).toEqual([{ key: "team", value: "infra" }]);
  const [withStatistics] = await lookups.listGroups({ statistics: true, topLevelOnly: true });
  expect(withStatistics).toHaveProperty("rootStorageStatistics");
  world().actAs("max");
  expect(await list({})).toEqual(["acme", "acme/platform"]);
  expect(await list({ owned: true })).toEqual([]);
  expect(await list({ minAccessLevel: 50 })).toEqual([]);
  expect(await list({ minAccessLevel: 40 })).toEqual(["acme", "acme/platform"]);
  world().actAs("nomad");
  expect(await list({})).toEqual([]);
  expect(await list({ allAvailable: true })).toEqual(["acme"]);
});

it("listGroups: keyset pagination follows the cursor to the end", async () => {
  const keyset = await lookups.listGroups({ pagination: "keyset" });
  expect(paths(keyset)).toEqual(["acme", "acme/platform"]);
  const log = (await (await world().emulator.admin("/requests")).json()) as { path: string; query: Record<string, string> }[];
  expect(log.at(-1)!.query).toMatchObject({ pagination: "keyset", order_by: "name", sort: "asc" });
  await expect(lookups.listGroups({ pagination: "keyset", orderBy: "id" })).rejects.toThrow(/405/);
});

it("listGroupProjects: every filter", async () => {
  await adminPut("projects/acme%2Fapi", { archived: true, topics: ["backend"], issues_enabled: false, starred_by: [1] });
  await adminPut("projects/acme%2Fweb", { visibility: "internal", merge_requests_enabled: false });
  const list = async (args: Omit<Parameters<typeof lookups.listGroupProjects>[0], "group">, group = "acme") =>
    paths(await lookups.listGroupProjects({ group, ...args }));
  expect(await list({ orderBy: "id", sort: "asc" })).toEqual(["acme/web", "acme/api"]);
  expect(await list({ active: true })).toEqual(["acme/web"]);
  expect(await list({ archived: true })).toEqual(["acme/api"]);
  expect(await list({ visibility: "internal" })).toEqual(["acme/web"]);
  expect(await list({ search: "ap" })).toEqual(["acme/api"]);
  expect(await list({ starred: true })).toEqual(["acme/api"]);
  expect(await list({ topic: "backend" })).toEqual(["acme/api"]);
  expect(await list({ withIssuesEnabled: true })).toEqual(["acme/web"]);
  expect(await list({ withMergeRequestsEnabled: true })).toEqual(["acme/api"]);
  expect(await list({ includeSubgroups: true, orderBy: "path", sort: "asc" })).toEqual(["acme/api", "acme/platform/deployer", "acme/web"]);
  expect(await list({ orderBy: "star_count", sort: "desc" })).toEqual(["acme/api", "acme/web"]);
  expect(await list({ withShared: false }, "acme/platform")).toEqual(["acme/platform/deployer"]);
  expect((await list({}, "acme/platform")).sort()).toEqual(["acme/platform/deployer", "acme/web"]);
  const [simple] = await lookups.listGroupProjects({ group: "acme", simple: true });
  expect(simple).not.toHaveProperty("visibility");
  const [attributes] = await lookups.listGroupProjects({ group: "acme", withCustomAttributes: true });
  expect(attributes!["customAttributes"]).toEqual([]);
  world().actAs("max");
  expect(await list({ owned: true })).toEqual([]);
  expect(await list({ minAccessLevel: 40, orderBy: "id", sort: "asc" })).toEqual(["acme/web", "acme/api"]);
  expect(await list({ minAccessLevel: 50 })).toEqual([]);
});

it("listGroupReleases: sort and simple", async () => {
  expect(paths(await lookups.listGroupReleases({ group: "acme" }))).toEqual(["v0.1.0", "v2.0.0", "v1.0.0"]);
  expect(paths(await lookups.listGroupReleases({ group: "acme", sort: "asc" }))).toEqual(["v1.0.0", "v2.0.0", "v0.1.0"]);
  const [simple] = await lookups.listGroupReleases({ group: "acme", simple: true });
  expect(Object.keys(simple!).sort()).toEqual(["description", "name", "releasedAt", "tagName", "upcomingRelease"]);
});

it("getGroup: with_projects and with_custom_attributes", async () => {
  expect(await lookups.getGroup({ group: "acme" })).toHaveProperty("projects");
  expect(await lookups.getGroup({ group: "acme", withProjects: false })).not.toHaveProperty("projects");
  expect((await lookups.getGroup({ group: "acme", withCustomAttributes: true }))["customAttributes"]).toEqual([]);
  world().actAs("olivia");
  expect(await lookups.getGroup({ group: "acme", withCustomAttributes: true })).not.toHaveProperty("customAttributes");
});

it("getGroupAvatar: the file as the forge serves it, with the digest GroupAvatar compares", async () => {
  const form = new FormData();
  form.append("avatar", new Blob([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00])]), "logo.png");
  await fetch(`${world().emulator.url}/api/v4/groups/acme`, {
    method: "PUT",
    headers: { "PRIVATE-TOKEN": world().user("root").token },
    body: form,
  });
  const avatar = await lookups.getGroupAvatar({ group: "acme" });
  expect(avatar).toMatchObject({
    filename: "logo.png",
    contentType: "image/png",
    size: 6,
    sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
  });
  expect(Buffer.from(avatar["contentBase64"] as string, "base64")).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]));
  await expect(lookups.getGroupAvatar({ group: "acme/platform" })).rejects.toThrow(/404/);
});

it("credentials inventory: every filter, on the hosted offering, for Owners", async () => {
  await expect(lookups.listGroupPersonalAccessTokens({ group: "acme" })).rejects.toThrow(/404/);
  await instanceSettings(world(), { offering: "hosted" });
  world().actAs("olivia");
  const personal = async (args: Omit<Parameters<typeof lookups.listGroupPersonalAccessTokens>[0], "group">) =>
    paths(await lookups.listGroupPersonalAccessTokens({ group: "acme", ...args }));
  expect(await personal({})).toEqual(["dev-old", "max-ci", "olivia-laptop"]);
  expect(await personal({ createdAfter: "2024-02-15T00:00:00Z" })).toEqual(["dev-old"]);
  expect(await personal({ createdBefore: "2024-01-31T00:00:00Z" })).toEqual(["olivia-laptop"]);
  expect(await personal({ lastUsedAfter: "2024-04-01T00:00:00Z" })).toEqual(["olivia-laptop"]);
  expect(await personal({ lastUsedBefore: "2024-04-01T00:00:00Z" })).toEqual(["dev-old"]);
  expect(await personal({ revoked: true })).toEqual(["dev-old"]);
  expect(await personal({ search: "max" })).toEqual(["max-ci"]);
  expect(await personal({ state: "active" })).toEqual(["olivia-laptop"]);
  expect(await personal({ state: "inactive", sort: "name_desc" })).toEqual(["max-ci", "dev-old"]);
  for (const [sort, expected] of [
    ["created_asc", ["olivia-laptop", "max-ci", "dev-old"]],
    ["created_desc", ["dev-old", "max-ci", "olivia-laptop"]],
    ["expires_asc", ["max-ci", "olivia-laptop", "dev-old"]],
    ["expires_desc", ["dev-old", "olivia-laptop", "max-ci"]],
    ["last_used_asc", ["dev-old", "olivia-laptop", "max-ci"]],
    ["last_used_desc", ["olivia-laptop", "dev-old", "max-ci"]],
    ["name_asc", ["dev-old", "max-ci", "olivia-laptop"]],
    ["name_desc", ["olivia-laptop", "max-ci", "dev-old"]],
  ] as const) {
    expect(await personal({ sort }), sort).toEqual(expected);
  }
  const resource = async (args: Omit<Parameters<typeof lookups.listGroupResourceAccessTokens>[0], "group">) =>
    paths(await lookups.listGroupResourceAccessTokens({ group: "acme", ...args }));
  expect(await resource({})).toEqual(["web-deployer", "acme-bot"]);
  expect(await resource({ createdAfter: "2024-04-15T00:00:00Z", createdBefore: "2024-06-01T00:00:00Z" })).toEqual(["web-deployer"]);
  expect(await resource({ lastUsedAfter: "2024-04-15T00:00:00Z", lastUsedBefore: "2024-06-01T00:00:00Z" })).toEqual(["acme-bot"]);
  expect(await resource({ search: "bot", sort: "name_asc" })).toEqual(["acme-bot"]);
  expect(await resource({ revoked: true })).toEqual([]);
  expect(await resource({ state: "inactive" })).toEqual([]);
  for (const token of await lookups.listGroupResourceAccessTokens({ group: "acme" })) expect(token).not.toHaveProperty("token");
  world().actAs("max");
  await expect(lookups.listGroupResourceAccessTokens({ group: "acme" })).rejects.toThrow(/403/);
});

it("revokeGroupToken revokes, answers an already revoked token again, and keeps the token out of its errors", async () => {
  world().actAs("olivia");
  expect(await revokeGroupToken({ group: "acme", token: "forge-seed-web-deployer" })).toMatchObject({
    name: "web-deployer",
    revoked: true,
    username: "project_1_bot",
  });
  expect(await revokeGroupToken({ group: "acme", token: "forge-seed-web-deployer" })).toMatchObject({ revoked: true });
  const refused = await revokeGroupToken({ group: "acme", token: "forge-seed-nomad-token" }).catch((error: Error) => error);
  expect((refused as Error).message).toContain("422");
  expect((refused as Error).message).toContain("revokeGroupToken: the forge knows no such token with access to acme");
  expect((refused as Error).message).not.toContain("forge-seed-nomad-token");
  await expect(revokeGroupToken({ group: "acme/platform", token: "forge-seed-acme-bot" })).rejects.toThrow(/Must be a top-level group/);
  await expect(revokeGroupToken({ group: "acme", token: "" })).rejects.toThrow("revokeGroupToken: invalid arguments: token: is empty");
  await instanceSettings(world(), { offering: "hosted" });
  expect(paths(await lookups.listGroupResourceAccessTokens({ group: "acme", revoked: true }))).toEqual(["web-deployer"]);
});

it("syncGroupLdap starts a sync as an Owner, and names the edition it needs", async () => {
  world().actAs("olivia");
  await expect(syncGroupLdap({ group: "acme" })).resolves.toBeUndefined();
  world().actAs("max");
  await expect(syncGroupLdap({ group: "acme" })).rejects.toThrow(
    /403 Forbidden \(syncGroupLdap needs the Premium tier or higher; syncGroupLdap: it needs an administrator or the group's Owner\)/,
  );
  await instanceSettings(world(), { offering: "hosted" });
  world().actAs("olivia");
  await expect(syncGroupLdap({ group: "acme" })).rejects.toThrow(/404 .*\(syncGroupLdap exists only on self-managed instances\)/);
});
