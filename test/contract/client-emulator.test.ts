/** The HTTP client against the emulator over loopback: keyset pagination and moved projects. */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { ForgeApiError } from "../../provider/client";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());
beforeEach(() => world.reset());

const requests = async (since: number) =>
  (await (await world.emulator.admin(`/requests?since=${since}`)).json()) as { path: string; query: Record<string, string> }[];

async function lastSeq(): Promise<number> {
  const log = (await (await world.emulator.admin("/requests")).json()) as { seq: number }[];
  return log.at(-1)?.seq ?? 0;
}

it("list() with keyset walks every page of the users by their cursor links", async () => {
  const since = await lastSeq();
  const users = await world
    .as("dev")
    .list<{ username: string }>("/users", { per_page: 2 }, { keyset: { orderBy: "username", sort: "asc" } });
  expect(users.map((u) => u.username)).toEqual(["dev", "gus", "max", "nomad", "olivia", "rita", "root"]);
  const sent = await requests(since);
  expect(sent).toHaveLength(4);
  expect(sent[0]?.query).toMatchObject({ pagination: "keyset", order_by: "username", sort: "asc", per_page: "2" });
  expect(sent.slice(1).every((r) => typeof r.query["cursor"] === "string")).toBe(true);
});

it("list() with keyset on projects resumes with id_after and stops on the empty page", async () => {
  const projects = await world.api.list<{ id: number }>("/projects", { per_page: 1 }, { keyset: { orderBy: "id", sort: "asc" } });
  expect(projects.map((p) => p.id)).toEqual([1, 2, 3]);
});

it("a GET at a moved project's old path reads it at the new one; a write there fails with 405", async () => {
  const moved = await world.emulator.admin("/projects/acme%2Fweb", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ path: "website" }),
  });
  expect(moved.status).toBe(200);
  const max = world.as("max");
  const project = await max.request<{ path_with_namespace: string }>("GET", "/projects/:id", { id: "acme/web" });
  expect(project.body.path_with_namespace).toBe("acme/website");
  expect(await max.list("/projects/:id/cluster_agents", { id: "acme/web" })).toEqual([]);
  const write = await max.request("POST", "/projects/:id/cluster_agents", { id: "acme/web", name: "a" }).catch((e: unknown) => e);
  expect(write).toBeInstanceOf(ForgeApiError);
  expect((write as ForgeApiError).status).toBe(405);
});
