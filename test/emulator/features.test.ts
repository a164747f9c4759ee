import { describe, expect, it } from "vitest";
import { type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const set = (name: string, json: Record<string, unknown>, as: SeedUser = "root") => api("POST", `/features/${name}`, { as, json });
const DEFINED = "ci_pipeline_fast_start";

describe("instance feature gates", () => {
  it("turns a defined feature on and off; true clears the other gates", async () => {
    await set(DEFINED, { value: 25 });
    const on = await set(DEFINED, { value: true });
    expect(on).toMatchObject({ status: 201, body: { name: DEFINED, state: "on", gates: [{ key: "boolean", value: true }] } });
    expect(on.body.definition).toMatchObject({ name: DEFINED, type: "development", default_enabled: false });
    expect((await set(DEFINED, { value: "false" })).body).toMatchObject({ state: "off", gates: [{ key: "boolean", value: false }] });
  });

  it("sets percentages: of time by default, of actors with the key; boolean false beside them", async () => {
    expect((await set(DEFINED, { value: 30 })).body).toMatchObject({
      state: "conditional",
      gates: [
        { key: "boolean", value: false },
        { key: "percentage_of_time", value: 30 },
      ],
    });
    const actors = await set(DEFINED, { value: "50", key: "percentage_of_actors" });
    expect(actors.body.gates).toContainEqual({ key: "percentage_of_actors", value: 50 });
    expect((await set(DEFINED, { value: 101 })).text).toBe('{"message":"400 Bad request - Value must be a percentage between 0 and 100"}');
  });

  it("adds and removes actor gates, several kinds in one call", async () => {
    const res = await set(DEFINED, {
      value: true,
      user: "dev,max",
      group: "acme",
      project: "acme/web",
      repository: "acme/api",
      namespace: "acme/platform",
      feature_group: "beta_testers",
    });
    expect(res.body.state).toBe("conditional");
    expect(res.body.gates).toContainEqual({
      key: "actors",
      value: ["User:4", "User:3", "Group:1", "Namespace:2", "Project:1", "Repository:2"],
    });
    expect(res.body.gates).toContainEqual({ key: "groups", value: ["beta_testers"] });
    const removed = await set(DEFINED, { value: false, user: "max", feature_group: "beta_testers" });
    expect(removed.body.gates).toContainEqual({ key: "actors", value: ["User:4", "Group:1", "Namespace:2", "Project:1", "Repository:2"] });
    expect(removed.body.gates.some((gate: { key: string }) => gate.key === "groups")).toBe(false);
    expect((await set(DEFINED, { value: true, user: "nobody" })).text).toBe('{"message":"400 Bad request - nobody is not found!"}');
    expect((await set(DEFINED, { value: 10, user: "dev" })).status).toBe(400);
  });

  it("refuses an undefined feature unless forced", async () => {
    expect((await set("made_up", { value: true })).text).toBe(
      `{"message":"400 Bad request - The feature flag YAML definition for 'made_up' does not exist"}`,
    );
    const forced = await set("made_up", { value: true, force: true });
    expect(forced).toMatchObject({ status: 201, body: { name: "made_up", state: "on", definition: null } });
  });

  it("lists features (not paginated) and definitions; DELETE answers the same whether or not it existed", async () => {
    await set(DEFINED, { value: true });
    const list = await api("GET", "/features", { as: "root" });
    expect(list.body.map((feature: { name: string }) => feature.name)).toEqual([DEFINED]);
    expect(list.headers.get("x-total")).toBeNull();
    expect((await api("GET", "/features/definitions", { as: "root" })).body.map((d: { name: string }) => d.name)).toContain(DEFINED);
    const first = await api("DELETE", `/features/${DEFINED}`, { as: "root" });
    const again = await api("DELETE", `/features/${DEFINED}`, { as: "root" });
    expect([first.status, first.text]).toEqual([204, ""]);
    expect([again.status, again.text]).toEqual([204, ""]);
    expect((await api("GET", "/features", { as: "root" })).body).toEqual([]);
  });

  it("is for administrators on self-managed instances", async () => {
    expect(await set(DEFINED, { value: true }, "olivia")).toMatchObject({ status: 403, text: '{"message":"403 Forbidden"}' });
    expect((await set(DEFINED, {})).text).toBe('{"error":"value is missing"}');
    await admin("PUT", "/settings", { offering: "dedicated" });
    expect((await api("GET", "/features", { as: "root" })).status).toBe(404);
  });
});
