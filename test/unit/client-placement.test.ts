import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ForgeClient, encodeQuery, fillPath, placeParams, USER_AGENT } from "../../provider/client";
import { startTestServer, type TestServer } from "./client-test-server";

const TOKEN = "glpat-secret-token-123";
let server: TestServer;
let client: ForgeClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: `${server.url}/`, token: TOKEN, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.reset();
});

describe("placement rule (pure)", () => {
  it("fills :params with encodeURIComponent and removes them from the rest", () => {
    const { path, rest } = fillPath("GET", "/groups/:id/labels/:label_id", {
      id: "acme/platform",
      label_id: 7,
      name: "x",
      gone: undefined,
    });
    expect(path).toBe("/groups/acme%2Fplatform/labels/7");
    expect(rest).toEqual({ name: "x" });
  });

  it("throws a clear error for a missing or empty path parameter", () => {
    expect(() => fillPath("DELETE", "/groups/:id/labels/:label_id", { id: 1 })).toThrow(
      'Missing path parameter "label_id" for DELETE /groups/:id/labels/:label_id',
    );
    expect(() => fillPath("GET", "/groups/:id", { id: "" })).toThrow(/Missing path parameter "id"/);
  });

  it("encodes arrays, hashes, arrays of hashes, booleans, dates and +", () => {
    const query = encodeQuery({
      scopes: ["api", "read_repository"],
      vars: { key: "a b", other: 1 },
      files: [{ file_path: "a/b.txt", content: "x" }, { file_path: "c" }],
      active: true,
      archived: false,
      at: new Date("2024-01-02T03:04:05.000Z"),
      tz: "+01:00",
      skipped: undefined,
      empty: [],
      cleared: null,
    });
    expect(query.split("&")).toEqual([
      "scopes[]=api",
      "scopes[]=read_repository",
      "vars[key]=a%20b",
      "vars[other]=1",
      "files[0][file_path]=a%2Fb.txt",
      "files[0][content]=x",
      "files[1][file_path]=c",
      "active=true",
      "archived=false",
      "at=2024-01-02T03%3A04%3A05.000Z",
      "tz=%2B01%3A00",
      "cleared=",
    ]);
  });

  it("sends JSON for POST/PUT/PATCH, the query for GET/DELETE, and multipart when asked", () => {
    expect(placeParams("PUT", "/projects/:id", { id: 3, name: "n" })).toEqual({
      path: "/projects/3",
      query: "",
      body: '{"name":"n"}',
      contentType: "application/json",
    });
    expect(placeParams("DELETE", "/projects/:id", { id: 3, force: true })).toEqual({ path: "/projects/3", query: "force=true" });
    expect(placeParams("POST", "/projects/:id/star", { id: 3 })).toEqual({ path: "/projects/3/star", query: "" });
    expect(placeParams("POST", "/x", { a: "1" }, true).body?.constructor.name).toBe("FormData");
  });
});

