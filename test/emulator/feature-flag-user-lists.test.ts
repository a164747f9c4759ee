import { describe, expect, it } from "vitest";
import { type SeedUser, useEmulator } from "./helpers";

const { api } = useEmulator();
const LISTS = "/projects/acme%2Fweb/feature_flags_user_lists";

async function createList(name = "beta", user_xids = "u1,u2"): Promise<{ id: number; iid: number }> {
  const res = await api("POST", LISTS, { as: "dev", json: { name, user_xids } });
  expect(res.status).toBe(201);
  return res.body as { id: number; iid: number };
}

describe("feature flag user lists", () => {
  it("creates a list numbered per project, stores the ids trimmed and in order", async () => {
    const res = await api("POST", LISTS, { as: "dev", json: { name: "beta", user_xids: " u2 , u1,, u3 " } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ iid: 1, name: "beta", user_xids: "u2,u1,u3", project_id: 1 });
    const other = await api("POST", "/projects/acme%2Fapi/feature_flags_user_lists", {
      as: "root",
      json: { name: "beta", user_xids: "x" },
    });
    expect(other.body.iid).toBe(1); // iids count per project, ids across the instance
    expect(other.body.id).not.toBe(res.body.id);
  });

  it.each<[SeedUser, number]>([
    ["dev", 200],
    ["rita", 403],
    ["nomad", 404],
  ])("listing as %s answers %i (Developer needed)", async (as, status) => {
    expect((await api("GET", LISTS, { as })).status).toBe(status);
  });

  it("is addressed by iid: a path with the global id finds nothing", async () => {
    // A list elsewhere first, so that this project's list has id 2 and iid 1.
    await api("POST", "/projects/acme%2Fapi/feature_flags_user_lists", { as: "root", json: { name: "elsewhere", user_xids: "x" } });
    const list = await createList("mine");
    expect(list).toMatchObject({ id: 2, iid: 1 });
    expect((await api("GET", `${LISTS}/1`, { as: "dev" })).body.name).toBe("mine");
    const byId = await api("GET", `${LISTS}/2`, { as: "dev" });
    expect(byId).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("answers parameter errors and a taken name under `message`", async () => {
    expect(await api("POST", LISTS, { as: "dev", json: { user_xids: "a" } })).toMatchObject({
      status: 400,
      body: { message: "name is missing" },
    });
    await createList("taken");
    expect(await api("POST", LISTS, { as: "dev", json: { name: "taken", user_xids: "a" } })).toMatchObject({
      status: 400,
      body: { message: ["Name has already been taken"] },
    });
    expect(await api("POST", LISTS, { as: "dev", json: { name: "blank", user_xids: " , " } })).toMatchObject({ status: 400 });
  });

  it("updates name and ids, searches by name, deletes", async () => {
    const list = await createList("alpha");
    const updated = await api("PUT", `${LISTS}/${list.iid}`, { as: "dev", json: { user_xids: "z,y" } });
    expect(updated.body).toMatchObject({ name: "alpha", user_xids: "z,y" });
    await createList("omega");
    expect((await api("GET", `${LISTS}?search=alp`, { as: "dev" })).body.map((l: { name: string }) => l.name)).toEqual(["alpha"]);
    expect((await api("DELETE", `${LISTS}/${list.iid}`, { as: "dev" })).status).toBe(204);
    expect((await api("GET", `${LISTS}/${list.iid}`, { as: "dev" })).status).toBe(404);
  });
});
