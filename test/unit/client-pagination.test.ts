import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ForgeClient, nextPageUrl, parseLinkHeader } from "../../provider/client";
import { startTestServer, type TestServer } from "./client-test-server";

let server: TestServer;
let client: ForgeClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: server.url, token: "t0ken-for-lists", retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.reset();
});

describe("Link header parsing", () => {
  it("finds rel=next among prev/next/first/last, with commas inside URLs", () => {
    const header =
      '<https://f.example/api/v4/p?page=1&a=x,y>; rel="prev", <https://f.example/api/v4/p?page=3&a=x,y>; rel="next", ' +
      '<https://f.example/api/v4/p?page=1>; rel="first", <https://f.example/api/v4/p?page=9>; rel="last"';
    expect(parseLinkHeader(header).map((l) => l.rels[0])).toEqual(["prev", "next", "first", "last"]);
    expect(nextPageUrl(header, "https://f.example/")).toBe("https://f.example/api/v4/p?page=3&a=x,y");
    expect(nextPageUrl('<https://f.example/x>; rel="last"', "https://f.example/")).toBeUndefined();
    expect(nextPageUrl(undefined, "https://f.example/")).toBeUndefined();
  });
});

describe("list()", () => {
  it("asks per_page=100 and follows rel=next verbatim across 3 pages", async () => {
    // Odd but valid encodings the client must not normalise: %2d, a literal comma, an order it would not produce.
    const page2 = `${server.url}/api/v4/groups/acme%2Fplatform/labels?with_counts=true&page=2&per_page=100&x=%2d,y'z`;
    const page3 = `${server.url}/api/v4/groups/acme%2Fplatform/labels?page=3&per_page=100&with_counts=true&x=%2d,y'z`;
    server.script(
      { body: [{ id: 1 }, { id: 2 }], headers: { link: `<${page2}>; rel="next", <${server.url}/api/v4/first>; rel="first"` } },
      { body: [{ id: 3 }], headers: { link: `<${server.url}/api/v4/prev>; rel="prev", <${page3}>; rel="next"` } },
      { body: [{ id: 4 }], headers: { link: `<${page2}>; rel="prev", <${server.url}/api/v4/first>; rel="first"` } },
    );
    const items = await client.list<{ id: number }>("/groups/:id/labels", { id: "acme/platform", with_counts: true });
    expect(items.map((item) => item.id)).toEqual([1, 2, 3, 4]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/api/v4/groups/acme%2Fplatform/labels?with_counts=true&per_page=100",
      page2.slice(server.url.length),
      page3.slice(server.url.length),
    ]);
    expect(server.requests.every((r) => r.headers["private-token"] === "t0ken-for-lists")).toBe(true);
  });

  it("follows keyset links until there is no rel=next", async () => {
    const next = `${server.url}/api/v4/projects?cursor=eyJpZCI6IjUifQ%3D%3D&order_by=id&pagination=keyset&per_page=100`;
    server.script({ body: [{ id: 5 }], headers: { link: `<${next}>; rel="next"` } }, { body: [{ id: 6 }] });
    const items = await client.list("/projects", { pagination: "keyset", order_by: "id" });
    expect(items).toEqual([{ id: 5 }, { id: 6 }]);
    expect(server.requests[1]?.url).toBe(next.slice(server.url.length));
  });

  it("returns an unpaginated list (no Link header) as its one page and honours a caller's per_page", async () => {
    server.script({ body: [{ name: "a" }, { name: "b" }] });
    expect(await client.list("/features", { per_page: 20 })).toEqual([{ name: "a" }, { name: "b" }]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.rawQuery).toBe("per_page=20");
  });

  it("refuses to send the token to another origin named by a Link header", async () => {
    server.script({ body: [{ id: 1 }], headers: { link: '<https://elsewhere.example/api/v4/projects?page=2>; rel="next"' } });
    await expect(client.list("/projects")).rejects.toThrow(/next-page link points to https:\/\/elsewhere\.example.*refusing/);
    expect(server.requests).toHaveLength(1);
  });

  it("stops on a pagination loop", async () => {
    server.fallback = (req) => ({
      body: [{ id: 1 }],
      headers: { link: `<${server.url}${req.url.includes("page=2") ? req.url : `${req.url}&page=2`}>; rel="next"` },
    });
    try {
      await expect(client.list("/loop")).rejects.toThrow("GET /loop: pagination did not end after 2 pages");
      expect(server.requests).toHaveLength(2);
    } finally {
      server.fallback = { status: 200, body: {} };
    }
  });

  it("raises ForgeApiError for a failing page and an Error for a non-list", async () => {
    const page2 = `${server.url}/api/v4/projects?page=2`;
    server.script(
      { body: [{ id: 1 }], headers: { link: `<${page2}>; rel="next"` } },
      { status: 500, body: { message: "500 Internal Server Error" } },
    );
    await expect(client.list("/projects")).rejects.toThrow("GET /projects failed: 500 Internal Server Error");
    server.script({ body: { id: 1 } });
    await expect(client.list("/projects/:id", { id: 1 })).rejects.toThrow("GET /projects/1 did not return a list");
  });
});
