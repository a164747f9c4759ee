/**
 * Error tracking and cleanup policies beyond the contract rows: which request creates error
 * tracking settings, how a client key rotates, and the lookups a program reads next to them
 * (client keys with their DSN, the settings, a group's cleanup policy).
 */
import { expect, it } from "vitest";
import { dynamicFaceOf } from "../../provider/runtime";
import { lookup } from "../../provider/lookups/lookup";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { useWorld } from "./world";

const world = useWorld();
const listErrorTrackingClientKeys = lookup(lookupDeclarations.listErrorTrackingClientKeys);
const getErrorTrackingSettings = lookup(lookupDeclarations.getErrorTrackingSettings);
const getVirtualRegistryCleanupPolicy = lookup(lookupDeclarations.getVirtualRegistryCleanupPolicy);

it("listErrorTrackingClientKeys gives every key of the project with its DSN, in camelCase", async () => {
  const created = await world().api.request<{ id: number; public_key: string }>("POST", "/projects/:project/error_tracking/client_keys", {
    project: "acme/web",
  });
  const keys = await listErrorTrackingClientKeys({ project: "acme/web" });
  expect(keys).toEqual([
    expect.objectContaining({
      id: created.body.id,
      publicKey: created.body.public_key,
      vendorDsn: expect.stringContaining(`${created.body.public_key}@`),
    }),
  ]);
  expect(await listErrorTrackingClientKeys({ project: "acme/api" })).toEqual([]);
});

it("getErrorTrackingSettings reads the settings, and fails with 404 for a project without any", async () => {
  await expect(getErrorTrackingSettings({ project: "acme/web" })).rejects.toThrow("404 Error Tracking Setting Not Found");
  await world().api.request("PUT", "/projects/:project/error_tracking/settings", { project: "acme/web", active: true, integrated: true });
  expect(await getErrorTrackingSettings({ project: "acme/web" })).toMatchObject({ active: true, integrated: true, apiUrl: null });
});

it("getVirtualRegistryCleanupPolicy reads a group's policy with its schedule", async () => {
  await world().api.request("POST", "/groups/:group/-/virtual_registries/cleanup/policy", { group: "acme", cadence: 14 });
  expect(await getVirtualRegistryCleanupPolicy({ group: "acme" })).toMatchObject({
    groupId: 1,
    cadence: 14,
    status: "scheduled",
    lastRunDetailedMetrics: {},
  });
});

it("ErrorTrackingSettings on a project without settings PUTs the integrated backend; with settings it PATCHes", async () => {
  const settings = dynamicFaceOf("ErrorTrackingSettings");
  const created = await settings.create({ project: "acme/web", active: true });
  expect(created.outs).toMatchObject({ project: "acme/web", active: true, integrated: true });
  // Settings exist now: a create (say, after the resource was deleted) PATCHes, keeping the backend.
  await settings.delete(created.id, created.outs);
  expect((await getErrorTrackingSettings({ project: "acme/web" }))["active"]).toBe(false);
  const again = await settings.create({ project: "acme/web", active: true, integrated: false });
  expect(again.outs).toMatchObject({ active: true, integrated: false });
});

it("ErrorTrackingClientKey rotates by replacement, the new key made before the old one goes", async () => {
  const keys = dynamicFaceOf("ErrorTrackingClientKey");
  const created = await keys.create({ project: "acme/web", rotateOn: { quarter: "2026-Q3" } });
  const diff = await keys.diff(created.id, created.outs, { project: "acme/web", rotateOn: { quarter: "2026-Q4" } });
  expect(diff).toMatchObject({ changes: true, replaces: ["rotateOn"], deleteBeforeReplace: false });
  expect(await keys.diff(created.id, created.outs, { project: "acme/web", rotateOn: { quarter: "2026-Q3" } })).toMatchObject({
    changes: false,
  });
  expect(created.outs["dsn"]).toBe(
    `https://${String(created.outs["publicKey"])}@${new URL(world().emulator.url).host}/errortracking/api/v1/projects/1`,
  );
});

it("VirtualRegistryCleanupPolicy on Free fails naming the tier it needs", async () => {
  await world().emulator.admin("/settings", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tier: "free" }),
  });
  await expect(dynamicFaceOf("VirtualRegistryCleanupPolicy").create({ group: "acme", enabled: true })).rejects.toThrow(
    "POST /groups/acme/-/virtual_registries/cleanup/policy failed: 403 Forbidden (VirtualRegistryCleanupPolicy needs the Premium tier or higher",
  );
});
