/**
 * What the contract table cannot say for project members, snippets and Geo sites: a snippet's
 * files changed every way in one update, promotions queued for approval (rule 4), removal of
 * direct memberships only (rule 3), Geo defaults, and their lookups and action. Real engine,
 * client and emulator over HTTP on loopback.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { closeClients, ForgeApiError } from "../../provider/client";
import type { State } from "../../provider/engine/declaration";
import { dynamicFaceOf } from "../../provider/runtime";
import { repairGeoSite } from "../../provider";
import * as lookups from "../../provider/generated/lookups";
import { instanceSettings, useWorld } from "./world";

const world = useWorld();

interface LoggedRequest {
  method: string;
  path: string;
}
async function requests(): Promise<LoggedRequest[]> {
  return (await (await world().emulator.admin("/requests")).json()) as LoggedRequest[];
}

it("a snippet whose files are renamed, edited, added and removed in one update ends with exactly the new set", async () => {
  const ops = dynamicFaceOf("Snippet");
  const before = {
    title: "Ops",
    files: [
      { filePath: "a/keep.txt", content: "kept\n" },
      { filePath: "a/rename-me.txt", content: "moved content\n" },
      { filePath: "edit-me.txt", content: "old\n" },
      { filePath: "remove-me.txt", content: "bye\n" },
    ],
  };
  const created = await ops.create(before);
  const after = {
    title: "Ops",
    files: [
      { filePath: "a/keep.txt", content: "kept\n" },
      { filePath: "b/renamed.txt", content: "moved content\n" },
      { filePath: "edit-me.txt", content: "new\n" },
      { filePath: "c/d/added.txt", content: "added\n" },
    ],
  };
  const diff = await ops.diff(created.id, created.outs as State, after);
  expect(diff).toMatchObject({ changes: true, replaces: [] });
  await world().emulator.admin("/requests", { method: "DELETE" });
  const updated = await ops.update(created.id, created.outs as State, after);

  // One PUT, with one action per changed file: a move for the renamed one.
  const puts = (await requests()).filter((request) => request.method === "PUT");
  expect(puts).toHaveLength(1);
  const snippetId = (updated.outs as State)["snippetId"] as number;
  const record = await world().api.request<{ files: { path: string }[] }>("GET", "/snippets/:id", { id: snippetId });
  expect(record.body.files.map((file) => file.path).sort()).toEqual(after.files.map((file) => file.filePath).sort());
  // Read back raw, file by file, with `/` in the paths sent URL-encoded.
  for (const file of after.files) {
    expect(await lookups.getSnippetFileRaw({ snippetId, ref: "main", filePath: file.filePath })).toBe(file.content);
  }
  expect(await lookups.getSnippetRaw({ snippetId })).toBe("kept\n");
  const read = await ops.read(created.id, updated.outs as State);
  expect(await ops.diff(created.id, read.props as State, after)).toMatchObject({ changes: false });
});

it("sends a move, not a delete and a create, for a file renamed with its content", async () => {
  // A recording hop between the provider and the emulator: the request log keeps no bodies.
  const bodies: unknown[] = [];
  const hop = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (request.method === "PUT") bodies.push(JSON.parse(body));
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !["host", "content-length", "connection"].includes(name)),
      ) as Record<string, string>;
      fetch(`${world().emulator.url}${request.url}`, { method: request.method, headers, body: body === "" ? undefined : body }).then(
        async (answer) => {
          response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
          response.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => hop.listen(0, "127.0.0.1", resolve));
  const { port } = hop.address() as AddressInfo;
  try {
    process.env["FORGE_BASE_URL"] = `http://127.0.0.1:${port}`;
    const ops = dynamicFaceOf("Snippet");
    const created = await ops.create({
      title: "Move",
      files: [
        { filePath: "x.txt", content: "same\n" },
        { filePath: "y.txt", content: "other\n" },
      ],
    });
    await ops.update(created.id, created.outs as State, {
      title: "Move",
      files: [
        { filePath: "moved/x.txt", content: "same\n" },
        { filePath: "y.txt", content: "other\n" },
      ],
    });
    expect(bodies).toEqual([{ files: [{ action: "move", file_path: "moved/x.txt", content: "same\n", previous_path: "x.txt" }] }]);
  } finally {
    world().actAs("root");
    await closeClients();
    await new Promise((resolve) => hop.close(resolve));
  }
});

it("a snippet whose read-back after its create fails is recorded as the program sent it: the next up sees no change and sends no file action", async () => {
  const ops = dynamicFaceOf("Snippet");
  const inputs = { title: "Half made", files: [{ filePath: "a.txt", content: "one\n" }] };
  // Every read of the new snippet is refused while the create is answered (the read-back fails).
  await world().emulator.admin("/faults", { method: "POST", json: { method: "GET", path: "^/snippets/\\d+$", status: 403, times: 1 } });
  const failure = (await ops.create(inputs).then(
    () => undefined,
    (error: unknown) => error,
  )) as { id?: string; properties?: State } | undefined;
  await world().emulator.admin("/faults", { method: "DELETE" });
  expect(failure?.id, "a create that failed after the object exists records it").toBeDefined();
  const recorded = failure!.properties!;
  expect(recorded["files"]).toEqual(inputs.files);
  const diff = await ops.diff(failure!.id!, recorded, inputs);
  expect(diff).toMatchObject({ changes: false });
  // A refresh then reads what the forge holds: the same.
  const read = await ops.read(failure!.id!, recorded);
  expect(read.props?.["files"]).toEqual(inputs.files);
});

it("lists own, public and all snippets, with the date filters", async () => {
  const ops = dynamicFaceOf("Snippet");
  world().actAs("dev");
  await ops.create({ title: "Private one", files: [{ filePath: "p.txt", content: "p" }] });
  await ops.create({ title: "Public one", visibility: "public", files: [{ filePath: "q.txt", content: "q" }] });
  world().actAs("max");
  await ops.create({ title: "Max's", files: [{ filePath: "m.txt", content: "m" }] });
  world().actAs("dev");
  expect((await lookups.listSnippets({})).map((snippet) => snippet["title"])).toEqual(["Public one", "Private one"]);
  expect((await lookups.listSnippets({ scope: "public" })).map((snippet) => snippet["title"])).toEqual(["Public one"]);
  expect((await lookups.listSnippets({ scope: "all" })).map((snippet) => snippet["title"])).toEqual(["Public one", "Private one"]);
  expect(await lookups.listSnippets({ scope: "all", createdAfter: "2099-01-01T00:00:00Z" })).toEqual([]);
  expect(await lookups.listSnippets({ createdBefore: "2000-01-01T00:00:00Z" })).toEqual([]);
  world().actAs("root");
  const all = await lookups.listSnippets({ scope: "all", repositoryStorage: "default" });
  expect(all.map((snippet) => snippet["title"])).toEqual(["Max's", "Public one", "Private one"]);
  expect(all[0]).toMatchObject({ repositoryStorage: "default" });
  await expect(lookups.listSnippets({ repositoryStorage: "default" })).rejects.toThrow(/repositoryStorage/);
});

it("a promotion queued for approval is a warning and shows pending; later runs send nothing and see no change", async () => {
  await instanceSettings(world(), { member_promotion_management: true });
  world().actAs("olivia");
  const ops = dynamicFaceOf("ProjectMember");
  const inputs = { project: "acme/web", user: "nomad", accessLevel: 30 };
  const created = await ops.create(inputs);
  expect(created.outs).toMatchObject({ membershipState: "awaiting", accessLevel: 30, queuedNotice: expect.stringContaining("queued") });
  expect(created.outs, "a new member who waits has no level yet").not.toHaveProperty("grantedAccessLevel");
  expect(await ops.diff(created.id, created.outs as State, inputs)).toMatchObject({ changes: false });
  const refreshed = await ops.read(created.id, created.outs as State);
  expect(refreshed.props).toEqual(created.outs);
  expect(await ops.diff(created.id, refreshed.props as State, inputs)).toMatchObject({ changes: false });
  // Listed as awaiting among all members, not among the direct ones.
  const nomad = world().user("nomad").id;
  expect(await lookups.listProjectMembers({ project: "acme/web", all: true, state: "awaiting" })).toEqual([
    expect.objectContaining({ id: nomad, membershipState: "awaiting", accessLevel: 30 }),
  ]);
  expect((await lookups.listProjectMembers({ project: "acme/web" })).map((member) => member["id"])).not.toContain(nomad);

  // An administrator approves: the member is active at the level asked for, still no change.
  await world().emulator.admin(`/member_approvals/${world().projectId("acme/web")}/${nomad}/approve`, { method: "POST" });
  const approved = await ops.read(created.id, refreshed.props as State);
  expect(approved.props).toMatchObject({ membershipState: "active", grantedAccessLevel: 30, accessLevel: 30 });
  expect(approved.props).not.toHaveProperty("queuedNotice");
  expect(await ops.diff(created.id, approved.props as State, inputs)).toMatchObject({ changes: false });
});

it("a rejected promotion shows as drift, and the next update asks again", async () => {
  await instanceSettings(world(), { member_promotion_management: true });
  world().actAs("olivia");
  const ops = dynamicFaceOf("ProjectMember");
  const project = world().projectId("acme/web");
  const nomad = world().user("nomad").id;
  const guest = await ops.create({ project: "acme/web", user: nomad, accessLevel: 10 });
  expect(guest.outs).toMatchObject({ membershipState: "active", grantedAccessLevel: 10, user: nomad });
  const promote = { project: "acme/web", user: nomad, accessLevel: 40 };
  const queued = await ops.update(guest.id, guest.outs as State, promote);
  expect(queued.outs).toMatchObject({ membershipState: "awaiting", grantedAccessLevel: 10, accessLevel: 40 });
  await world().emulator.admin(`/member_approvals/${project}/${nomad}/reject`, { method: "POST" });
  const rejected = await ops.read(guest.id, queued.outs as State);
  expect(rejected.props).toMatchObject({ membershipState: "active", accessLevel: 10 });
  expect(await ops.diff(guest.id, rejected.props as State, promote)).toMatchObject({ changes: true });
  const again = await ops.update(guest.id, rejected.props as State, promote);
  expect(again.outs).toMatchObject({ membershipState: "awaiting", accessLevel: 40 });
});

it("lists direct members and, with all, the effective level through the project's groups (rule 1)", async () => {
  const ops = dynamicFaceOf("ProjectMember");
  // dev is a Developer of acme; a direct Maintainer role in acme/web is the higher one there.
  await ops.create({ project: "acme/web", user: "dev", accessLevel: 40 });
  const direct = await lookups.listProjectMembers({ project: "acme/web" });
  expect(direct.map((member) => [member["username"], member["accessLevel"]])).toEqual([["dev", 40]]);
  const all = await lookups.listProjectMembers({ project: "acme/web", all: true });
  const levels = Object.fromEntries(all.map((member) => [member["username"], member["accessLevel"]]));
  expect(levels).toMatchObject({ olivia: 50, max: 40, dev: 40, rita: 20, gus: 10 });
  expect(all.filter((member) => member["username"] === "dev")).toHaveLength(1);
  const dev = world().user("dev").id;
  const rita = world().user("rita").id;
  expect(
    (await lookups.listProjectMembers({ project: "acme/web", all: true, userIds: [rita] })).map((member) => member["username"]),
  ).toEqual(["rita"]);
  expect(await lookups.listProjectMembers({ project: "acme/web", skipUsers: [dev] })).toEqual([]);
  expect((await lookups.listProjectMembers({ project: "acme/web", all: true, query: "RITA" })).map((member) => member["username"])).toEqual(
    ["rita"],
  );
  await expect(lookups.listProjectMembers({ project: "acme/web", state: "active" })).rejects.toThrow(/state/);
});

it("removes direct memberships only (rule 3): a user with access through a group has none here", async () => {
  const rita = world().user("rita").id;
  const error = await world()
    .api.request("DELETE", "/projects/:project/members/:userId", { project: "acme/api", userId: rita })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(ForgeApiError);
  expect((error as ForgeApiError).status).toBe(404);
  // The resource's delete after its membership went away out of band succeeds (the user keeps
  // Reporter through acme: the provider warns instead of failing the destroy).
  const ops = dynamicFaceOf("ProjectMember");
  const created = await ops.create({ project: "acme/api", user: "rita", accessLevel: 30 });
  await world().api.request("DELETE", "/projects/:project/members/:userId", { project: "acme/api", userId: rita });
  expect((await ops.read(created.id, created.outs as State)).id).toBe("");
  await ops.delete(created.id, created.outs as State);
  expect(await lookups.listProjectMembers({ project: "acme/api", all: true, userIds: [rita] })).toEqual([
    expect.objectContaining({ accessLevel: 20 }),
  ]);
});

it("a Geo site gets the default capacities, and internal_url shows url without a diff", async () => {
  const ops = dynamicFaceOf("GeoSite");
  const inputs = { name: "secondary-1", url: "https://geo-2.example.com" };
  const created = await ops.create(inputs);
  expect(created.outs).toMatchObject({
    url: "https://geo-2.example.com",
    internalUrl: "https://geo-2.example.com/",
    filesMaxCapacity: 10,
    reposMaxCapacity: 25,
    verificationMaxCapacity: 100,
    containerRepositoriesMaxCapacity: 10,
    primary: false,
    enabled: true,
  });
  const read = await ops.read(created.id, created.outs as State);
  expect(await ops.diff(created.id, read.props as State, inputs)).toMatchObject({ changes: false });
  // Written with its slash or without, the same URL.
  expect(await ops.diff(created.id, read.props as State, { ...inputs, internalUrl: "https://geo-2.example.com" })).toMatchObject({
    changes: false,
  });

  const siteId = (created.outs as State)["siteId"] as number;
  expect(await repairGeoSite({ siteId })).toMatchObject({ id: siteId, name: "secondary-1" });
  expect((await lookups.listGeoSites({})).map((site) => site["name"])).toEqual(["secondary-1"]);
  expect(await lookups.listGeoSiteStatuses({})).toEqual([
    expect.objectContaining({ geoNodeId: siteId, projectRepositoriesSyncedCount: 3 }),
  ]);
});

it("selective sync by namespaces, then by shards, then everything again", async () => {
  const ops = dynamicFaceOf("GeoSite");
  const acme = world().groupId("acme");
  const first = { name: "selective", url: "https://sel.example.com/", selectiveSyncType: "namespaces", selectiveSyncNamespaceIds: [acme] };
  const created = await ops.create(first);
  expect(created.outs).toMatchObject({ selectiveSyncType: "namespaces", selectiveSyncNamespaceIds: [acme] });
  const second = { name: "selective", url: "https://sel.example.com/", selectiveSyncType: "shards", selectiveSyncShards: ["default"] };
  const check = await ops.check({}, { ...second, selectiveSyncNamespaceIds: [acme] });
  expect(check.failures?.map((failure) => failure.reason.split(": ")[0])).toEqual(["selectiveSyncNamespaceIds"]);
  const updated = await ops.update(created.id, created.outs as State, second);
  expect(updated.outs).toMatchObject({ selectiveSyncType: "shards", selectiveSyncShards: ["default"] });
  // Both dropped together (check refuses shards without their type): reset on the forge, and the next diff shows nothing.
  const all = { name: "selective", url: "https://sel.example.com/" };
  const everything = await ops.update(created.id, updated.outs as State, all);
  expect(everything.outs).toMatchObject({ selectiveSyncType: null, selectiveSyncShards: [] });
  const read = await ops.read(created.id, everything.outs as State);
  expect(read.props).toMatchObject({ selectiveSyncType: null, selectiveSyncShards: [], selectiveSyncNamespaceIds: [] });
  expect(await ops.diff(created.id, read.props as State, all)).toMatchObject({ changes: false });
});

it("refuses a second primary site, non-administrators, and editions without Geo", async () => {
  const ops = dynamicFaceOf("GeoSite");
  await ops.create({ name: "main", url: "https://one.example.com", primary: true });
  await expect(ops.create({ name: "other", url: "https://two.example.com", primary: true })).rejects.toMatchObject({
    status: 400,
    message: expect.stringContaining("node already exists"),
  });
  world().actAs("olivia");
  await expect(ops.create({ name: "mine", url: "https://three.example.com" })).rejects.toMatchObject({ status: 403 });
  world().actAs("root");
  await instanceSettings(world(), { tier: "free" });
  await expect(ops.create({ name: "free", url: "https://four.example.com" })).rejects.toMatchObject({
    status: 403,
    message: expect.stringContaining("Premium"),
  });
  await instanceSettings(world(), { tier: "ultimate", offering: "hosted" });
  await expect(lookups.listGeoSites({})).rejects.toMatchObject({ status: 404 });
});
