import { afterAll, beforeAll, beforeEach } from "vitest";
import { closeClients, ForgeClient } from "../../provider/client";
import { startEmulator, type RunningEmulator } from "../../emulator";

interface SeedUser {
  id: number;
  username: string;
  token: string;
  admin: boolean;
}
interface SeedNamespace {
  id: number;
  full_path?: string;
  path_with_namespace?: string;
}

/** An emulator with its seed, and an administrator's client for out-of-band changes. */
export interface World {
  emulator: RunningEmulator;
  /** Administrator client, for changes made behind the provider's back. */
  api: ForgeClient;
  user(username: string): SeedUser;
  groupId(fullPath: string): number;
  projectId(pathWithNamespace: string): number;
  /** A client acting as one of the seeded users. */
  as(username: string): ForgeClient;
  /** Points the provider runtime at the emulator as this user (FORGE_* variables). */
  actAs(username: string): void;
  /** Back to the seed. */
  reset(): Promise<void>;
  /** Requests the emulator has seen so far. */
  requestCount(): Promise<number>;
  /** Requests that write (not GET) the emulator has seen so far. */
  writeCount(): Promise<number>;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const world = worldOf(await startEmulator({ port: 0 }));
  world.actAs("root");
  return world;
}

/** The World of an emulator that is already running (the e2e suite's), for the fixtures' inputs. */
export function worldOf(emulator: RunningEmulator): World {
  const users = emulator.seed.users as SeedUser[];
  const groups = emulator.seed.groups as SeedNamespace[];
  const projects = emulator.seed.projects as SeedNamespace[];
  const find = <T>(items: T[], match: (item: T) => boolean, what: string): T => {
    const item = items.find(match);
    if (!item) throw new Error(`seed has no ${what}`);
    return item;
  };
  const user = (username: string) => find(users, (u) => u.username === username, `user ${username}`);
  const as = (username: string) => new ForgeClient({ baseUrl: emulator.url, token: user(username).token, retry: { maxAttempts: 1 } });
  return {
    emulator,
    api: as("root"),
    user,
    groupId: (path) => find(groups, (g) => g.full_path === path, `group ${path}`).id,
    projectId: (path) => find(projects, (p) => p.path_with_namespace === path, `project ${path}`).id,
    as,
    actAs(username) {
      process.env["FORGE_BASE_URL"] = emulator.url;
      process.env["FORGE_TOKEN"] = user(username).token;
    },
    async reset() {
      await emulator.admin("/reset", { method: "POST" });
    },
    async requestCount() {
      const log = (await (await emulator.admin("/requests")).json()) as unknown[];
      return log.length;
    },
    async writeCount() {
      const log = (await (await emulator.admin("/requests")).json()) as { method: string }[];
      return log.filter((request) => request.method !== "GET").length;
    },
    close: () => emulator.close(),
  };
}

/**
 * One world for a test file, back to the seed and acting as root before each test. Returns an
 * accessor because the world exists only once `beforeAll` has run.
 */
export function useWorld(): () => World {
  let world: World | undefined;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await closeClients();
    await world?.close();
  });
  beforeEach(async () => {
    await world!.reset();
    world!.actAs("root");
  });
  return () => {
    if (!world) throw new Error("world not started");
    return world;
  };
}

/** Changes the emulated instance's settings (`PUT /__emulator/settings`). */
export async function instanceSettings(world: World, settings: Record<string, boolean | number | string>): Promise<void> {
  const response = await world.emulator.admin("/settings", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(settings),
  });
  if (!response.ok) throw new Error(`settings: ${response.status}`);
}

/**
 * The provider's check failures by field, as `checkInputs` gives them: the provider reports them
 * on the resource with the field's path leading the reason (so that the engine prints no value).
 */
export function byField(failures: { property: string; reason: string }[] | undefined): { property: string; reason: string }[] | undefined {
  return failures?.map((failure) => {
    const at = failure.reason.indexOf(": ");
    return failure.property === "" && at > 0 ? { property: failure.reason.slice(0, at), reason: failure.reason.slice(at + 2) } : failure;
  });
}
