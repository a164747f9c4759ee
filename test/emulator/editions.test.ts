import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { parseCliArgs, runCli } from "../../emulator/cli-main";
import { call, useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

const FORBIDDEN = '{"message":"403 Forbidden"}';
const NO_ROUTE = '{"error":"404 Not Found"}';
const PROJECT_ENVS = "/projects/acme%2Fweb/protected_environments";
const GROUP_ENVS = "/groups/acme/protected_environments";
const AGENTS = "/projects/acme%2Fweb/cluster_agents";

const edition = (tier: string, offering = "self-managed") => admin("PUT", "/settings", { tier, offering });

const protect = (name: string) => api("POST", PROJECT_ENVS, { as: "max", json: { name, deploy_access_levels: [{ access_level: 40 }] } });

async function agentUrlConfigurations(): Promise<string> {
  const agent = await api("POST", AGENTS, { as: "max", json: { name: "receptive" } });
  expect(agent.status).toBe(201);
  return `${AGENTS}/${agent.body.id}/url_configurations`;
}

describe("the instance's edition", () => {
  it("is Ultimate, self-managed unless told otherwise, in the settings and on the running emulator", async () => {
    const settings = await admin("GET", "/settings");
    expect(settings.body).toMatchObject({ tier: "ultimate", offering: "self-managed" });
    expect(emulator().edition()).toEqual({ tier: "ultimate", offering: "self-managed" });
  });

  it("is changed with PUT /__emulator/settings, refuses unknown values, and goes back to the default on reset", async () => {
    expect((await edition("premium", "dedicated")).body).toMatchObject({ tier: "premium", offering: "dedicated" });
    expect(emulator().edition()).toEqual({ tier: "premium", offering: "dedicated" });
    const bad = await admin("PUT", "/settings", { tier: "gold" });
    expect(bad.status).toBe(400);
    expect(bad.text).toBe('{"error":"tier does not have a valid value"}');
    await admin("POST", "/reset");
    expect(emulator().edition()).toEqual({ tier: "ultimate", offering: "self-managed" });
  });

  it("is set at start (and kept across a reset) with the tier and offering options", async () => {
    const free = await startEmulator({ tier: "free", offering: "dedicated" });
    try {
      expect(free.edition()).toEqual({ tier: "free", offering: "dedicated" });
      await free.admin("/reset", { method: "POST" });
      expect(free.edition()).toEqual({ tier: "free", offering: "dedicated" });
    } finally {
      await free.close();
    }
  });

  it("comes from --tier and --offering on the command line and is shown in the banner", async () => {
    expect(parseCliArgs(["--tier", "premium", "--offering", "hosted"])).toEqual({ tier: "premium", offering: "hosted" });
    expect(() => parseCliArgs(["--tier", "gold"])).toThrow(/invalid --tier gold: one of free, premium, ultimate\nusage:/);
    expect(() => parseCliArgs(["--offering", "cloud"])).toThrow(/invalid --offering cloud/);
    const output: string[] = [];
    const running = await runCli(["--port", "0", "--tier", "free"], { log: (text) => output.push(text), signals: new EventEmitter() });
    try {
      expect(output.join("\n")).toContain("Edition: Free, self-managed");
    } finally {
      await running.close();
    }
  });
});

describe("protected environments need Premium", () => {
  it("work on Premium, at project and group level", async () => {
    await edition("premium");
    expect((await protect("production")).status).toBe(201);
    expect((await api("GET", PROJECT_ENVS, { as: "max" })).status).toBe(200);
    const group = await api("POST", GROUP_ENVS, { as: "olivia", json: { name: "staging", deploy_access_levels: [{ access_level: 40 }] } });
    expect(group.status).toBe(201);
  });

  it("answer 403 Forbidden on Free, for every route at both levels; anonymous callers get 401 first", async () => {
    expect((await protect("production")).status).toBe(201);
    await edition("free");
    const refused = [
      await protect("staging"),
      await api("GET", PROJECT_ENVS, { as: "max" }),
      await api("GET", `${PROJECT_ENVS}/production`, { as: "max" }),
      await api("PUT", `${PROJECT_ENVS}/production`, { as: "max", json: { required_approval_count: 1 } }),
      await api("DELETE", `${PROJECT_ENVS}/production`, { as: "max" }),
      await api("GET", GROUP_ENVS, { as: "olivia" }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.text).toBe(FORBIDDEN);
    }
    expect((await api("GET", PROJECT_ENVS)).status).toBe(401);
  });
});

describe("agent URL configurations need Ultimate on a self-managed instance", () => {
  it("work on Ultimate, self-managed", async () => {
    const configs = await agentUrlConfigurations();
    expect((await api("POST", configs, { as: "max", json: { url: "grpcs://agent" } })).status).toBe(201);
  });

  it("answer 403 on Premium, and 404 as an unknown route on the other offerings", async () => {
    const configs = await agentUrlConfigurations();
    await edition("premium");
    const premium = await api("POST", configs, { as: "max", json: { url: "grpcs://agent" } });
    expect(premium.status).toBe(403);
    expect(premium.text).toBe(FORBIDDEN);
    for (const offering of ["dedicated", "hosted"]) {
      await edition("ultimate", offering);
      for (const res of [
        await api("GET", configs, { as: "max" }),
        await api("POST", configs, { as: "max", json: { url: "grpcs://agent" } }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.text).toBe(NO_ROUTE);
      }
      // The agents themselves exist on every offering.
      expect((await api("GET", AGENTS, { as: "max" })).status).toBe(200);
    }
  });
});

describe("broadcast message writes exist on self-managed and dedicated instances", () => {
  const message = { message: "Maintenance tonight" };

  it("work on dedicated, even on Free", async () => {
    await edition("free", "dedicated");
    const created = await api("POST", "/broadcast_messages", { as: "root", json: message });
    expect(created.status).toBe(201);
    expect((await api("PUT", `/broadcast_messages/${created.body.id}`, { as: "root", json: { message: "x" } })).status).toBe(200);
    expect((await api("DELETE", `/broadcast_messages/${created.body.id}`, { as: "root" })).status).toBe(204);
  });

  it("answer 404 as an unknown route on the hosted offering (after credentials, which come first: 401); reads still work", async () => {
    const created = await api("POST", "/broadcast_messages", { as: "root", json: message });
    await edition("ultimate", "hosted");
    for (const res of [
      await api("POST", "/broadcast_messages", { as: "root", json: message }),
      await api("PUT", `/broadcast_messages/${created.body.id}`, { as: "root", json: message }),
      await api("DELETE", `/broadcast_messages/${created.body.id}`, { as: "root" }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).toBe(NO_ROUTE);
    }
    // The service authenticates before it looks at the edition.
    expect((await api("POST", "/broadcast_messages", { json: message })).status).toBe(401);
    expect(
      (await call(emulator().url, "POST", "/broadcast_messages", { headers: { "PRIVATE-TOKEN": "wrong" }, json: message })).status,
    ).toBe(401);
    expect((await api("GET", "/broadcast_messages")).body).toHaveLength(1);
    expect((await api("GET", `/broadcast_messages/${created.body.id}`)).status).toBe(200);
  });
});
