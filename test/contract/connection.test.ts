/**
 * How the provider finds the forge: environment or stack config (handed to `configure`), and
 * what a user sees when the token is missing or rejected.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { ForgeApiError, ForgeConfigError } from "../../provider/client";
import { configure, dynamicFaceOf } from "../../provider/runtime";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());
afterEach(() => {
  configure(undefined);
  world.actAs("root");
});

const label = { group: "acme", name: "connection", color: "red" };

it("reads the stack config given to configure when the environment has nothing", async () => {
  delete process.env["FORGE_BASE_URL"];
  delete process.env["FORGE_TOKEN"];
  const config: Record<string, string> = { "forge:baseUrl": world.emulator.url, "forge:token": world.user("max").token };
  configure({ get: (key) => config[key], require: (key) => config[key] as string });
  const created = await dynamicFaceOf("GroupLabel").create(label);
  expect(created.id).toMatch(/^acme:\d+$/);
  const log = (await (await world.emulator.admin("/requests")).json()) as { method: string; user: string }[];
  expect(log.filter((entry) => entry.method === "POST").map((entry) => entry.user)).toEqual(["max"]);
});

it("names both ways to set a missing token", async () => {
  delete process.env["FORGE_TOKEN"];
  const error = await dynamicFaceOf("GroupLabel")
    .create(label)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ForgeConfigError);
  expect((error as Error).message).toContain("FORGE_TOKEN");
  expect((error as Error).message).toContain("forge:token");
});

it("says how to set the token when the forge rejects it, without repeating it", async () => {
  process.env["FORGE_TOKEN"] = "forge-wrong-token";
  const error = await dynamicFaceOf("GroupLabel")
    .create(label)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ForgeApiError);
  expect((error as ForgeApiError).status).toBe(401);
  expect((error as Error).message).toContain("FORGE_TOKEN");
  expect((error as Error).message).not.toContain("forge-wrong-token");
});