describe("placement over HTTP", () => {
  it("sends the token, user agent and the encoded path under /api/v4", async () => {
    await client.request("GET", "/groups/:id/labels/:label_id", { id: "acme/platform", label_id: "bug fix" });
    const [req] = server.requests;
    expect(req?.rawPath).toBe("/api/v4/groups/acme%2Fplatform/labels/bug%20fix");
    expect(req?.headers["private-token"]).toBe(TOKEN);
    expect(req?.headers["user-agent"]).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^pulumi-forge\/\d+\.\d+\.\d+/);
  });

  it("puts GET params in the query with bracket notation and %2B", async () => {
    await client.request("GET", "/projects/:id/jobs", {
      id: 5,
      scope: ["failed", "success"],
      filter: { ref: "main" },
      rules: [{ name: "a" }],
      since: "2024-01-01T00:00:00+02:00",
      simple: true,
    });
    const [req] = server.requests;
    expect(req?.rawPath).toBe("/api/v4/projects/5/jobs");
    expect(req?.rawQuery).toBe(
      "scope[]=failed&scope[]=success&filter[ref]=main&rules[0][name]=a&since=2024-01-01T00%3A00%3A00%2B02%3A00&simple=true",
    );
    const parsed = new URLSearchParams(req?.rawQuery);
    expect(parsed.get("since")).toBe("2024-01-01T00:00:00+02:00");
    expect(req?.body.length).toBe(0);
  });

  it("puts DELETE params in the query", async () => {
    await client.request("DELETE", "/groups/:id/members/:user_id", { id: 1, user_id: 2, skip_subresources: true });
    expect(server.requests[0]?.url).toBe("/api/v4/groups/1/members/2?skip_subresources=true");
  });

  it("sends POST/PUT/PATCH params as a JSON body, nested values intact", async () => {
    await client.request("POST", "/projects/:id/labels", {
      id: "acme/web",
      name: "bug",
      color: "#FF0000",
      priority: null,
      extra: undefined,
    });
    await client.request("PUT", "/projects/:id", { id: 9, topics: ["a"], settings: { x: 1 } });
    await client.request("PATCH", "/projects/:id/job_token_scope", { id: 9, enabled: false });
    const [post, put, patch] = server.requests;
    expect(post?.rawPath).toBe("/api/v4/projects/acme%2Fweb/labels");
    expect(post?.rawQuery).toBe("");
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post?.body.toString() ?? "")).toEqual({ name: "bug", color: "#FF0000", priority: null });
    expect(JSON.parse(put?.body.toString() ?? "")).toEqual({ topics: ["a"], settings: { x: 1 } });
    expect(patch?.method).toBe("PATCH");
    expect(JSON.parse(patch?.body.toString() ?? "")).toEqual({ enabled: false });
  });

  it("sends multipart/form-data when a param is a Buffer, with bracket notation", async () => {
    const avatar = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    await client.request("PUT", "/groups/:id", { id: 4, avatar, name: "acme", tags: ["a", "b"], meta: { k: "v" } });
    const [req] = server.requests;
    const contentType = String(req?.headers["content-type"]);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(req?.body ?? Buffer.alloc(0)), { headers: { "content-type": contentType } }).formData();
    expect(form.get("name")).toBe("acme");
    expect(form.getAll("tags[]")).toEqual(["a", "b"]);
    expect(form.get("meta[k]")).toBe("v");
    const file = form.get("avatar") as File;
    expect(file.name).toBe("avatar");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(avatar);
  });

  it("keeps a File's name and sends multipart when options.multipart is set", async () => {
    await client.request("POST", "/projects/:id/uploads", { id: 1, file: new File(["hello"], "logo.png") });
    await client.request("POST", "/projects/:id/import", { id: 1, path: "p" }, { multipart: true });
    const [upload, plain] = server.requests;
    const form = await new Response(new Uint8Array(upload?.body ?? Buffer.alloc(0)), {
      headers: { "content-type": String(upload?.headers["content-type"]) },
    }).formData();
    expect((form.get("file") as File).name).toBe("logo.png");
    expect(String(plain?.headers["content-type"])).toMatch(/^multipart\/form-data/);
    expect(plain?.body.toString()).toContain('name="path"');
  });

  it("throws for a missing path param before sending anything", async () => {
    await expect(client.request("GET", "/projects/:id/labels", {})).rejects.toThrow('Missing path parameter "id"');
    expect(server.requests).toHaveLength(0);
  });

  it("parses JSON, text and empty bodies and lower-cases headers", async () => {
    server.script(
      { status: 200, body: { id: 1 }, headers: { "X-Total": "1" } },
      { status: 200, body: "plain text", headers: { "content-type": "text/plain" } },
      { status: 204 },
      { status: 304 },
    );
    const json = await client.request("GET", "/a");
    expect(json.body).toEqual({ id: 1 });
    expect(json.headers["x-total"]).toBe("1");
    expect((await client.request("GET", "/b")).body).toBe("plain text");
    const empty = await client.request("DELETE", "/c");
    expect(empty).toMatchObject({ status: 204, body: undefined });
    const notModified = await client.request("POST", "/projects/1/labels/2/subscribe", {}, { acceptStatuses: [304] });
    expect(notModified).toMatchObject({ status: 304, body: undefined });
  });

  it("keeps a base URL path prefix and drops a pasted /api/v4", async () => {
    const prefixed = new ForgeClient({ baseUrl: `${server.url}/forge/api/v4/`, token: TOKEN });
    try {
      expect(prefixed.baseUrl).toBe(`${server.url}/forge`);
      await prefixed.request("GET", "version");
      expect(server.requests[0]?.rawPath).toBe("/forge/api/v4/version");
    } finally {
      await prefixed.close();
    }
  });
});
