import { describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { seedState } from "../../emulator/admin/seed";
import { parseCliArgs } from "../../emulator/cli-main";
import { createStore } from "../../emulator/registry";
import { call, type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const PROJECT_MOVES = "/project_repository_storage_moves";
const GROUP_MOVES = "/group_repository_storage_moves";
const BULK = { source_storage_name: "default", destination_storage_name: "secondary" };

const moveTime = (storage_move_ms: number) => admin("PUT", "/settings", { storage_move_ms });
const onStorage = async (storage: string) =>
  ((await api("GET", `/projects?repository_storage=${storage}`, { as: "root" })).body as { path_with_namespace: string }[]).map(
    (p) => p.path_with_namespace,
  );

describe("repository storage moves", () => {
  it("schedules every project on the source with 202 Accepted; they reach the destination when the move time is over", async () => {
    // A minute of move time, passed on the forge's clock (POST /__emulator/clock), not waited for.
    await moveTime(60_000);
    const res = await api("POST", PROJECT_MOVES, { as: "root", json: BULK });
    expect(res.status).toBe(202);
    expect(res.text).toBe('{"message":"202 Accepted"}');
    const moves = (await api("GET", PROJECT_MOVES, { as: "root" })).body as Record<string, unknown>[];
    expect(moves.map((move) => move["state"])).toEqual(["scheduled", "scheduled", "scheduled"]);
    expect(moves[0]).toMatchObject({
      id: 3,
      source_storage_name: "default",
      destination_storage_name: "secondary",
      error_message: null,
      project: { id: 3, path_with_namespace: "acme/platform/deployer" },
    });
    expect(await onStorage("default")).toHaveLength(3);
    await admin("POST", "/clock", { advance_ms: 30_000 });
    expect(((await api("GET", `${PROJECT_MOVES}/1`, { as: "root" })).body as { state: string }).state).toMatch(/^(started|replicated)$/);
    await admin("POST", "/clock", { advance_ms: 30_000 });
    // The timer at the end moved them: the projects listing sees it without a read of the moves.
    expect(await onStorage("default")).toEqual([]);
    expect((await onStorage("secondary")).sort()).toEqual(["acme/api", "acme/platform/deployer", "acme/web"]);
    expect(((await api("GET", `${PROJECT_MOVES}/1`, { as: "root" })).body as { state: string }).state).toBe("finished");
  });

  it("with storage_move_ms 0 a move is finished when the POST answers; a source with nothing on it schedules nothing", async () => {
    await moveTime(0);
    await api("POST", PROJECT_MOVES, { as: "root", json: BULK });
    expect(await onStorage("secondary")).toHaveLength(3);
    expect((await api("POST", PROJECT_MOVES, { as: "root", json: BULK })).status).toBe(202);
    expect((await api("GET", PROJECT_MOVES, { as: "root" })).body).toHaveLength(3);
  });

  it("a failed move (storage_move_error) names its reason and leaves the repository on the source", async () => {
    await admin("PUT", "/settings", { storage_move_ms: 0, storage_move_error: "checksum mismatch" });
    await api("POST", PROJECT_MOVES, { as: "root", json: BULK });
    const moves = (await api("GET", PROJECT_MOVES, { as: "root" })).body as Record<string, unknown>[];
    expect(moves.every((move) => move["state"] === "failed" && move["error_message"] === "checksum mismatch")).toBe(true);
    expect(await onStorage("default")).toHaveLength(3);
  });

  it.each<[SeedUser | undefined, number, string]>([
    [undefined, 401, '{"message":"401 Unauthorized"}'],
    ["olivia", 403, '{"message":"403 Forbidden"}'],
    ["root", 202, '{"message":"202 Accepted"}'],
  ])("POST as %s answers %i (administrators only)", async (as, status, text) => {
    const res = await api("POST", PROJECT_MOVES, { ...(as ? { as } : {}), json: BULK });
    expect(res).toMatchObject({ status, text });
    expect((await api("GET", PROJECT_MOVES, { ...(as ? { as } : {}) })).status).toBe(status === 202 ? 200 : status);
  });

  it("refuses unknown storages, missing names and a destination equal to the source", async () => {
    const post = (json: unknown) => api("POST", PROJECT_MOVES, { as: "root", json });
    expect((await post({ destination_storage_name: "secondary" })).text).toBe('{"error":"source_storage_name is missing"}');
    expect((await post({ source_storage_name: "default" })).text).toBe('{"error":"destination_storage_name is missing"}');
    expect(await post({ source_storage_name: "default", destination_storage_name: "nowhere" })).toMatchObject({
      status: 400,
      text: '{"error":"destination_storage_name does not have a valid value"}',
    });
    expect(await post({ source_storage_name: "default", destination_storage_name: "default" })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - source_storage_name and destination_storage_name must be different storages" },
    });
  });

  it("moves group wikis, and needs Premium for it (403 on Free); project and snippet moves work on Free", async () => {
    await moveTime(0);
    expect((await api("POST", GROUP_MOVES, { as: "root", json: BULK })).status).toBe(202);
    expect((await api("GET", "/groups/acme", { as: "root" })).body.repository_storage).toBe("secondary");
    expect((await api("GET", GROUP_MOVES, { as: "root" })).body[0]).toMatchObject({
      state: "finished",
      group: { id: 2, name: "Platform" },
    });
    await admin("PUT", "/settings", { tier: "free" });
    expect(await api("POST", GROUP_MOVES, { as: "root", json: BULK })).toMatchObject({ status: 403, text: '{"message":"403 Forbidden"}' });
    expect((await api("POST", "/snippet_repository_storage_moves", { as: "root", json: BULK })).status).toBe(202);
    expect(
      (
        await api("POST", PROJECT_MOVES, {
          as: "root",
          json: { ...BULK, source_storage_name: "secondary", destination_storage_name: "default" },
        })
      ).status,
    ).toBe(202);
  });

  it("does not exist on the hosted offering (404)", async () => {
    await admin("PUT", "/settings", { offering: "hosted" });
    expect((await api("POST", PROJECT_MOVES, { as: "root", json: BULK })).status).toBe(404);
  });

  it("a move not found answers 404 Not found", async () => {
    expect(await api("GET", `${PROJECT_MOVES}/99`, { as: "root" })).toMatchObject({ status: 404, text: '{"message":"404 Not found"}' });
  });
});

describe("repository storage moves: read-only while moving", () => {
  it("marks the repository read-only until its move ends; a second bulk skips what is already moving", () => {
    const store = createStore(seedState());
    Object.assign(store.state.settings, { storage_move_ms: 60_000 });
    const root = store.users.byId(1)!;
    store.repositoryStorageMoves.scheduleAll(root, "project", { source_storage_name: "default", destination_storage_name: "secondary" });
    expect(store.projects.all().map((project) => project.repository_read_only)).toEqual([true, true, true]);
    store.repositoryStorageMoves.scheduleAll(root, "project", { source_storage_name: "default", destination_storage_name: "secondary" });
    expect(store.repositoryStorageMoves.list(root, "project")).toHaveLength(3);
    store.repositoryStorageMoves.advance(Date.now() + 60_000);
    expect(store.projects.all().map((project) => [project.repository_read_only, project.repository_storage])).toEqual([
      [false, "secondary"],
      [false, "secondary"],
      [false, "secondary"],
    ]);
  });
});

describe("repository storage moves: the move time at start", () => {
  it("is taken from --storage-move-ms and kept by a reset", async () => {
    expect(parseCliArgs(["--storage-move-ms", "250"])).toEqual({ storageMoveMs: 250 });
    expect(() => parseCliArgs(["--storage-move-ms", "soon"])).toThrow(/invalid --storage-move-ms soon: a number of milliseconds\nusage:/);
    const emulator = await startEmulator({ port: 0, storageMoveMs: 250 });
    try {
      const settings = () => call(emulator.url, "GET", `${emulator.url}/__emulator/settings`, { as: "root" });
      expect((await settings()).body).toMatchObject({ storage_move_ms: 250 });
      await emulator.admin("/settings", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"storage_move_ms":5}' });
      await emulator.admin("/reset", { method: "POST" });
      expect((await settings()).body).toMatchObject({ storage_move_ms: 250 });
    } finally {
      await emulator.close();
    }
  });
});
