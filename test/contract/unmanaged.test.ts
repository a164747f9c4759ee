/**
 * The inventory behind `forge-drift --unmanaged` and `forge-adopt --stacks-file`, in process
 * against the emulator over HTTP, with the fleet's states given as data (the real CLI and a
 * PostgreSQL fleet: test/cli/unmanaged.test.ts): each place and kind listed once for the fleet,
 * matching by kind and import id with a group or project by path or id, the forge's own apart,
 * what a stack not read may hold withheld, a listing taken as a hint, held twice, the ignore rules,
 * who made an object.
 */
import { describe, expect, it } from "vitest";
import { routes } from "../../api/routes";
import { takeInventory, type FleetMember, type HeldResource, type Inventory } from "../../provider/adopt/inventory";
import { parseIgnoreRules } from "../../provider/adopt/ignore";
import { declarations } from "../../provider/resources";
import { buildUnmanagedReport, formatUnmanaged, unmanagedExit, unmanagedReportSchema } from "../../cli/unmanaged-report";
import type { StackState } from "../../cli/fleet-state";
import type { FleetReport } from "../../cli/fleet";
import { useWorld } from "./world";

const world = useWorld();

const held = (type: string, id: string, name = `r${id.replace(/\W/g, "")}`): HeldResource => ({
  type,
  id,
  urn: `urn:pulumi:prod::team::${type}::${name}`,
});
const stack = (label: string, resources: HeldResource[], status: FleetMember["status"] = "read"): FleetMember => ({
  label,
  status,
  resources,
});
const inventory = (scope: Parameters<typeof takeInventory>[1], fleet: FleetMember[], rules: unknown[] = []) =>
  takeInventory(world().api, scope, async () => fleet, {
    ignore: parseIgnoreRules({ ignore: rules }, new Set(Object.values(declarations).map((declaration) => declaration.name))),
    log: () => {},
  });
const ids = (objects: { kind: string; importId: string }[]) => objects.map((object) => `${object.kind} ${object.importId}`).sort();

async function label(group: string, name: string): Promise<number> {
  return (await world().api.request<{ id: number }>(routes.groupLabels.create, { group, name, color: "#FF0000" })).body.id;
}

async function requestsDuring<T>(
  run: () => Promise<T>,
): Promise<{ result: T; requests: { method: string; path: string; query: Record<string, unknown> }[] }> {
  const { seq } = (await (await world().emulator.admin("/requests/last")).json()) as { seq: number };
  const result = await run();
  return {
    result,
    requests: (await (await world().emulator.admin(`/requests?since=${seq}`)).json()) as {
      method: string;
      path: string;
      query: Record<string, unknown>;
    }[],
  };
}

