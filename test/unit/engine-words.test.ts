/**
 * The engine's words for the API's recurring shapes, each on a small declaration of its own,
 * run by the generic engine against a scripted server over real HTTP on loopback: records
 * keyed by `iid`, write-only fields inside object inputs, asynchronous creates, file inputs
 * compared by digest, settings that restore what they found, and inputs only an update takes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { HttpMethod } from "../../api";
import { ForgeClient, type Endpoint } from "../../provider/client";
import { defineResource, fieldMeta, declaredSecrets, type AnyDeclaration } from "../../provider/engine/declaration";
import { ResourceOperations } from "../../provider/engine/operations";
import { dynamicOperations } from "../../provider/faces/dynamic";
import { startTestServer, type RecordedRequest, type TestServer } from "./client-test-server";

let server: TestServer;
let client: ForgeClient;
const progress: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: server.url, token: "t", retry: { maxAttempts: 1 } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  progress.length = 0;
});

const run = (declaration: AnyDeclaration) =>
  new ResourceOperations(
    declaration,
    () => client,
    (message) => progress.push(message),
  );
/** The same operations on the dynamic face, whose property bags carry the serialized provider. */
const runDynamic = (declaration: AnyDeclaration) => dynamicOperations(run(declaration));
const bodyOf = (request: RecordedRequest | undefined) => JSON.parse(request?.body.toString() || "{}") as Record<string, unknown>;
const requestLine = (request: RecordedRequest) => `${request.method} ${request.rawPath}`;
/** An endpoint of the scripted server (not the forge's route table: these declarations are the engine's tests). */
const endpoint = <const M extends HttpMethod>(method: M, path: string): Endpoint<M> =>
  Object.assign({ method, path }, { toString: () => `${method} ${path}` });

describe("a record keyed by iid", () => {
  const userList = defineResource({
    name: "UserList",
    summary: "test",
    inputs: z.object({ project: z.string(), name: z.string() }),
    outputs: z.object({ iid: z.number() }),
    recordId: { output: "iid", wire: "iid" },
    idParts: ["project", "iid"],
    identity: { none: "test" },
    create: endpoint("POST", "/projects/:project/lists"),
    read: endpoint("GET", "/projects/:project/lists/:iid"),
    update: endpoint("PUT", "/projects/:project/lists/:iid"),
    delete: endpoint("DELETE", "/projects/:project/lists/:iid"),
    replaceOn: ["project"],
  });

  it("takes its id from iid, not id, and addresses it by iid", async () => {
    server.script({ status: 201, body: { id: 900, iid: 3, name: "beta" } });
    const created = await run(userList).create({ project: "acme/web", name: "beta" });
    expect(created).toMatchObject({ id: "acme/web:3", outs: { iid: 3, name: "beta" } });
    server.script({ body: { id: 900, iid: 3, name: "gamma" } });
    await run(userList).update("acme/web:3", created.outs, { project: "acme/web", name: "gamma" });
    expect(server.requests.map(requestLine)).toEqual(["POST /api/v4/projects/acme%2Fweb/lists", "PUT /api/v4/projects/acme%2Fweb/lists/3"]);
  });
});

