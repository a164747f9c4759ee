import { describe, expect, it } from "vitest";
import { RequestLog } from "../../emulator/admin/request-log";
import { useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

describe("seed and reset", () => {
  it("serves the fixed seed", async () => {
    const seed = (await admin("GET", "/seed")).body;
    expect(seed).toEqual(emulator().seed);
    expect(seed.users.map((u: { username: string; admin: boolean; token: string }) => [u.username, u.admin, u.token])).toEqual([
      ["root", true, "forge-root-token"],
      ["olivia", false, "forge-olivia-token"],
      ["max", false, "forge-max-token"],
      ["dev", false, "forge-dev-token"],
      ["rita", false, "forge-rita-token"],
      ["gus", false, "forge-gus-token"],
      ["nomad", false, "forge-nomad-token"],
    ]);
    expect(seed.groups).toEqual([
      {
        id: 1,
        full_path: "acme",
        parent_id: null,
        members: [
          { user_id: 2, access_level: 50 },
          { user_id: 3, access_level: 40 },
          { user_id: 4, access_level: 30 },
          { user_id: 5, access_level: 20 },
          { user_id: 6, access_level: 10 },
        ],
      },
      { id: 2, full_path: "acme/platform", parent_id: 1, members: [] },
    ]);
    expect(
      seed.projects.map((p: { id: number; path_with_namespace: string; namespace_id: number }) => [
        p.id,
        p.path_with_namespace,
        p.namespace_id,
      ]),
    ).toEqual([
      [1, "acme/web", 1],
      [2, "acme/api", 1],
      [3, "acme/platform/deployer", 2],
    ]);
  });

  it("resets to the seed and restarts ids", async () => {
    const first = await api("POST", "/groups/acme/labels", { as: "max", json: { name: "a", color: "red" } });
    await api("POST", "/groups/acme/labels", { as: "max", json: { name: "b", color: "red" } });
    await admin("PUT", "/settings", { job_token_scope_enforced: true });
    expect((await admin("POST", "/reset")).status).toBe(200);
    expect((await api("GET", "/groups/acme/labels", { as: "max" })).body).toEqual([]);
    const again = await api("POST", "/groups/acme/labels", { as: "max", json: { name: "c", color: "red" } });
    expect(again.body.id).toBe(first.body.id);
    expect((await admin("GET", "/settings")).body.job_token_scope_enforced).toBe(false);
  });
});

describe("request log", () => {
  it("records method, path, query (without the token), status and user", async () => {
    await api("GET", "/groups/acme/labels?search=x&private_token=forge-dev-token");
    await api("GET", "/user");
    const log = (await admin("GET", "/requests")).body;
    expect(log).toEqual([
      {
        seq: expect.any(Number),
        method: "GET",
        path: "/api/v4/groups/acme/labels",
        query: { search: "x" },
        status: 200,
        user: "dev",
        route: "groupLabels.list",
      },
      { seq: expect.any(Number), method: "GET", path: "/api/v4/user", query: {}, status: 401, user: null, route: "user.get" },
    ]);
    const since = (await admin("GET", `/requests?since=${log[0].seq}`)).body;
    expect(since.map((e: { path: string }) => e.path)).toEqual(["/api/v4/user"]);
    expect((await admin("DELETE", "/requests")).status).toBe(204);
    expect((await admin("GET", "/requests")).body).toEqual([]);
  });

  it("masks the value of every query parameter named like a credential, as the provider's messages do", async () => {
    await api("POST", "/users?password=hunter2hunter2&foo_token=abc&hook[secret]=s3cr3t&name=x&private_token=forge-root-token");
    const log = (await admin("GET", "/requests")).body;
    expect(log).toHaveLength(1);
    expect(log[0].query).toEqual({ password: "[secret]", foo_token: "[secret]", hook: { secret: "[secret]" }, name: "x" });
    expect(JSON.stringify(log)).not.toMatch(/hunter2|s3cr3t|forge-root-token/);
  });

  it("names the parameters an endpoint ignored, as the service drops what an endpoint does not declare; no route is null", async () => {
    const json = { name: "ignored", color: "#ff0000", colour: "red", labels: { priority: 1 } };
    const made = await api("POST", "/groups/acme/labels?page=1&utm=x", { as: "max", json });
    expect(made.status).toBe(201);
    await api("GET", "/groups/acme/nothing-here", { as: "max" });
    const log = (await admin("GET", "/requests")).body;
    expect(log.map((entry: { route: string | null; ignored?: string[] }) => [entry.route, entry.ignored])).toEqual([
      ["groupLabels.create", ["utm", "colour", "labels"]],
      [null, undefined],
    ]);
  });
});

describe("faults", () => {
  it("answers a status with body and Retry-After, only `times` times", async () => {
    const { id } = (await admin("POST", "/faults", { path: "^/user$", status: 429, retryAfter: 7, times: 2 })).body;
    expect(typeof id).toBe("number");
    for (let i = 0; i < 2; i++) {
      const res = await api("GET", "/user", { as: "dev" });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("7");
      expect(res.text).toBe("Retry later\n");
    }
    expect((await api("GET", "/user", { as: "dev" })).status).toBe(200);
  });

  it("uses a given body and matches the method", async () => {
    await admin("POST", "/faults", { method: "POST", path: "labels", status: 503, body: { message: "busy" } });
    expect((await api("GET", "/groups/acme/labels", { as: "dev" })).status).toBe(200);
    const res = await api("POST", "/groups/acme/labels", { as: "max", json: { name: "x", color: "red" } });
    expect(res.status).toBe(503);
    expect(res.text).toBe('{"message":"busy"}');
    const log = (await admin("GET", "/requests")).body;
    expect(log.at(-1)).toMatchObject({ method: "POST", status: 503 });
  });

  it("matches query parameters by value, so one page of a listing can be held or failed", async () => {
    await admin("POST", "/faults", { path: "^/groups/acme/labels$", query: { page: 2 }, status: 503 });
    expect((await api("GET", "/groups/acme/labels?page=1", { as: "dev" })).status).toBe(200);
    expect((await api("GET", "/groups/acme/labels", { as: "dev" })).status).toBe(200);
    expect((await api("GET", "/groups/acme/labels?page=2&per_page=100", { as: "dev" })).status).toBe(503);
    expect((await api("GET", "/groups/acme/labels?page=20", { as: "dev" })).status).toBe(200);
  });

  it("defaults the body to the service's message for the status", async () => {
    await admin("POST", "/faults", { path: "^/user$", status: 500, times: 1 });
    expect((await api("GET", "/user", { as: "dev" })).text).toBe('{"message":"500 Internal Server Error"}');
  });

  it("adds latency and still answers", async () => {
    await admin("POST", "/faults", { path: "^/user$", latencyMs: 150, times: 1 });
    const started = Date.now();
    const res = await api("GET", "/user", { as: "dev" });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("lets a delayed request go when the faults are cleared, so a test can hold a request as long as it needs", async () => {
    await admin("POST", "/faults", { path: "^/user$", latencyMs: 600_000, times: 1 });
    const held = api("GET", "/user", { as: "dev" });
    const answered = { yet: false };
    void held.then(() => (answered.yet = true));
    await new Promise((done) => setTimeout(done, 200));
    expect(answered.yet).toBe(false);
    expect((await admin("GET", "/faults")).body).toEqual({ faults: [], held: 1 });
    await admin("DELETE", "/faults");
    expect((await held).status).toBe(200);
  });

  it("releases one fault's held requests by its id, and only those", async () => {
    const first = (await admin("POST", "/faults", { path: "^/user$", latencyMs: 600_000, times: 1 })).body.id;
    await admin("POST", "/faults", { path: "^/groups/acme/labels$", latencyMs: 600_000, times: 1 });
    const user = api("GET", "/user", { as: "dev" });
    const version = api("GET", "/groups/acme/labels", { as: "dev" });
    const answered = { version: false };
    void version.then(() => (answered.version = true));
    while ((await admin("GET", "/faults")).body.held < 2) await new Promise((done) => setTimeout(done, 20));
    expect((await admin("DELETE", `/faults/${first}`)).status).toBe(204);
    expect((await user).status).toBe(200);
    expect(answered.version).toBe(false);
    expect((await admin("GET", "/faults")).body.held).toBe(1);
    await admin("DELETE", "/faults");
    expect((await version).status).toBe(200);
  });

  it("drops the connection without answering", async () => {
    await admin("POST", "/faults", { path: "^/user$", drop: true, times: 1 });
    await expect(api("GET", "/user", { as: "dev" })).rejects.toThrow();
    expect((await api("GET", "/user", { as: "dev" })).status).toBe(200);
    const log = (await admin("GET", "/requests")).body;
    expect(log[0]).toMatchObject({ path: "/api/v4/user", status: 0 });
  });

  it("is cleared by DELETE and refuses a fault without a path", async () => {
    await admin("POST", "/faults", { path: ".*", status: 500 });
    expect((await admin("DELETE", "/faults")).status).toBe(204);
    expect((await api("GET", "/user", { as: "dev" })).status).toBe(200);
    const bad = await admin("POST", "/faults", { status: 500 });
    expect(bad.status).toBe(400);
    expect(bad.text).toBe('{"error":"path is missing"}');
  });
});

describe("clock", () => {
  it("moves the forge's time on: the records it writes and its Date header read it, and a reset puts it back", async () => {
    const before = Date.now();
    const moved = await admin("POST", "/clock", { advance_ms: 90 * 24 * 3_600_000 });
    expect(moved.status).toBe(200);
    expect(moved.body.offset_ms).toBe(90 * 24 * 3_600_000);
    const agent = await api("POST", "/projects/acme%2Fweb/cluster_agents", { as: "root", json: { name: "later" } });
    const created = Date.parse(agent.body.created_at);
    expect(created - before).toBeGreaterThanOrEqual(90 * 24 * 3_600_000);
    expect(Math.abs(Date.parse(agent.headers.get("date")!) - created)).toBeLessThan(5_000);
    expect((await admin("POST", "/clock", { advance_ms: -1 })).status).toBe(400);
    await admin("POST", "/reset");
    expect((await admin("GET", "/clock")).body.offset_ms).toBe(0);
    expect(Math.abs(Date.parse((await api("GET", "/user", { as: "dev" })).headers.get("date")!) - Date.now())).toBeLessThan(5_000);
  });
});

describe("settings", () => {
  it("changes instance settings", async () => {
    const res = await admin("PUT", "/settings", { member_promotion_management: true });
    expect(res.body).toEqual({
      job_token_scope_enforced: false,
      member_promotion_management: true,
      labels_archive: false,
      storage_move_ms: 1_000,
      storage_move_error: "",
      tier: "ultimate",
      offering: "self-managed",
      version: "17.11.0",
    });
  });
});

describe("groups and projects made out of band", () => {
  it("makes a group and a project as a person does in the UI: the project's creator is recorded and becomes its Owner, a direct member made with it", async () => {
    const group = await admin("POST", "/groups", { path: "tools", parent: "acme", creator: "olivia" });
    expect(group.status).toBe(201);
    // Namespaces share one sequence: the seeded users' personal namespaces are 3 to 9.
    expect(group.body).toEqual({ id: 10, full_path: "acme/tools" });
    const made = await admin("POST", "/projects", { path: "cli", namespace: "acme/tools", creator: "olivia" });
    expect(made.body).toEqual({ id: 4, path_with_namespace: "acme/tools/cli", creator_id: 2 });
    const project = (await api("GET", "/projects/acme%2Ftools%2Fcli", { as: "olivia" })).body;
    expect(project).toMatchObject({ id: 4, creator_id: 2 });
    const members = (await api("GET", "/projects/4/members", { as: "olivia" })).body;
    expect(members).toEqual([
      expect.objectContaining({
        id: 2,
        username: "olivia",
        access_level: 50,
        created_at: project.created_at,
        created_by: expect.objectContaining({ username: "olivia" }),
      }),
    ]);
    // Seeded projects were made by nobody the forge knows.
    expect((await api("GET", "/projects/1", { as: "root" })).body.creator_id).toBeNull();
  });

  it("refuses a taken path, an unknown namespace or creator, naming the field", async () => {
    expect((await admin("POST", "/projects", { path: "web", namespace: "acme" })).text).toBe(
      '{"message":{"path":["has already been taken"]}}',
    );
    expect((await admin("POST", "/projects", { path: "x", namespace: "nowhere" })).text).toBe('{"message":"404 Namespace Not Found"}');
    expect((await admin("POST", "/groups", { path: "x", creator: "nobody" })).text).toBe('{"message":"404 User Not Found"}');
    expect((await admin("POST", "/groups", { path: "a b" })).text).toBe('{"error":"path is invalid"}');
  });
});

describe("request log as a ring buffer", () => {
  it("keeps the last `size` requests; sequence numbers and `since` keep their meaning across wraps and clears", () => {
    const log = new RequestLog(3);
    const record = (path: string) => log.record({ method: "GET", path, query: { private_token: "t" }, status: 200, user: null });
    for (const path of ["/a", "/b", "/c", "/d", "/e"]) record(path);
    expect(log.list().map((entry) => [entry.seq, entry.path])).toEqual([
      [3, "/c"],
      [4, "/d"],
      [5, "/e"],
    ]);
    expect(log.list(4).map((entry) => entry.path)).toEqual(["/e"]);
    expect(log.list(1).map((entry) => entry.path)).toEqual(["/c", "/d", "/e"]);
    expect(log.list()[0]?.query).toEqual({});
    expect(log.bounds()).toEqual({ seq: 5, oldest: 3, size: 3 });
    log.clear();
    expect(log.list()).toEqual([]);
    record("/f");
    expect(log.list().map((entry) => [entry.seq, entry.path])).toEqual([[6, "/f"]]);
    expect(() => new RequestLog(0)).toThrow(/positive/);
  });

  it("tells the last sequence number over HTTP", async () => {
    await api("GET", "/user", { as: "dev" });
    const { seq, oldest, size } = (await admin("GET", "/requests/last")).body;
    expect(size).toBe(10_000);
    expect(oldest).toBeLessThanOrEqual(seq);
    const log = (await admin("GET", "/requests")).body;
    expect(log.at(-1).seq).toBe(seq);
  });
});

describe("faults at a rate", () => {
  it("hits about `probability` of the matching requests, the same ones for the same seed", async () => {
    const statuses = async (seed: number) => {
      await admin("DELETE", "/faults");
      await admin("POST", "/faults", { path: "^/user$", status: 503, probability: 0.3, seed });
      const seen: number[] = [];
      for (let i = 0; i < 60; i += 1) seen.push((await api("GET", "/user", { as: "dev" })).status);
      return seen;
    };
    const first = await statuses(7);
    const hits = first.filter((status) => status === 503).length;
    expect(hits).toBeGreaterThan(5);
    expect(hits).toBeLessThan(35);
    expect(first.filter((status) => status !== 503).every((status) => status === 200)).toBe(true);
    expect(await statuses(7)).toEqual(first);
    expect(await statuses(8)).not.toEqual(first);
  });

  it("lets the next matching fault try when one does not fire", async () => {
    await admin("POST", "/faults", { path: "^/user$", status: 503, probability: 0 });
    await admin("POST", "/faults", { path: "^/user$", status: 429, times: 1 });
    expect((await api("GET", "/user", { as: "dev" })).status).toBe(429);
    expect((await api("GET", "/user", { as: "dev" })).status).toBe(200);
    expect((await admin("POST", "/faults", { path: ".*", status: 503, probability: 1.5 })).status).toBe(400);
  });
});

describe("rate limit", () => {
  it("answers RateLimit-* headers on every answer and 429 past the budget, per token; a reset turns it off", async () => {
    expect((await admin("GET", "/rate-limit")).body).toBeNull();
    expect((await api("GET", "/user", { as: "dev" })).headers.get("ratelimit-limit")).toBeNull();
    expect((await admin("PUT", "/rate-limit", { limit: 3, window_s: 60 })).body).toEqual({ limit: 3, windowSeconds: 60 });
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await api("GET", "/user", { as: "dev" }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    const reset = Number(answers[0]!.headers.get("ratelimit-reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    const limited = answers[3]!;
    expect(limited.text).toBe("Retry later\n");
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
    expect(limited.headers.get("ratelimit-name")).toBe("throttle_authenticated_api");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another token has a budget of its own.
    expect((await api("GET", "/user", { as: "max" })).status).toBe(200);
    await admin("POST", "/reset");
    expect((await api("GET", "/user", { as: "dev" })).headers.get("ratelimit-limit")).toBeNull();
  });
});
