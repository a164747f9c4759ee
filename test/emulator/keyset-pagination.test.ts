import { describe, expect, it } from "vitest";
import { type Answer, type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();

/** The `rel="next"` URL of a keyset answer, or undefined. */
function next(answer: Answer): string | undefined {
  return /^<([^>]+)>; rel="next"$/.exec(answer.headers.get("link") ?? "")?.[1];
}

/** Follows `rel="next"` verbatim from `path`; every answer of the walk, in order. */
async function walk(path: string, as?: SeedUser): Promise<Answer[]> {
  const answers = [await api("GET", path, as ? { as } : {})];
  for (let url = next(answers[0]!); url !== undefined; url = next(answers.at(-1)!)) {
    answers.push(await api("GET", url, as ? { as } : {}));
    expect(answers.length).toBeLessThan(20);
  }
  return answers;
}

const field = (name: string) => (answers: Answer[]) => answers.flatMap((a) => a.body.map((r: Record<string, unknown>) => r[name]));

describe("keyset pagination", () => {
  it("walks the users by username in pages joined by an opaque cursor, with only a Link header", async () => {
    const answers = await walk("/users?pagination=keyset&order_by=username&sort=asc&per_page=3", "dev");
    expect(answers.map((a) => a.body.length)).toEqual([3, 3, 1]);
    expect(field("username")(answers)).toEqual(["dev", "gus", "max", "nomad", "olivia", "rita", "root"]);
    const first = answers[0]!;
    expect(next(first)).toMatch(/[?&]cursor=[\w-]+/);
    expect(next(first)).toContain("order_by=username");
    expect([...first.headers.keys()].filter((name) => name.startsWith("x-"))).toEqual([]);
    expect(answers.at(-1)!.headers.get("link")).toBeNull();
  });

  it("orders users by id either way, resuming with id_after / id_before", async () => {
    const up = await walk("/users?pagination=keyset&order_by=id&sort=asc&per_page=4", "root");
    expect(field("id")(up)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(next(up[0]!)).toMatch(/id_after=4/);
    const down = await walk("/users?pagination=keyset&order_by=id&sort=desc&per_page=4", "root");
    expect(field("id")(down)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(next(down[0]!)).toMatch(/id_before=4/);
  });

  it("ends on an empty page without a link when the total is a multiple of the page size", async () => {
    const answers = await walk("/projects?pagination=keyset&order_by=id&sort=asc&per_page=1", "root");
    expect(answers.map((a) => a.body.length)).toEqual([1, 1, 1, 0]);
    expect(field("path_with_namespace")(answers)).toEqual(["acme/web", "acme/api", "acme/platform/deployer"]);
    expect(next(answers[1]!)).toContain("id_after=2");
    expect(answers.at(-1)!.headers.get("link")).toBeNull();
  });

  it("lists groups by name ascending, the one ordering the service allows for them", async () => {
    const answers = await walk("/groups?pagination=keyset&order_by=name&sort=asc&per_page=1", "root");
    expect(field("full_path")(answers)).toEqual(["acme", "acme/platform"]);
  });

  it("answers 405 for an ordering keyset does not serve, and 400 for values the listing does not know", async () => {
    for (const path of [
      "/groups?pagination=keyset&order_by=name&sort=desc",
      "/groups?pagination=keyset&order_by=id&sort=asc",
      "/projects?pagination=keyset&order_by=name&sort=asc",
      // The projects listing orders by created_at unless told: not a keyset ordering.
      "/projects?pagination=keyset",
    ]) {
      const res = await api("GET", path, { as: "root" });
      expect(res.status, path).toBe(405);
      expect(res.text).toBe('{"error":"Keyset pagination is not yet available for this type of request"}');
    }
    const unknown = await api("GET", "/users?pagination=keyset&order_by=email&sort=asc", { as: "root" });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toBe('{"error":"order_by does not have a valid value"}');
    const badSort = await api("GET", "/users?pagination=keyset&order_by=id&sort=up", { as: "root" });
    expect(badSort.text).toBe('{"error":"sort does not have a valid value"}');
    const badCursor = await api("GET", "/users?pagination=keyset&order_by=name&sort=asc&cursor=%21", { as: "root" });
    expect(badCursor.status).toBe(400);
  });

  it("keeps offset pagination on the same listings without pagination=keyset", async () => {
    const res = await api("GET", "/users?per_page=2&page=2", { as: "root" });
    expect(res.headers.get("x-total")).toBe("7");
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([5, 4]);
  });
});

describe("the listings of groups, projects and users", () => {
  it("lists groups to anonymous callers, public ones only", async () => {
    expect((await api("GET", "/groups")).body).toEqual([]);
    await admin("PUT", "/groups/acme", { visibility: "public" });
    const res = await api("GET", "/groups?pagination=keyset&order_by=name&sort=asc");
    expect(res.status).toBe(200);
    expect(res.body.map((g: { full_path: string }) => g.full_path)).toEqual(["acme"]);
  });

  it("lists a user's groups, every visible one with all_available, and filters them", async () => {
    const names = async (query: string, as: SeedUser) =>
      (await api("GET", `/groups${query}`, { as })).body.map((g: { full_path: string }) => g.full_path);
    expect(await names("", "nomad")).toEqual([]);
    expect(await names("", "dev")).toEqual(["acme", "acme/platform"]);
    expect(await names("?top_level_only=true", "dev")).toEqual(["acme"]);
    expect(await names("?owned=true", "dev")).toEqual([]);
    expect(await names("?owned=true", "olivia")).toEqual(["acme", "acme/platform"]);
    expect(await names("?search=plat", "root")).toEqual(["acme/platform"]);
  });

  it("filters projects by repository_storage for administrators only", async () => {
    const paths = async (query: string, as: SeedUser) =>
      (await api("GET", `/projects${query}`, { as })).body.map((p: { path_with_namespace: string }) => p.path_with_namespace);
    const all = ["acme/platform/deployer", "acme/api", "acme/web"];
    expect(await paths("?repository_storage=default&order_by=id&sort=desc", "root")).toEqual(all);
    expect(await paths("?repository_storage=elsewhere", "root")).toEqual([]);
    // Others' admin-only filter is ignored, as the service ignores it.
    expect(await paths("?repository_storage=elsewhere&order_by=id&sort=desc", "dev")).toEqual(all);
    const record = (await api("GET", "/projects/acme%2Fweb", { as: "root" })).body;
    expect(record.repository_storage).toBe("default");
    expect((await api("GET", "/projects/acme%2Fweb", { as: "dev" })).body.repository_storage).toBeUndefined();
  });

  it("asks anonymous callers of the project and user listings for credentials", async () => {
    for (const path of ["/projects", "/users"]) expect((await api("GET", path)).status).toBe(401);
  });
});
