/**
 * A create that fails after the object exists (a storage move that ends failed) with the real
 * CLI: `up` names the forge's reason, the state records the object as the forge last showed it
 * with the serialized provider, and `refresh`, a replacing `up` and `destroy` all work after it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipEngineTests, startE2eWorld, type E2eWorld } from "./harness";

describe.skipIf(skipEngineTests())("a create that fails after the object exists", () => {
  let world: E2eWorld;
  beforeAll(async () => {
    world = await startE2eWorld();
  }, 120_000);
  afterAll(async () => world?.close());

  it("records the object with its failure, and refresh, up --replace and destroy go on from there", async () => {
    const settings = (body: Record<string, unknown>) => world.emulator.admin("/settings", { method: "PUT", json: body });
    expect((await settings({ storage_move_ms: 0, storage_move_error: "disk full on secondary" })).status).toBeLessThan(300);
    const stack = await world.stack("resources", "partial-failure");
    await stack.declare([
      {
        type: "RepositoryStorageMove",
        name: "move",
        inputs: { kind: "project", sourceStorageName: "default", destinationStorageName: "secondary" },
      },
    ]);
    const failed = await stack.fails("up");
    expect(failed).toContain("disk full on secondary");
    const [recorded] = await stack.resources();
    expect(recorded).toMatchObject({ name: "move", id: "project:default:secondary" });
    expect(recorded!.outputs).toMatchObject({
      state: "failed",
      errorMessage: expect.stringContaining("disk full on secondary"),
      __provider: expect.any(String),
    });

    await stack.refresh();
    const cleared = await settings({ storage_move_error: "" });
    expect(cleared.status).toBeLessThan(300);
    // The repositories are back on default after the failure: a replacing up moves them again.
    await stack
      .cli(
        "up",
        "--yes",
        "--skip-preview",
        "--replace",
        "urn:pulumi:partial-failure::forge-e2e-resources::pulumi-nodejs:dynamic/forge:RepositoryStorageMove::move",
      )
      .catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`up --replace failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
      });
    expect((await stack.resources())[0]!.outputs).toMatchObject({ state: "finished" });
    await stack.destroy();
    expect(await stack.resourceNames()).toEqual([]);
  }, 240_000);
});