describe("a write-only field inside an object input", () => {
  const cluster = defineResource({
    name: "Cluster",
    summary: "test",
    inputs: z.object({ name: z.string(), vendor: z.object({ apiUrl: z.string(), token: z.string() }) }),
    outputs: z.object({ clusterId: z.number() }),
    recordId: "clusterId",
    idParts: ["clusterId"],
    identity: { none: "test" },
    create: endpoint("POST", "/clusters"),
    read: endpoint("GET", "/clusters/:clusterId"),
    update: endpoint("PUT", "/clusters/:clusterId"),
    replaceOn: [],
    writeOnly: ["vendor.token"],
  });

  it("keeps the last applied value, compares with it, and makes the whole object secret", async () => {
    server.script({ status: 201, body: { id: 5, name: "prod", vendor: { api_url: "https://k8s" } } });
    const inputs = { name: "prod", vendor: { apiUrl: "https://k8s", token: "s3cret" } };
    const { outs } = await run(cluster).create(inputs);
    expect(bodyOf(server.requests[0])).toEqual({ name: "prod", vendor: { api_url: "https://k8s", token: "s3cret" } });
    expect(outs["vendor"]).toEqual({ apiUrl: "https://k8s", token: "s3cret" });
    expect(await run(cluster).diff("5", outs, inputs)).toMatchObject({ changes: false });
    expect(await run(cluster).diff("5", outs, { ...inputs, vendor: { apiUrl: "https://k8s", token: "rotated" } })).toMatchObject({
      changes: true,
    });
    expect(declaredSecrets(cluster)).toEqual(["vendor"]);
  });

  it("refresh keeps the applied secret while the readable part follows the server", async () => {
    server.script({ body: { id: 5, name: "prod", vendor: { api_url: "https://moved" } } });
    const read = await run(cluster).read("5", { name: "prod", vendor: { apiUrl: "https://k8s", token: "s3cret" }, clusterId: 5 });
    expect(read.props?.["vendor"]).toEqual({ apiUrl: "https://moved", token: "s3cret" });
  });
});

describe("an asynchronous create", () => {
  const move = defineResource({
    name: "Move",
    summary: "test",
    inputs: z.object({ destination: z.string(), wait: z.boolean().optional() }),
    outputs: z.object({ moveId: z.number(), state: z.string(), error: z.string().optional() }),
    recordId: "moveId",
    idParts: ["moveId"],
    identity: { none: "test" },
    create: {
      route: endpoint("POST", "/moves"),
      await: {
        field: "state",
        done: ["finished"],
        failed: ["failed"],
        reasonField: "error",
        intervalMs: 5,
        timeoutMs: 300,
        skipInput: "wait",
      },
    },
    read: endpoint("GET", "/moves/:moveId"),
    replaceOn: "all",
  });

  it("reads until the final state, reporting each new state once", async () => {
    server.script(
      { status: 201, body: { id: 1, state: "scheduled" } },
      { body: { id: 1, state: "started" } },
      { body: { id: 1, state: "started" } },
      { body: { id: 1, state: "finished" } },
    );
    const { outs } = await run(move).create({ destination: "b" });
    expect(outs["state"]).toBe("finished");
    expect(progress).toEqual(["Move 1: state is scheduled", "Move 1: state is started", "Move 1: state is finished"]);
  });

  it("fails with the reason when the work fails, recording the object", async () => {
    server.script({ status: 201, body: { id: 2, state: "scheduled" } }, { body: { id: 2, state: "failed", error: "disk full" } });
    await expect(run(move).create({ destination: "b" })).rejects.toMatchObject({ message: "Move 2 ended failed: disk full", id: "2" });
  });

  it("gives up after the timeout with what it saw last", async () => {
    server.fallback = { body: { id: 3, state: "started" } };
    await expect(run(move).create({ destination: "b" })).rejects.toThrow(/Move 3: still started after 0 min/);
  });

  it("does not wait when told not to", async () => {
    server.script({ status: 201, body: { id: 4, state: "scheduled" } });
    const { outs } = await run(move).create({ destination: "b", wait: false });
    expect(outs["state"]).toBe("scheduled");
    expect(server.requests).toHaveLength(1);
  });
});

