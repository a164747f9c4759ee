/**
 * RepositoryStorageMove against the emulator's moves that take time: create waits for the move
 * with its progress logged, or returns at once when told not to; a failed move is an error with
 * the forge's reason; group moves need Premium; delete leaves the repositories where they are.
 */
import { describe, expect, it } from "vitest";
import type { ForgeApiError } from "../../provider/client";
import * as lookups from "../../provider/generated/lookups";
import { declarations } from "../../provider/resources";
import { ResourceOperations } from "../../provider/engine/operations";
import { dynamicOperations } from "../../provider/faces/dynamic";
import type { State } from "../../provider/engine/declaration";
import { instanceSettings, useWorld } from "./world";

const world = useWorld();
const progress: string[] = [];
const move = () =>
  new ResourceOperations(
    declarations.repositoryStorageMove,
    () => world().api,
    (message) => progress.push(message),
  );
const PROJECTS = { kind: "project", sourceStorageName: "default", destinationStorageName: "secondary" };

const onStorage = async (storage: string) => (await world().api.list("/projects", { repository_storage: storage })).length;

describe("RepositoryStorageMove", () => {
  it("waits until no project is left on the source, logging each new state", async () => {
    progress.length = 0;
    await instanceSettings(world(), { storage_move_ms: 300 });
    const created = await move().create(PROJECTS);
    expect(created.id).toBe("project:default:secondary");
    expect(created.outs).toMatchObject({ state: "finished", remaining: 0, moved: 3, sinceMoveId: 0 });
    expect(created.outs).not.toHaveProperty("errorMessage");
    expect(progress).toEqual([
      "RepositoryStorageMove project:default:secondary: state is scheduled",
      "RepositoryStorageMove project:default:secondary: state is finished",
    ]);
    expect(await onStorage("secondary")).toBe(3);
    // A refresh of a finished move shows it as it was.
    expect((await move().read(created.id, created.outs as State)).props).toEqual(created.outs);
  });

  it("returns as soon as the move is scheduled with waitForCompletion false; a refresh later sees it finished", async () => {
    await instanceSettings(world(), { storage_move_ms: 200 });
    const created = await move().create({ ...PROJECTS, waitForCompletion: false });
    expect(created.outs).toMatchObject({ state: "scheduled", remaining: 3, moved: 0 });
    await new Promise((done) => setTimeout(done, 300));
    progress.length = 0;
    const refreshed = await move().read(created.id, created.outs as State);
    expect(refreshed.props).toMatchObject({ state: "finished", remaining: 0, moved: 3 });
    // The refresh says how it went (the engine counts an output's change as `same`), once.
    expect(progress).toEqual(["RepositoryStorageMove project:default:secondary: state was scheduled, is finished"]);
    await move().read(created.id, refreshed.props);
    expect(progress).toHaveLength(1);
  });

  it("fails with the forge's reason when repositories fail to move, and is still recorded", async () => {
    await instanceSettings(world(), { storage_move_ms: 0, storage_move_error: "checksum mismatch" });
    // On the dynamic face, whose recorded object must carry its serialized provider.
    const error = (await dynamicOperations(move())
      .create({ ...PROJECTS, __provider: "provider-code" })
      .catch((caught: unknown) => caught)) as Error & { id?: string };
    expect(error.message).toBe(
      "RepositoryStorageMove project:default:secondary ended failed: 3 of 3 repositories failed to move: checksum mismatch",
    );
    expect(error.id).toBe("project:default:secondary");
    // The state Pulumi records: the object as the forge last showed it (failed, with its reason),
    // the serialized provider (without it refresh, destroy and a replacing up cannot run), the reason.
    const failure = error as Error & { properties?: Record<string, unknown>; reasons?: string[] };
    expect(failure.properties).toMatchObject({
      state: "failed",
      errorMessage: expect.stringContaining("checksum mismatch"),
      __provider: "provider-code",
    });
    expect(failure.reasons).toEqual([error.message]);
    expect(await onStorage("default")).toBe(3);
  });

  it("counts only its own moves: an earlier move of the same storages back and forth is not this one", async () => {
    await instanceSettings(world(), { storage_move_ms: 0 });
    await move().create(PROJECTS);
    await move().create({ kind: "project", sourceStorageName: "secondary", destinationStorageName: "default" });
    const again = await move().create(PROJECTS);
    expect(again.outs).toMatchObject({ state: "finished", moved: 3, sinceMoveId: 6 });
  });

  it("moves group wikis on Premium; on Free the forge refuses, and the error says why", async () => {
    await instanceSettings(world(), { storage_move_ms: 0 });
    const groups = await move().create({ ...PROJECTS, kind: "group" });
    expect(groups.outs).toMatchObject({ state: "finished", remaining: 0, moved: 2 });
    await instanceSettings(world(), { tier: "free" });
    const error = (await move()
      .create({ ...PROJECTS, kind: "group" })
      .catch((caught: unknown) => caught)) as ForgeApiError;
    expect(error.status).toBe(403);
    expect(error.message).toContain("group repository moves need Premium or Ultimate, and an administrator's token");
  });

  it("a snippet move with nothing to move is finished at once", async () => {
    const snippets = await move().create({ ...PROJECTS, kind: "snippet" });
    expect(snippets.outs).toMatchObject({ state: "finished", remaining: 0, moved: 0 });
  });

  it("delete forgets the move: the repositories stay on the destination", async () => {
    await instanceSettings(world(), { storage_move_ms: 0 });
    const created = await move().create(PROJECTS);
    const before = await world().requestCount();
    await move().delete(created.id, created.outs as State);
    expect(await world().requestCount()).toBe(before);
    expect(await onStorage("secondary")).toBe(3);
  });
});

describe("storage move lookups", () => {
  it("list the projects on a storage and the moves, newest first, and read one move", async () => {
    await instanceSettings(world(), { storage_move_ms: 0 });
    expect(await lookups.listProjectsOnStorage({ repositoryStorage: "secondary" })).toEqual([]);
    await move().create(PROJECTS);
    expect(
      (await lookups.listProjectsOnStorage({ repositoryStorage: "secondary" })).map((project) => project["pathWithNamespace"]).sort(),
    ).toEqual(["acme/api", "acme/platform/deployer", "acme/web"]);
    const moves = await lookups.listProjectRepositoryStorageMoves({});
    expect(moves.map((entry) => entry["id"])).toEqual([3, 2, 1]);
    expect(await lookups.getProjectRepositoryStorageMove({ moveId: 1 })).toMatchObject({
      state: "finished",
      destinationStorageName: "secondary",
      project: { pathWithNamespace: "acme/web" },
    });
    expect(await lookups.listSnippetRepositoryStorageMoves({})).toEqual([]);
    await move().create({ ...PROJECTS, kind: "group" });
    expect(await lookups.getGroupRepositoryStorageMove({ moveId: 4 })).toMatchObject({ state: "finished", group: { name: "Acme" } });
    expect(await lookups.listGroupRepositoryStorageMoves({})).toHaveLength(2);
    await expect(lookups.getSnippetRepositoryStorageMove({ moveId: 1 })).rejects.toThrow(/404 Not found/);
  });
});
