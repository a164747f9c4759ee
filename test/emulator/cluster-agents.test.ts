import { describe, expect, it } from "vitest";
import { type SeedUser, useEmulator } from "./helpers";

const { api } = useEmulator();
const AGENTS = "/projects/acme%2Fweb/cluster_agents";

async function registerAgent(name = "prod-agent"): Promise<number> {
  const res = await api("POST", AGENTS, { as: "max", json: { name } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe("cluster agents", () => {
  it("registers an agent with its config project", async () => {
    const res = await api("POST", AGENTS, { as: "max", json: { name: "k8s-1" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "k8s-1",
      created_by_user_id: 3,
      config_project: { id: 1, name: "Web", path: "web", path_with_namespace: "acme/web", name_with_namespace: "Acme / Web" },
    });
    expect((await api("GET", `${AGENTS}/${res.body.id}`, { as: "dev" })).body.name).toBe("k8s-1");
    expect((await api("GET", AGENTS, { as: "dev" })).body).toHaveLength(1);
  });

  it.each<[SeedUser, number]>([
    ["max", 201],
    ["dev", 403],
  ])("registration as %s answers %i (Maintainer needed)", async (as, status) => {
    expect((await api("POST", AGENTS, { as, json: { name: "a" } })).status).toBe(status);
  });

  it.each<[SeedUser, number]>([
    ["dev", 200],
    ["rita", 403],
    ["nomad", 404],
  ])("listing as %s answers %i (Developer needed)", async (as, status) => {
    expect((await api("GET", AGENTS, { as })).status).toBe(status);
  });

  it("refuses a duplicate name in the project", async () => {
    await registerAgent("dup");
    const res = await api("POST", AGENTS, { as: "max", json: { name: "dup" } });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"message":"400 Bad request - [\\"Name has already been taken\\"]"}');
    expect((await api("POST", "/projects/acme%2Fapi/cluster_agents", { as: "max", json: { name: "dup" } })).status).toBe(201);
  });

  it.each(["Upper", "-lead", "trail-", "under_score", "a".repeat(64)])("refuses the invalid name %s", async (name) => {
    const res = await api("POST", AGENTS, { as: "max", json: { name } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^400 Bad request - \[/);
  });

  it("accepts a 63-character name and requires one", async () => {
    expect((await api("POST", AGENTS, { as: "max", json: { name: "a".repeat(63) } })).status).toBe(201);
    expect((await api("POST", AGENTS, { as: "max", json: {} })).text).toBe('{"error":"name is missing"}');
  });

  it("deletes an agent with its tokens and URL configuration", async () => {
    const id = await registerAgent();
    await api("POST", `${AGENTS}/${id}/tokens`, { as: "max", json: { name: "t" } });
    await api("POST", `${AGENTS}/${id}/url_configurations`, { as: "max", json: { url: "grpc://agent" } });
    expect((await api("DELETE", `${AGENTS}/${id}`, { as: "dev" })).status).toBe(403);
    expect((await api("DELETE", `${AGENTS}/${id}`, { as: "max" })).status).toBe(204);
    const gone = await api("GET", `${AGENTS}/${id}`, { as: "max" });
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('{"message":"404 Not found"}');
    const again = await registerAgent();
    expect((await api("GET", `${AGENTS}/${again}/tokens`, { as: "max" })).body).toEqual([]);
  });
});

describe("agent tokens", () => {
  it("returns the secret only at creation and allows two active tokens", async () => {
    const agent = await registerAgent();
    const tokens = `${AGENTS}/${agent}/tokens`;
    const first = await api("POST", tokens, { as: "max", json: { name: "one", description: "first" } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      name: "one",
      description: "first",
      agent_id: agent,
      status: "active",
      last_used_at: null,
      created_by_user_id: 3,
    });
    expect(first.body.token).toMatch(/^forgeagent-[A-Za-z0-9_-]{20,}$/);
    expect((await api("POST", tokens, { as: "max", json: { name: "two" } })).status).toBe(201);
    const third = await api("POST", tokens, { as: "max", json: { name: "three" } });
    expect(third.status).toBe(400);
    expect(third.text).toBe('{"message":"400 Bad request - An agent can have only two active tokens at a time"}');

    const list = await api("GET", tokens, { as: "dev" });
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).not.toHaveProperty("token");
    expect(list.body[0]).not.toHaveProperty("last_used_at");
    const single = await api("GET", `${tokens}/${first.body.id}`, { as: "dev" });
    expect(single.body).toHaveProperty("last_used_at", null);
    expect(single.body).not.toHaveProperty("token");
  });

  it("takes names of up to 255 characters and descriptions of up to 1024, as the provider does", async () => {
    const tokens = `${AGENTS}/${await registerAgent()}/tokens`;
    const long = await api("POST", tokens, { as: "max", json: { name: "n".repeat(256), description: "d".repeat(1025) } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({
      message: { name: ["is too long (maximum is 255 characters)"], description: ["is too long (maximum is 1024 characters)"] },
    });
    const blank = await api("POST", tokens, { as: "max", json: { name: "  " } });
    expect(blank.text).toBe('{"message":{"name":["can\'t be blank"]}}');
    expect((await api("POST", tokens, { as: "max", json: { name: "n".repeat(255), description: "d".repeat(1024) } })).status).toBe(201);
  });

  it("needs Maintainer to create and Developer to read tokens", async () => {
    const agent = await registerAgent();
    const tokens = `${AGENTS}/${agent}/tokens`;
    expect((await api("POST", tokens, { as: "dev", json: { name: "t" } })).status).toBe(403);
    expect((await api("GET", tokens, { as: "rita" })).status).toBe(403);
    expect((await api("GET", `${AGENTS}/${agent}/url_configurations`, { as: "rita" })).status).toBe(403);
    expect((await api("GET", `${tokens}/abc`, { as: "dev" })).text).toBe('{"error":"token_id is invalid"}');
  });

  it("revokes: 404 on read, gone from the list, room for a new token, revoking twice succeeds", async () => {
    const agent = await registerAgent();
    const tokens = `${AGENTS}/${agent}/tokens`;
    const one = (await api("POST", tokens, { as: "max", json: { name: "one" } })).body.id;
    await api("POST", tokens, { as: "max", json: { name: "two" } });
    expect((await api("DELETE", `${tokens}/${one}`, { as: "dev" })).status).toBe(403);
    expect((await api("DELETE", `${tokens}/${one}`, { as: "max" })).status).toBe(204);
    expect((await api("DELETE", `${tokens}/${one}`, { as: "max" })).status).toBe(204);
    const read = await api("GET", `${tokens}/${one}`, { as: "max" });
    expect(read.status).toBe(404);
    expect(read.text).toBe('{"message":"404 Not found"}');
    expect((await api("GET", tokens, { as: "max" })).body.map((t: { name: string }) => t.name)).toEqual(["two"]);
    expect((await api("POST", tokens, { as: "max", json: { name: "three" } })).status).toBe(201);
  });
});

describe("agent_id below an agent (the API types it integer or string)", () => {
  it("is looked up as given: text that is no agent's id is a missing agent, 404", async () => {
    const agent = await registerAgent();
    for (const below of ["tokens", "url_configurations"]) {
      const found = await api("GET", `${AGENTS}/${agent}/${below}`, { as: "dev" });
      expect(found.status).toBe(200);
      for (const ref of ["prod-agent", "abc", "999"]) {
        const res = await api("GET", `${AGENTS}/${ref}/${below}`, { as: "dev" });
        expect(res.status).toBe(404);
        expect(res.text).toBe('{"message":"404 Not found"}');
      }
      // The project's rules come first.
      expect((await api("GET", `${AGENTS}/abc/${below}`, { as: "rita" })).status).toBe(403);
    }
    const token = await api("POST", `${AGENTS}/abc/tokens`, { as: "max", json: { name: "t" } });
    expect(token.status).toBe(404);
  });

  it("stays an integer when it addresses the agent itself", async () => {
    const res = await api("GET", `${AGENTS}/abc`, { as: "dev" });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"agent_id is invalid"}');
  });
});

describe("agent URL configurations", () => {
  it("uses JWT without a client certificate and returns a base64 public key", async () => {
    const agent = await registerAgent();
    const res = await api("POST", `${AGENTS}/${agent}/url_configurations`, { as: "max", json: { url: "grpcs://agent.example:443" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ agent_id: agent, url: "grpcs://agent.example:443" });
    expect(Buffer.from(res.body.public_key, "base64")).toHaveLength(32);
    expect(res.body).not.toHaveProperty("client_cert");
  });

  it("uses mutual TLS with client_cert and client_key, never returning the key", async () => {
    const agent = await registerAgent();
    const configs = `${AGENTS}/${agent}/url_configurations`;
    const json = { url: "grpcs://a", client_cert: "CERT", client_key: "KEY", ca_cert: "CA", tls_host: "a.example" };
    const res = await api("POST", configs, { as: "max", json });
    expect(res.body).toEqual({
      id: res.body.id,
      agent_id: agent,
      url: "grpcs://a",
      client_cert: "CERT",
      ca_cert: "CA",
      tls_host: "a.example",
    });
    const list = await api("GET", configs, { as: "dev" });
    expect(list.body).toEqual([res.body]);
    expect(list.headers.get("x-total")).toBeNull();
    expect((await api("GET", `${configs}/${res.body.id}`, { as: "dev" })).body).toEqual(res.body);
  });

  it("requires client_cert and client_key together", async () => {
    const agent = await registerAgent();
    const res = await api("POST", `${AGENTS}/${agent}/url_configurations`, { as: "max", json: { url: "grpc://a", client_cert: "C" } });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"client_cert, client_key provide all or none of parameters"}');
  });

  it("allows one configuration per agent, and a new one after deletion", async () => {
    const agent = await registerAgent();
    const configs = `${AGENTS}/${agent}/url_configurations`;
    const first = await api("POST", configs, { as: "max", json: { url: "grpc://one" } });
    const second = await api("POST", configs, { as: "max", json: { url: "grpc://two" } });
    expect(second.status).toBe(400);
    expect(second.text).toBe('{"message":"400 Bad request - URL configuration already exists for this agent"}');
    expect((await api("POST", configs, { as: "dev", json: { url: "grpc://two" } })).status).toBe(403);
    expect((await api("DELETE", `${configs}/${first.body.id}`, { as: "max" })).status).toBe(204);
    expect((await api("POST", configs, { as: "max", json: { url: "grpc://two" } })).status).toBe(201);
  });

  it.each(["https://agent.example", "agent.example:443", "grpcs://", " grpcs://agent.example"])(
    "refuses %j: the URL is grpc:// or grpcs:// with a host, the spec's rule on both sides",
    async (url) => {
      const agent = await registerAgent();
      const res = await api("POST", `${AGENTS}/${agent}/url_configurations`, { as: "max", json: { url } });
      expect(res.status).toBe(400);
      expect(res.text).toBe('{"message":{"url":["must be a grpc:// or grpcs:// URL with a host"]}}');
    },
  );

  it("refuses a blank URL", async () => {
    const agent = await registerAgent();
    const res = await api("POST", `${AGENTS}/${agent}/url_configurations`, { as: "max", json: { url: " " } });
    expect(res.text).toBe('{"message":{"url":["can\'t be blank"]}}');
  });
});
