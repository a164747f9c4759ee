import { describe, expect, it } from "vitest";
import { seedState } from "../../emulator/admin/seed";
import { createStore } from "../../emulator/registry";
import type { ClusterRecord } from "../../emulator/resources/instance-clusters/model";
import { type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const CLUSTERS = "/admin/clusters";
const PLATFORM = { api_url: "https://k8s.example.com", token: "cluster-token" };

async function addCluster(extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await api("POST", `${CLUSTERS}/add`, {
    as: "root",
    json: { name: "production", platform_vendor_attributes: PLATFORM, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("instance clusters", () => {
  it("adds a cluster with the spec's defaults and never returns the token", async () => {
    const cluster = await addCluster();
    expect(cluster).toMatchObject({
      name: "production",
      environment_scope: "*",
      enabled: true,
      managed: true,
      provider_type: "user",
      cluster_type: "instance_type",
      provider_vendor: null,
      management_project: null,
      user: { username: "root" },
      platform_vendor: { api_url: "https://k8s.example.com", authorization_type: "rbac", namespace: null, ca_cert: null },
    });
    expect(JSON.stringify(cluster)).not.toContain("cluster-token");
  });

  it("takes platform_vendor_attributes in the bracket form encoding as well as JSON", async () => {
    const form =
      "name=staging&platform_vendor_attributes[api_url]=https%3A%2F%2Fk8s.example.com&platform_vendor_attributes[token]=t&platform_vendor_attributes[authorization_type]=abac";
    const res = await api("POST", `${CLUSTERS}/add`, { as: "root", form });
    expect(res.status).toBe(201);
    expect(res.body.platform_vendor).toMatchObject({ api_url: "https://k8s.example.com", authorization_type: "abac" });
  });

  it.each<[SeedUser | undefined, number, string]>([
    ["max", 403, '{"message":"403 Forbidden"}'],
    [undefined, 401, '{"message":"401 Unauthorized"}'],
  ])("refuses %s: administrators only", async (as, status, text) => {
    expect(await api("GET", CLUSTERS, { as })).toMatchObject({ status, text });
    expect(await api("POST", `${CLUSTERS}/add`, { as, json: { name: "x", platform_vendor_attributes: PLATFORM } })).toMatchObject({
      status,
      text,
    });
  });

  it("answers missing and invalid parameters as the service does", async () => {
    expect((await api("POST", `${CLUSTERS}/add`, { as: "root", json: { platform_vendor_attributes: PLATFORM } })).text).toBe(
      '{"error":"name is missing"}',
    );
    expect((await api("POST", `${CLUSTERS}/add`, { as: "root", json: { name: "x" } })).text).toBe(
      '{"error":"platform_vendor_attributes is missing"}',
    );
    const noToken = await api("POST", `${CLUSTERS}/add`, {
      as: "root",
      json: { name: "x", platform_vendor_attributes: { api_url: "https://a.example" } },
    });
    expect(noToken.text).toBe('{"error":"platform_vendor_attributes[token] is missing"}');
    const badType = await api("POST", `${CLUSTERS}/add`, {
      as: "root",
      json: { name: "x", platform_vendor_attributes: { ...PLATFORM, authorization_type: "none" } },
    });
    expect(badType.text).toBe('{"error":"platform_vendor_attributes[authorization_type] does not have a valid value"}');
    const badUrl = await api("POST", `${CLUSTERS}/add`, {
      as: "root",
      json: { name: "x", platform_vendor_attributes: { ...PLATFORM, api_url: "ftp://a" } },
    });
    expect(badUrl).toMatchObject({
      status: 400,
      body: { message: { "platform_vendor.api_url": ["is blocked: Only allowed schemes are http, https"] } },
    });
  });

  it("updates a cluster added by hand, connection included; authorization_type is no PUT parameter", async () => {
    const cluster = await addCluster({ domain: "apps.example.com" });
    const res = await api("PUT", `${CLUSTERS}/${cluster.id}`, {
      as: "root",
      json: {
        name: "prod",
        environment_scope: "production/*",
        enabled: false,
        domain: "",
        platform_vendor_attributes: { api_url: "https://k8s2.example.com", token: "new", authorization_type: "abac" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "prod", environment_scope: "production/*", enabled: false, domain: null, project: null });
    expect(res.body.platform_vendor).toMatchObject({ api_url: "https://k8s2.example.com", authorization_type: "rbac" });
  });

  it("reads, lists and deletes; a missing cluster is 404 Not found", async () => {
    const cluster = await addCluster();
    expect((await api("GET", `${CLUSTERS}/${cluster.id}`, { as: "root" })).body.name).toBe("production");
    expect((await api("GET", CLUSTERS, { as: "root" })).body).toHaveLength(1);
    expect((await api("DELETE", `${CLUSTERS}/${cluster.id}`, { as: "root" })).status).toBe(204);
    expect(await api("GET", `${CLUSTERS}/${cluster.id}`, { as: "root" })).toMatchObject({
      status: 404,
      text: '{"message":"404 Not found"}',
    });
  });

  it("exists on self-managed instances only", async () => {
    await admin("PUT", "/settings", { offering: "hosted" });
    expect((await api("GET", CLUSTERS, { as: "root" })).status).toBe(404);
  });
});

describe("a cluster not added by hand (only a loaded state holds one)", () => {
  it("refuses a change of name, API URL, CA certificate or token, and takes the rest", () => {
    const store = createStore(seedState());
    const root = store.users.byUsername("root")!;
    const added = store.instanceClusters.add(root, { name: "gke", platform_vendor_attributes: PLATFORM });
    const record = (store.state.instanceClusters as ClusterRecord[]).find((cluster) => cluster.id === added["id"])!;
    record.provider_type = "vendor";
    const refused = () => store.instanceClusters.update(root, String(added["id"]), { platform_vendor_attributes: { token: "new" } });
    expect(refused).toThrow(expect.objectContaining({ status: 400, body: { message: { base: ["Cannot modify managed cluster"] } } }));
    expect(store.instanceClusters.update(root, String(added["id"]), { enabled: false })).toMatchObject({ enabled: false });
  });
});