describe("what no stack of the fleet holds", () => {
  it("lists each place and kind once for the fleet, matches by kind and import id with a group by path or id, and reads only what no stack holds", async () => {
    const [kept, byId, loose] = [await label("acme", "kept"), await label("acme", "by-id"), await label("acme", "loose")];
    await world().api.request(routes.groupIntegrations.bySlug["emails-on-push"].set, { group: "acme", recipients: "ops@example.com" });
    const fleet = [
      stack("team/a", [held("pulumi-nodejs:dynamic/forge:GroupLabel", `acme:${kept}`)]),
      // The plugin face, the group by its id and spelled in capitals elsewhere: one object each.
      stack("team/b", [
        held("forge:index:GroupLabel", `1:${byId}`),
        held("forge:index:GroupIntegrationEmailsOnPush", "ACME:emails-on-push"),
      ]),
    ];
    const { result, requests } = await requestsDuring(() => inventory({ groups: ["acme"] }, fleet));
    expect(ids(result.unmanaged.filter((object) => !object.setting))).toEqual([`GroupLabel acme:${loose}`]);
    // Three labels, the integration, two groups' settings, three projects' job token scopes.
    expect(result.counts).toEqual({ listed: 9, held: 3, gone: 0 });
    expect(result.heldTwice).toEqual([]);
    // Sixteen integration kinds and labels with their subscriptions share one listing each (read twice: a listing is read until two readings agree).
    const gets = (path: string) => requests.filter((request) => request.method === "GET" && request.path === `/api/v4${path}`).length;
    expect(gets("/groups/acme/integrations")).toBe(2);
    expect(gets("/groups/acme/labels")).toBe(2);
    // What a stack holds is never read one by one; only writes would change the forge, and none is sent.
    expect(gets(`/groups/acme/labels/${kept}`) + gets(`/groups/1/labels/${byId}`) + gets(`/groups/acme/labels/${byId}`)).toBe(0);
    expect(requests.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("reports what the forge made itself apart: a project creator's membership, settings at their defaults, a project on its own allowlist", async () => {
    await world().emulator.admin("/projects", { method: "POST", json: { path: "cli", namespace: "acme/platform", creator: "olivia" } });
    // A member added by a person, and one of the projects' job token scopes switched on.
    await world().as("olivia").request(routes.projectMembers.create, { project: "acme/platform/cli", user_id: 4, access_level: 30 });
    await world().api.request(routes.jobTokenScope.update, { project: "acme/platform/deployer", enabled: true });
    // The forge this emulates leaves the project out of its own allowlist; one that lists it (as some versions do) lists the forge's own entry.
    const deployer = world().projectId("acme/platform/deployer");
    const allowlist = { method: "GET", status: 200, body: [{ id: deployer, path_with_namespace: "acme/platform/deployer" }] };
    await world().emulator.admin("/faults", { method: "POST", json: { ...allowlist, path: "deployer/job_token_scope/allowlist$" } });
    // The same entry on another project's allowlist is a person's.
    await world().emulator.admin("/faults", { method: "POST", json: { ...allowlist, path: "cli/job_token_scope/allowlist$" } });
    const result = await inventory({ groups: ["acme/platform"] }, []);
    await world().emulator.admin("/faults", { method: "DELETE" });
    expect(result.forgeOwn.map((object) => [object.kind, object.importId, object.why])).toEqual([
      ["GroupSettings", "acme/platform", "every value at the forge's defaults: a program would declare nothing"],
      ["JobTokenScope", "acme/platform/cli", "the allowlist off, as the forge makes a new project"],
      ["ProjectMember", "acme/platform/cli:2", "the membership the forge gave the project's creator when it made the project"],
      [
        "JobTokenScopeProjectAllowlistEntry",
        `acme/platform/deployer:${deployer}`,
        "the project itself, which the forge always lets its own job tokens reach",
      ],
    ]);
    expect(result.unmanaged.map((object) => [object.kind, object.importId, object.setting, object.createdBy])).toEqual([
      ["JobTokenScopeProjectAllowlistEntry", `acme/platform/cli:${deployer}`, false, undefined],
      ["ProjectMember", "acme/platform/cli:4", false, "olivia"],
      ["JobTokenScope", "acme/platform/deployer", true, undefined],
    ]);
  });
});

describe("a fleet not read in full", () => {
  it("withholds the verdict on what a stack not read may hold (the forge's own and what an ignore rule allows too), and counts what a mid-run stack's state shows as held", async () => {
    const [mine, other] = [await label("acme/platform", "mine"), await label("acme/platform", "other")];
    const result = await inventory(
      { groups: ["acme/platform"] },
      [stack("team/run", [held("forge:index:GroupLabel", `acme/platform:${mine}`)], "partial"), stack("team/gone", [], "unread")],
      [{ kind: "GroupLabel", reason: "labels are free" }],
    );
    expect(result.unmanaged).toEqual([]);
    // A stack not read may hold the group's settings at their defaults or the project's job token
    // scope as well as a label: no verdict, not "the forge's own", not "ignored" (forge-adopt
    // without --unmanaged would take those into a second stack).
    expect(result.possiblyHeld.map((object) => [object.kind, object.importId, object.by])).toEqual([
      ["GroupLabel", `acme/platform:${other}`, ["team/run", "team/gone"]],
      ["GroupSettings", "acme/platform", ["team/run", "team/gone"]],
      ["JobTokenScope", "acme/platform/deployer", ["team/run", "team/gone"]],
    ]);
    expect(result.forgeOwn).toEqual([]);
    expect(result.ignored).toEqual([]);
    expect(result.counts.held).toBe(1);
  });

  it("withholds the verdict on what a resource may hold: on a forge the state does not record, or pending an import", async () => {
    const [one, two, three] = [await label("acme", "one"), await label("acme", "two"), await label("acme", "three")];
    const maybe = (id: string, why: string) => ({ ...held("forge:index:GroupLabel", id), why });
    const result = await inventory({ groups: ["acme"] }, [
      {
        label: "team/env",
        status: "read",
        resources: [],
        possibly: [maybe(`acme:${one}`, "the state does not record its forge"), maybe(`acme:${two}`, "a killed run left it importing")],
      },
    ]);
    expect(result.possiblyHeld.map((object) => [object.importId, object.by])).toEqual([
      [`acme:${one}`, ["team/env"]],
      [`acme:${two}`, ["team/env"]],
    ]);
    expect(ids(result.unmanaged.filter((object) => !object.setting))).toEqual([`GroupLabel acme:${three}`]);
  });

  it("does not report an object a listing shows and its read by import id does not find", async () => {
    await world().api.request(routes.broadcastMessages.create, { message: "Real maintenance window" });
    // The listing shows a message the forge no longer has (deleted between the listing and the read).
    await world().emulator.admin("/faults", {
      method: "POST",
      json: {
        method: "GET",
        path: "^/broadcast_messages$",
        status: 200,
        body: [
          { id: 1, message: "Real maintenance window" },
          { id: 99, message: "Gone since" },
        ],
      },
    });
    const result = await inventory({ instance: true }, []);
    await world().emulator.admin("/faults", { method: "DELETE" });
    expect(ids(result.unmanaged)).toEqual(["BroadcastMessage 1"]);
    expect(result.counts.gone).toBe(1);
  });
});

describe("the scope's projects and subgroups", () => {
  it("are read until two readings agree: a project in scope that slides onto a page already read is listed (its hand-made member reported), not skipped", async () => {
    // The listing is newest first: acme/late, made before 100 projects of another group, is on page 2.
    await world().emulator.admin("/projects", { method: "POST", json: { path: "late", namespace: "acme", creator: "olivia" } });
    await world().emulator.admin("/groups", { method: "POST", json: { path: "others" } });
    for (let index = 0; index < 100; index++)
      await world().emulator.admin("/projects", {
        method: "POST",
        json: { path: `p${String(index).padStart(3, "0")}`, namespace: "others" },
      });
    await world()
      .as("olivia")
      .request(routes.projectMembers.create, { project: "acme/late", user_id: world().user("dev").id, access_level: 30 });
    // The first reading's last page comes back without acme/late, as when a project on an earlier
    // page leaves the listing between two pages and the rest slide up by one.
    const pages = (await world().api.list<{ path_with_namespace: string }>(routes.projects.list, {})).length;
    expect(pages).toBeGreaterThan(100);
    await world().emulator.admin("/faults", {
      method: "POST",
      json: { method: "GET", path: "^/projects$", query: { page: "2" }, status: 200, body: [], times: 1 },
    });
    const result = await inventory({ groups: ["acme"] }, []);
    await world().emulator.admin("/faults", { method: "DELETE" });
    expect(result.places.map((place) => place.path)).toContain("acme/late");
    expect(ids(result.unmanaged.filter((object) => object.kind === "ProjectMember"))).toContain(
      `ProjectMember acme/late:${world().user("dev").id}`,
    );
  });
});

describe("held twice", () => {
  it("names every import id two resources of the fleet hold, however each spells it, in scope or not", async () => {
    const shared = await label("acme/platform", "shared");
    const result = await inventory({ instance: true }, [
      stack("platform/prod", [held("forge:index:GroupLabel", `acme/platform:${shared}`, "acme-platform-label-shared")]),
      stack("sub-team/prod", [held("pulumi-nodejs:dynamic/forge:GroupLabel", `2:${shared}`, "shared")]),
    ]);
    expect(result.heldTwice).toEqual([
      {
        kind: "GroupLabel",
        importId: `acme/platform:${shared}`,
        holders: [
          { stack: "platform/prod", resource: "acme-platform-label-shared", id: `acme/platform:${shared}`, type: "forge:index:GroupLabel" },
          { stack: "sub-team/prod", resource: "shared", id: `2:${shared}`, type: "pulumi-nodejs:dynamic/forge:GroupLabel" },
        ],
      },
    ]);
  });
});

describe("the ignore file", () => {
  it("leaves out exactly what its entries match, decides without a read where an entry names no name, and counts each entry's matches (0: stale)", async () => {
    const [tmp, real] = [await label("acme", "tmp-triage"), await label("acme", "real")];
    await world().api.request(routes.broadcastMessages.create, { message: "Posted by the on-call person" });
    const rules = [
      { kind: "GroupLabel", name: "tmp-*", reason: "scratch labels" },
      { kind: "forge:index:BroadcastMessage", reason: "announcements" },
      { kind: "GroupLabel", scope: "acme/**", name: "old-*", reason: "a rule nothing matches" },
    ];
    const { result, requests } = await requestsDuring(() => inventory({ groups: ["acme"], instance: true }, [], rules));
    expect(ids(result.unmanaged.filter((object) => !object.setting))).toEqual([`GroupLabel acme:${real}`]);
    expect(result.ignored.map((object) => [object.kind, object.importId, object.rule])).toEqual([
      ["BroadcastMessage", "1", 1],
      ["GroupLabel", `acme:${tmp}`, 0],
    ]);
    expect(result.ruleMatches).toEqual([1, 1, 0]);
    expect(requests.filter((request) => request.path === "/api/v4/broadcast_messages/1")).toEqual([]);
  });

  it("refuses an entry without a reason, with an unknown kind or field, or one that would hide everything, naming the entry", () => {
    const kinds = new Set(["GroupLabel"]);
    expect(() => parseIgnoreRules({ ignore: [{ kind: "GroupLabel", reason: "ok" }, { kind: "GroupLabel" }] }, kinds)).toThrow(
      "entry 2: reason: reason is missing: say why these objects may live outside code",
    );
    expect(() => parseIgnoreRules({ ignore: [{ kind: "Label", reason: "x" }] }, kinds)).toThrow(
      'entry 1: kind: "Label" is no resource of the forge (one of GroupLabel)',
    );
    expect(() => parseIgnoreRules({ ignore: [{ kinds: "GroupLabel", reason: "x" }] }, kinds)).toThrow("entry 1: unknown field kinds");
    expect(() => parseIgnoreRules({ ignore: [{ reason: "x" }] }, kinds)).toThrow(
      "entry 1: an entry names at least one of kind, scope and name",
    );
    expect(() => parseIgnoreRules({ rules: [] }, kinds)).toThrow("unknown field rules (the file holds `ignore:`, a list of entries)");
    expect(parseIgnoreRules(null, kinds)).toEqual([]);
  });
});

describe("who made it", () => {
  it("says who made an object and when, where the forge says: a member's adder, an agent token's creator by id", async () => {
    await world().as("olivia").request(routes.projectMembers.create, { project: "acme/web", user_id: 4, access_level: 30 });
    const agent = (await world().api.request<{ id: number }>(routes.clusterAgents.create, { project: "acme/web", name: "prod" })).body.id;
    await world().as("max").request(routes.clusterAgentTokens.create, { project: "acme/web", agentId: agent, name: "second" });
    const result: Inventory = await inventory({ projects: ["acme/web"] }, [
      stack("team/a", [held("forge:index:ClusterAgent", `acme/web:${agent}`)]),
    ]);
    const objects = result.unmanaged.filter((object) => !object.setting);
    expect(objects.map((object) => [object.kind, object.name, object.createdBy, typeof object.createdAt])).toEqual([
      ["ClusterAgentToken", "second", "max", "string"],
      ["ProjectMember", "dev", "olivia", "string"],
    ]);
  });
});

describe("the report", () => {
  const state = (label: string, status: StackState["status"], message?: string): StackState => ({
    stack: "prod",
    workDir: `/srv/${label}`,
    label,
    status,
    resources: [],
    possibly: [],
    elsewhere: { count: 0, forges: [] },
    durationMs: 10,
    ...(message ? { message } : {}),
  });
  const report = (inventory: Inventory, states: StackState[], drift?: FleetReport) =>
    buildUnmanagedReport({
      started: Date.now(),
      version: "1.2.3",
      forge: "https://forge.example",
      scope: { groups: ["acme"], projects: [], instance: false, snippets: false },
      states,
      inventory,
      rules: [],
      drift,
    });
  const fleetReport = (status: "clean" | "drift" | "error"): FleetReport => ({
    generatedAt: "2026-11-27T00:00:00.000Z",
    tool: { name: "forge-drift", version: "1.2.3" },
    durationMs: 1,
    summary: {
      stacks: 1,
      clean: status === "clean" ? 1 : 0,
      drift: status === "drift" ? 1 : 0,
      error: status === "error" ? 1 : 0,
      locked: 0,
      timeout: 0,
    },
    stacks: [{ stack: "prod", workDir: "/srv/a", status, durationMs: 1, drifted: [], ...(status === "error" ? { message: "boom" } : {}) }],
  });

  it("exits 4 for what no stack holds or two stacks hold, plus drift's 2 (6 both); 1 when a stack could not be read; 3 when one was mid-run; else 0", async () => {
    const shared = await label("acme", "shared");
    await label("acme", "loose");
    const holding = [
      stack("platform/prod", [held("forge:index:GroupLabel", `acme:${shared}`, "team")]),
      stack("web/prod", [held("forge:index:GroupLabel", `acme:${shared}`, "team")]),
    ];
    const found = await inventory({ groups: ["acme"] }, holding);
    const nothing = await inventory({ projects: ["acme/web"] }, []);
    const read = [state("platform/prod", "read"), state("web/prod", "read")];
    const found4 = report(found, read);
    expect(unmanagedReportSchema.parse(JSON.parse(formatUnmanaged(found4, "json")))).toEqual(found4);
    expect(unmanagedExit(found4)).toBe(4);
    expect(unmanagedExit(report(found, read, fleetReport("drift")))).toBe(6);
    expect(unmanagedExit(report(nothing, read, fleetReport("drift")))).toBe(2);
    expect(unmanagedExit(report(found, [...read, state("data/prod", "unread", "its state could not be read: no stack")]))).toBe(1);
    expect(unmanagedExit(report(found, read, fleetReport("error")))).toBe(1);
    expect(unmanagedExit(report(nothing, [...read, state("data/prod", "partial", "a run holds its lock")]))).toBe(3);
    expect(unmanagedExit(report(nothing, read))).toBe(0);
    // Two `prod` stacks of two projects, told apart in a log.
    expect(formatUnmanaged(found4, "text")).toContain(
      `  GroupLabel  acme:${shared}: platform/prod (team, id acme:${shared}), web/prod (team, id acme:${shared})`,
    );
  });
});