describe("a file input", () => {
  const avatar = defineResource({
    name: "Avatar",
    summary: "test",
    inputs: z.object({ group: z.string(), avatar: z.string().register(fieldMeta, { file: {} }) }),
    outputs: z.object({ avatarUrl: z.string() }),
    idParts: ["group"],
    identity: { fields: ["group"], describe: () => "the avatar", takesOver: "test" },
    create: endpoint("PUT", "/groups/:group"),
    read: endpoint("GET", "/groups/:group"),
    update: endpoint("PUT", "/groups/:group"),
    replaceOn: ["group"],
  });
  const dir = mkdtempSync(join(tmpdir(), "forge-files-"));
  const logo = join(dir, "logo.png");

  it("is sent as its content and compared by digest, not by path", async () => {
    writeFileSync(logo, "first image");
    const checked = await run(avatar).check({}, { group: "acme", avatar: logo });
    expect(checked.inputs?.["avatarSha256"]).toMatch(/^sha256:[0-9a-f]{64}$/);
    server.script({ body: { avatar_url: "http://forge/a.png" } });
    const { outs } = await run(avatar).create(checked.inputs!);
    const upload = server.requests[0]!;
    expect(upload.headers["content-type"]).toMatch(/^multipart\/form-data/);
    expect(upload.body.toString()).toContain('filename="logo.png"');
    expect(upload.body.toString()).toContain("first image");
    expect(await run(avatar).diff("acme", outs, checked.inputs!)).toMatchObject({ changes: false });

    writeFileSync(logo, "second image");
    const changed = await run(avatar).check(outs, { group: "acme", avatar: logo });
    expect(await run(avatar).diff("acme", outs, changed.inputs!)).toMatchObject({ changes: true, replaces: [] });
  });

  it("fails check naming the field when the file cannot be read", async () => {
    const checked = await run(avatar).check({}, { group: "acme", avatar: join(dir, "missing.png") });
    expect(checked.failures).toEqual([{ property: "", reason: expect.stringMatching(/^avatar: cannot read the file/) }]);
  });
});

describe("a setting of an existing object", () => {
  const setting = defineResource({
    name: "Setting",
    summary: "test",
    inputs: z.object({ project: z.string(), active: z.boolean(), mode: z.string().optional() }),
    outputs: z.object({}),
    idParts: ["project"],
    identity: { fields: ["project"], describe: () => "the setting" },
    setting: true,
    create: endpoint("PATCH", "/projects/:project/setting"),
    read: endpoint("GET", "/projects/:project/setting"),
    update: { route: endpoint("PATCH", "/projects/:project/setting"), readBack: true },
    replaceOn: ["project"],
  });

  it("remembers what it found for the fields it sets, and writes it back on delete", async () => {
    server.script({ body: { active: false, mode: "strict" } }, { status: 204 }, { body: { active: true, mode: "strict" } });
    const { outs } = await run(setting).create({ project: "acme/web", active: true });
    expect(outs["__restore"]).toEqual({ active: false });
    expect(bodyOf(server.requests[1])).toEqual({ active: true });
    server.reset();
    server.script({ status: 204 });
    await run(setting).delete("acme/web", outs);
    expect(server.requests.map(requestLine)).toEqual(["PATCH /api/v4/projects/acme%2Fweb/setting"]);
    expect(bodyOf(server.requests[0])).toEqual({ active: false });
  });
});

describe("an input the create request does not take", () => {
  const environment = defineResource({
    name: "Environment",
    summary: "test",
    inputs: z.object({ group: z.string(), name: z.string(), count: z.number().optional() }),
    outputs: z.object({}),
    idParts: ["group", "name"],
    identity: { fields: ["group", "name"], describe: () => "the environment" },
    create: { route: endpoint("POST", "/groups/:group/environments"), omit: ["count"] },
    read: endpoint("GET", "/groups/:group/environments/:name"),
    update: endpoint("PUT", "/groups/:group/environments/:name"),
    replaceOn: ["group", "name"],
  });

  it("is left out of the create and written by an update right after it", async () => {
    // The first GET: a create of a unique identity looks for it first (an object there before is not its own).
    server.script(
      { status: 404, body: { message: "404 Not found" } },
      { status: 201, body: { name: "production", count: 0 } },
      { body: { name: "production", count: 2 } },
    );
    const { outs } = await run(environment).create({ group: "acme", name: "production", count: 2 });
    expect(server.requests.map(requestLine)).toEqual([
      "GET /api/v4/groups/acme/environments/production",
      "POST /api/v4/groups/acme/environments",
      "PUT /api/v4/groups/acme/environments/production",
    ]);
    expect(bodyOf(server.requests[1])).toEqual({ name: "production" });
    expect(bodyOf(server.requests[2])).toEqual({ count: 2 });
    expect(outs["count"]).toBe(2);
  });

  it("needs no update when the program does not set it", async () => {
    server.script({ status: 404, body: { message: "404 Not found" } }, { status: 201, body: { name: "staging", count: 0 } });
    await run(environment).create({ group: "acme", name: "staging" });
    expect(server.requests.map(requestLine)).toEqual([
      "GET /api/v4/groups/acme/environments/staging",
      "POST /api/v4/groups/acme/environments",
    ]);
  });

  it("records the created object when the update after it fails", async () => {
    server.script(
      { status: 404, body: { message: "404 Not found" } },
      { status: 201, body: { name: "testing", count: 0 } },
      { status: 400, body: { message: "no" } },
    );
    await expect(
      runDynamic(environment).create({ group: "acme", name: "testing", count: 9, __provider: "provider-code" }),
    ).rejects.toMatchObject({
      id: "acme:testing",
      // The object as created, with the serialized provider, and the reason Pulumi shows.
      properties: { name: "testing", count: 0, __provider: "provider-code" },
      reasons: [expect.stringContaining("400")],
    });
  });
});

