import { describe, expect, it } from "vitest";
import { type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const POLICY = "/groups/acme/-/virtual_registries/cleanup/policy";

describe("virtual registry cleanup policies", () => {
  it("creates a policy with the defaults, scheduled one cadence ahead, and reads it", async () => {
    const created = await api("POST", POLICY, { as: "max" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      group_id: 1,
      cadence: 7,
      keep_n_days_after_download: 30,
      enabled: false,
      notify_on_success: false,
      notify_on_failure: false,
      status: "scheduled",
      last_run_at: null,
      last_run_deleted_size: 0,
      last_run_deleted_entries_count: 0,
      failure_message: null,
      last_run_detailed_metrics: {},
    });
    expect(Date.parse(created.body.next_run_at) - Date.parse(created.body.created_at)).toBe(7 * 86_400_000);
    expect((await api("GET", "/groups/1/-/virtual_registries/cleanup/policy", { as: "max" })).body).toEqual(created.body);
  });

  it("GET without a policy answers 404 Not found", async () => {
    expect(await api("GET", POLICY, { as: "max" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("allows one policy per group: a second POST is a model error on group", async () => {
    await api("POST", POLICY, { as: "max" });
    expect(await api("POST", POLICY, { as: "max", json: { cadence: 1 } })).toMatchObject({
      status: 400,
      body: { message: { group: ["has already been taken"] } },
    });
  });

  it("refuses a subgroup with 403", async () => {
    expect(await api("POST", "/groups/acme%2Fplatform/-/virtual_registries/cleanup/policy", { as: "root" })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });

  it.each<[SeedUser, number]>([
    ["max", 201],
    ["dev", 403],
    ["nomad", 404],
  ])("creating as %s answers %i (Maintainer of the group needed)", async (as, status) => {
    expect((await api("POST", POLICY, { as })).status).toBe(status);
  });

  it.each([1, 7, 14, 30, 90])("takes cadence %i", async (cadence) => {
    expect((await api("POST", POLICY, { as: "max", json: { cadence } })).body.cadence).toBe(cadence);
  });

  it.each([0, 2, 60, 365])("refuses cadence %i", async (cadence) => {
    expect(await api("POST", POLICY, { as: "max", json: { cadence } })).toMatchObject({
      status: 400,
      body: { error: "cadence does not have a valid value" },
    });
  });

  it.each([
    [0, 400],
    [1, 201],
    [365, 201],
    [366, 400],
  ])("keep_n_days_after_download %i answers %i (1 to 365)", async (days, status) => {
    const res = await api("POST", POLICY, { as: "max", json: { keep_n_days_after_download: days } });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body).toEqual({ error: "keep_n_days_after_download does not have a valid value" });
  });

  it("PATCH needs at least one field, changes what it is given and moves the next run with the cadence", async () => {
    const created = (await api("POST", POLICY, { as: "max" })).body;
    expect(await api("PATCH", POLICY, { as: "max", json: {} })).toMatchObject({
      status: 400,
      body: {
        error:
          "cadence, enabled, keep_n_days_after_download, notify_on_success, notify_on_failure are missing, at least one parameter must be provided",
      },
    });
    const patched = await api("PATCH", POLICY, { as: "max", json: { cadence: 30, notify_on_failure: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ cadence: 30, notify_on_failure: true, enabled: false, keep_n_days_after_download: 30 });
    expect(Date.parse(patched.body.next_run_at) - Date.parse(created.created_at)).toBe(30 * 86_400_000);
  });

  it("PATCH and DELETE without a policy answer 404 Not found", async () => {
    expect(await api("PATCH", POLICY, { as: "max", json: { enabled: true } })).toMatchObject({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(await api("DELETE", POLICY, { as: "max" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("DELETE answers 204 and the policy is gone", async () => {
    await api("POST", POLICY, { as: "max" });
    const deleted = await api("DELETE", POLICY, { as: "max" });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await api("GET", POLICY, { as: "max" })).status).toBe(404);
  });

  it("needs Premium: Free answers 403, Premium works", async () => {
    await admin("PUT", "/settings", { tier: "free" });
    expect(await api("POST", POLICY, { as: "root" })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    await admin("PUT", "/settings", { tier: "premium" });
    expect((await api("POST", POLICY, { as: "root" })).status).toBe(201);
  });
});
