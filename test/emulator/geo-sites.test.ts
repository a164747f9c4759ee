import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const { api, admin } = useEmulator();

describe("geo sites", () => {
  it("creates a site with the spec's defaults; internal_url shows url until set; url gets a trailing slash", async () => {
    const res = await api("POST", "/geo_sites", { as: "root", json: { name: "primary", url: "https://geo.example.com", primary: true } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "primary",
      url: "https://geo.example.com/",
      internal_url: "https://geo.example.com/",
      primary: true,
      enabled: true,
      current: true,
      files_max_capacity: 10,
      repos_max_capacity: 25,
      verification_max_capacity: 100,
      container_repositories_max_capacity: 10,
      sync_object_storage: false,
      selective_sync_type: null,
      selective_sync_shards: [],
      selective_sync_namespace_ids: [],
      minimum_reverification_interval: 90,
      _links: { repair: expect.stringMatching(/\/api\/v4\/geo_sites\/1\/repair$/) },
    });
    expect(res.body).not.toHaveProperty("web_geo_replication_details_url");
    const id = res.body.id as number;
    const internal = await api("PUT", `/geo_sites/${id}`, { as: "root", json: { internal_url: "http://10.0.0.5" } });
    expect(internal.body.internal_url).toBe("http://10.0.0.5/");
    const cleared = await api("PUT", `/geo_sites/${id}`, { as: "root", json: { internal_url: "" } });
    expect(cleared.body.internal_url).toBe("https://geo.example.com/");
  });

  it("keeps one primary, and names unique regardless of case", async () => {
    await api("POST", "/geo_sites", { as: "root", json: { name: "Main", url: "https://a.example.com", primary: true } });
    expect(
      await api("POST", "/geo_sites", { as: "root", json: { name: "other", url: "https://b.example.com", primary: true } }),
    ).toMatchObject({
      status: 400,
      body: { message: { primary: ["node already exists"] } },
    });
    expect(await api("POST", "/geo_sites", { as: "root", json: { name: "MAIN", url: "https://b.example.com" } })).toMatchObject({
      status: 400,
      body: { message: { name: ["has already been taken"] } },
    });
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ["a missing url", { name: "x" }, { error: "url is missing" }],
    ["a url that is not http(s)", { name: "x", url: "ftp://x" }, { message: { url: ["is invalid"] } }],
    [
      "a negative capacity",
      { name: "x", url: "https://x", repos_max_capacity: -1 },
      { message: { repos_max_capacity: ["must be greater than or equal to 0"] } },
    ],
    [
      "an unknown sync type",
      { name: "x", url: "https://x", selective_sync_type: "everything" },
      { error: "selective_sync_type does not have a valid value" },
    ],
    [
      "a reverification interval below a day",
      { name: "x", url: "https://x", minimum_reverification_interval: 0 },
      { message: { minimum_reverification_interval: ["must be greater than or equal to 1"] } },
    ],
  ])("refuses %s with 400", async (_case, json, body) => {
    expect(await api("POST", "/geo_sites", { as: "root", json })).toMatchObject({ status: 400, body });
  });

  it("changes selective sync, repairs, reports statuses, deletes", async () => {
    const site = await api("POST", "/geo_sites", { as: "root", json: { name: "secondary", url: "https://s.example.com" } });
    const id = site.body.id as number;
    const byNamespace = await api("PUT", `/geo_sites/${id}`, {
      as: "root",
      form: "selective_sync_type=namespaces&selective_sync_namespace_ids[]=1&selective_sync_namespace_ids[]=2",
    });
    expect(byNamespace.body).toMatchObject({ selective_sync_type: "namespaces", selective_sync_namespace_ids: [1, 2] });
    const none = await api("PUT", `/geo_sites/${id}`, {
      as: "root",
      json: { selective_sync_type: null, selective_sync_namespace_ids: [] },
    });
    expect(none.body).toMatchObject({ selective_sync_type: null, selective_sync_namespace_ids: [] });
    expect((await api("POST", `/geo_sites/${id}/repair`, { as: "root" })).body).toMatchObject({ id, name: "secondary" });
    const statuses = await api("GET", "/geo_sites/status", { as: "root" });
    expect(statuses.body).toEqual([
      expect.objectContaining({ geo_node_id: id, projects_count: 3, project_repositories_synced_count: 3, snippet_repositories_count: 0 }),
    ]);
    expect((await api("DELETE", `/geo_sites/${id}`, { as: "root" })).status).toBe(204);
    expect(await api("GET", `/geo_sites/${id}`, { as: "root" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("is for administrators, on Premium and above, self-managed only", async () => {
    expect((await api("GET", "/geo_sites", { as: "olivia" })).status).toBe(403);
    expect((await api("GET", "/geo_sites")).status).toBe(401);
    await admin("PUT", "/settings", { tier: "free" });
    expect((await api("GET", "/geo_sites", { as: "root" })).status).toBe(403);
    await admin("PUT", "/settings", { tier: "premium", offering: "dedicated" });
    expect(await api("GET", "/geo_sites", { as: "root" })).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
  });
});