describe("a replacement path inside an object input, and write-only fields the state does not know", () => {
  const cluster = defineResource({
    name: "Cluster",
    summary: "test",
    inputs: z.object({ name: z.string(), platform: z.object({ apiUrl: z.string(), token: z.string(), mode: z.string().optional() }) }),
    outputs: z.object({ clusterId: z.number() }),
    recordId: "clusterId",
    idParts: ["clusterId"],
    identity: { none: "test" },
    create: endpoint("POST", "/clusters"),
    read: endpoint("GET", "/clusters/:clusterId"),
    update: endpoint("PUT", "/clusters/:clusterId"),
    delete: endpoint("DELETE", "/clusters/:clusterId"),
    replaceOn: ["platform.mode"],
    writeOnly: ["platform.token"],
  });
  const olds = { clusterId: 1, name: "a", platform: { apiUrl: "https://a", token: "t", mode: "x" } };

  it("replaces when the path changes, updates in place when the rest of the object does", async () => {
    expect(await run(cluster).diff("1", olds, { ...olds, platform: { ...olds.platform, mode: "y" } })).toMatchObject({
      changes: true,
      replaces: ["platform"],
    });
    expect(await run(cluster).diff("1", olds, { ...olds, platform: { ...olds.platform, token: "rotated" } })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("takes a nested write-only value the state does not hold (after an import, none) as a change the update shows, never a replacement", async () => {
    const imported = { clusterId: 1, name: "a", platform: { apiUrl: "https://a", mode: "x" } };
    expect(await run(cluster).diff("1", imported, olds)).toMatchObject({ changes: true, replaces: [] });
    expect(await run(cluster).diff("1", imported, { ...olds, platform: { apiUrl: "https://a", mode: "x" } })).toMatchObject({
      changes: false,
    });
  });

  it("does not compare it for a kind only replaced: writing it would replace the object", async () => {
    const { update: _update, ...rest } = cluster;
    const replacedOnly = defineResource({ ...rest, replaceOn: "all" });
    const imported = { clusterId: 1, name: "a", platform: { apiUrl: "https://a", mode: "x" } };
    expect(await run(replacedOnly).diff("1", imported, olds)).toMatchObject({ changes: false });
    expect(await run(replacedOnly).diff("1", imported, { ...olds, platform: { ...olds.platform, apiUrl: "https://b" } })).toMatchObject({
      changes: true,
    });
  });
});

describe("a create whose read-back fails after the object exists", () => {
  const item = defineResource({
    name: "Item",
    summary: "test",
    inputs: z.object({ group: z.string(), title: z.string() }),
    outputs: z.object({ itemId: z.number() }),
    recordId: "itemId",
    idParts: ["group", "itemId"],
    identity: { none: "test" },
    create: { route: endpoint("POST", "/groups/:group/items"), readBack: true },
    read: endpoint("GET", "/groups/:group/items/:itemId"),
    replaceOn: "all",
  });

  it("records the object with the serialized provider and the reason", async () => {
    server.script({ status: 201, body: { id: 7 } }, { status: 403, body: { message: "403 Forbidden" } });
    await expect(runDynamic(item).create({ group: "acme", title: "t", __provider: "provider-code" })).rejects.toMatchObject({
      id: "acme:7",
      properties: { group: "acme", title: "t", itemId: 7, __provider: "provider-code" },
      reasons: [expect.stringContaining("403")],
    });
  });
});
