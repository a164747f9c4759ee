import { describe, expect, it } from "vitest";
import { type SeedUser, useEmulator } from "./helpers";

const { api, emulator } = useEmulator();
const SETTINGS = "/projects/acme%2Fweb/error_tracking/settings";
const KEYS = "/projects/acme%2Fweb/error_tracking/client_keys";

describe("error tracking settings", () => {
  it("a project never configured has none: GET and PATCH answer 404", async () => {
    const missing = { status: 404, body: { message: "404 Error Tracking Setting Not Found" } };
    expect(await api("GET", SETTINGS, { as: "max" })).toMatchObject(missing);
    expect(await api("PATCH", SETTINGS, { as: "max", json: { active: true } })).toMatchObject(missing);
  });

  it("PUT configures the integrated backend, then PATCH switches it", async () => {
    const put = await api("PUT", SETTINGS, { as: "max", json: { active: true, integrated: true } });
    expect(put).toMatchObject({
      status: 200,
      body: { active: true, integrated: true, project_name: null, vendor_external_url: null, api_url: null },
    });
    expect((await api("GET", SETTINGS, { as: "max" })).body).toEqual(put.body);
    expect((await api("PATCH", SETTINGS, { as: "max", json: { active: false } })).body).toMatchObject({ active: false, integrated: true });
    expect((await api("PATCH", SETTINGS, { as: "max", json: { active: true, integrated: false } })).body).toMatchObject({
      active: true,
      integrated: false,
    });
  });

  it("PUT is only for the integrated backend and needs both parameters", async () => {
    expect(await api("PUT", SETTINGS, { as: "max", json: { active: true, integrated: false } })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - integrated must be true: this endpoint configures the integrated backend only" },
    });
    expect(await api("PUT", SETTINGS, { as: "max", json: { active: true } })).toMatchObject({
      status: 400,
      body: { error: "integrated is missing" },
    });
  });

  it("PATCH needs active", async () => {
    await api("PUT", SETTINGS, { as: "max", json: { active: true, integrated: true } });
    expect(await api("PATCH", SETTINGS, { as: "max", json: { integrated: true } })).toMatchObject({
      status: 400,
      body: { error: "active is missing" },
    });
  });

  it.each<[SeedUser, number]>([
    ["max", 200],
    ["dev", 403],
    ["nomad", 404],
  ])("PUT as %s answers %i (Maintainer needed)", async (as, status) => {
    expect((await api("PUT", SETTINGS, { as, json: { active: true, integrated: true } })).status).toBe(status);
  });
});

describe("error tracking client keys", () => {
  it("creates a key with a generated public key and its DSN, and lists it", async () => {
    const created = await api("POST", KEYS, { as: "max" });
    expect(created.status).toBe(201);
    const host = new URL(emulator().url).host;
    expect(created.body).toMatchObject({ active: true, public_key: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(created.body.vendor_dsn).toBe(`https://${created.body.public_key}@${host}/errortracking/api/v1/projects/1`);
    expect((await api("GET", KEYS, { as: "max" })).body).toEqual([created.body]);
  });

  it("DELETE answers 200 with the deleted key; the list no longer has it; again 404", async () => {
    const first = (await api("POST", KEYS, { as: "max" })).body;
    const second = (await api("POST", KEYS, { as: "max" })).body;
    expect(second.public_key).not.toBe(first.public_key);
    expect(await api("DELETE", `${KEYS}/${first.id}`, { as: "max" })).toMatchObject({ status: 200, body: first });
    expect((await api("GET", KEYS, { as: "max" })).body).toEqual([second]);
    expect(await api("DELETE", `${KEYS}/${first.id}`, { as: "max" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await api("DELETE", `${KEYS}/first`, { as: "max" })).toMatchObject({ status: 400, body: { error: "key_id is invalid" } });
  });

  it("a key of another project is not found through this one", async () => {
    const other = (await api("POST", "/projects/acme%2Fapi/error_tracking/client_keys", { as: "max" })).body;
    expect((await api("DELETE", `${KEYS}/${other.id}`, { as: "max" })).status).toBe(404);
  });

  it.each<[SeedUser, number]>([
    ["max", 200],
    ["dev", 403],
    ["nomad", 404],
  ])("listing as %s answers %i (Maintainer needed)", async (as, status) => {
    expect((await api("GET", KEYS, { as })).status).toBe(status);
  });
});
