import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ForgeClient,
  ForgeConfigError,
  clientFor,
  closeClients,
  normalizeBaseUrl,
  resolveConnection,
  tokenFingerprint,
} from "../../provider/client";
import { TRANSPORT_SETTINGS, undiciAgentModule } from "../../provider/client/connection";
import { redact } from "../../provider/redaction";
import { REPO_ROOT } from "../support/pulumi-paths";
import { startTestServer, type TestServer } from "./client-test-server";

const config = (values: Record<string, string>) => {
  const keys: string[] = [];
  return { keys, get: (key: string) => (keys.push(key), values[key]) };
};

describe("resolveConnection", () => {
  it("prefers stack config (full keys) over the environment", () => {
    const cfg = config({ "forge:baseUrl": "https://cfg.example/", "forge:token": "cfg-token" });
    const env = { FORGE_BASE_URL: "https://env.example", FORGE_TOKEN: "env-token" };
    expect(resolveConnection(cfg, env)).toEqual({ baseUrl: "https://cfg.example", token: "cfg-token" });
    expect(cfg.keys.slice(0, 2)).toEqual(["forge:baseUrl", "forge:token"]);
    expect(cfg.keys.every((key) => key.startsWith("forge:"))).toBe(true);
  });

  it("falls back to FORGE_BASE_URL / FORGE_TOKEN per key, and reads process.env by default", () => {
    const env = { FORGE_BASE_URL: "http://env.example:8080//", FORGE_TOKEN: "env-token" };
    expect(resolveConnection(config({ "forge:token": "cfg-token" }), env)).toEqual({
      baseUrl: "http://env.example:8080",
      token: "cfg-token",
    });
    expect(resolveConnection(config({ "forge:baseUrl": "", "forge:token": "" }), env)).toEqual({
      baseUrl: "http://env.example:8080",
      token: "env-token",
    });
    const saved = { ...process.env };
    try {
      process.env["FORGE_BASE_URL"] = "https://proc.example";
      process.env["FORGE_TOKEN"] = "proc-token";
      expect(resolveConnection()).toEqual({ baseUrl: "https://proc.example", token: "proc-token" });
    } finally {
      process.env = saved;
    }
  });

  it("names both ways to set a missing token or base URL", () => {
    const noToken = () => resolveConnection(config({ "forge:baseUrl": "https://f.example" }), {});
    expect(noToken).toThrow(ForgeConfigError);
    expect(noToken).toThrow(/FORGE_TOKEN.*pulumi config set --secret forge:token/);
    const noUrl = () => resolveConnection(undefined, { FORGE_TOKEN: "t" });
    expect(noUrl).toThrow(ForgeConfigError);
    expect(noUrl).toThrow(/FORGE_BASE_URL.*pulumi config set forge:baseUrl/);
  });

  it("rejects non-http(s) and malformed URLs clearly, strips slashes and /api/v4", () => {
    expect(() => normalizeBaseUrl("ftp://forge.example")).toThrow(/must start with http:\/\/ or https:\/\//);
    expect(() => normalizeBaseUrl("forge.example")).toThrow(/not a valid URL/);
    expect(() => normalizeBaseUrl("https://user:pw@forge.example")).toThrow(ForgeConfigError);
    expect(() => normalizeBaseUrl("https://user:pw@forge.example")).not.toThrow(/pw/);
    expect(normalizeBaseUrl(" https://Forge.Example/gitlab/api/v4/ ")).toBe("https://forge.example/gitlab");
    expect(() => new ForgeClient({ baseUrl: "file:///etc" })).toThrow(ForgeConfigError);
  });
});

describe("settings' values in errors", () => {
  // A key file as `openssl pkcs12 -nodes` writes it: attribute lines before the PEM block.
  const KEY = [
    "Bag Attributes",
    "    localKeyID: 01 00 00 00",
    "Key Attributes: <No Attributes>",
    "-----BEGIN PRIVATE KEY-----",
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDQ1k2b3f",
    "zW8q7y2Xr0c1m4Jm3fNc9tA0e5aR1bL2cD3eF4gH5iJ6kK7lM8nO9pQ0rS",
    "-----END PRIVATE KEY-----",
  ].join("\n");
  const env = { FORGE_BASE_URL: "https://forge.example", FORGE_TOKEN: "t0ken-value" };

  it("takes text holding a PEM block anywhere as the PEM itself, not a path", () => {
    expect(resolveConnection(config({ "forge:clientKey": KEY }), env).transport?.key).toBe(KEY);
  });

  it("never quote the value, in any form: a key without its armour, a wrong boolean, a number, a base URL", () => {
    const armourless = KEY.split("\n")
      .filter((line) => !line.startsWith("-----"))
      .join("\n");
    const failures = [
      () => resolveConnection(config({ "forge:clientKey": armourless }), env),
      () => resolveConnection(config({ "forge:clientKey": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDQ1k2b3f" }), env),
      () => resolveConnection(config({ "forge:insecure": "yes-please-skip" }), env),
      () => resolveConnection(config({ "forge:timeoutMs": "soon-enough" }), env),
      () => resolveConnection(config({ "forge:baseUrl": "forge.example/secret-path" }), env),
      () => resolveConnection(config({ "forge:baseUrl": "https://forge.example/?private_token=abcdefgh" }), env),
    ];
    for (const failure of failures) {
      let message = "";
      try {
        failure();
      } catch (error) {
        expect(error).toBeInstanceOf(ForgeConfigError);
        message = (error as Error).message;
      }
      expect(message, "the call failed").not.toBe("");
      for (const word of ["MIIEvQIBADAN", "Bag Attributes", "localKeyID", "yes-please", "soon-enough", "secret-path", "abcdefgh"])
        expect(message).not.toContain(word);
      // It names the setting and the reason.
      expect(message).toMatch(/forge:clientKey|forge:insecure|forge:timeoutMs|base URL/);
    }
  });
});

describe("secret settings", () => {
  const env = { FORGE_BASE_URL: "https://forge.example", FORGE_TOKEN: "secret-settings-token" };

  it("are masked in whatever the process prints once read, each one marked secret in the table", () => {
    const secret = Object.values(TRANSPORT_SETTINGS).filter((setting) => "secret" in setting);
    expect(secret.map((setting) => setting.config)).toEqual(["forge:clientKey"]);
    for (const setting of secret) {
      const body = `${setting.env}SecretBody0123456789abcdefABCDEF`;
      const pem = ["-----BEGIN PRIVATE KEY-----", body, "-----END PRIVATE KEY-----"].join("\n");
      expect(redact(`read ${body}`)).toContain(body);
      resolveConnection(config({ [setting.config]: pem }), env);
      expect(redact(`read ${body}`)).not.toContain(body);
    }
  });

  it("are the schema's secret configuration variables, with the token", () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8")) as {
      config: { variables: Record<string, { secret?: boolean }> };
    };
    const secretVariables = Object.entries(schema.config.variables).filter(([, variable]) => variable.secret);
    expect(secretVariables.map(([name]) => `forge:${name}`).sort()).toEqual(
      [
        "forge:token",
        ...Object.values(TRANSPORT_SETTINGS)
          .filter((setting) => "secret" in setting)
          .map((setting) => setting.config),
      ].sort(),
    );
  });
});

describe("undici's agent", () => {
  it("is loaded from its own module, the very class undici's index exports (an undici that moves it fails here)", () => {
    const load = createRequire(join(REPO_ROOT, "package.json"));
    expect(undiciAgentModule()).toBe((load("undici") as typeof import("undici")).EnvHttpProxyAgent);
  });
});

describe("connection reuse", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await closeClients();
    await server.close();
  });
  afterEach(() => server.reset());

  it("sends sequential requests over one kept-alive socket", async () => {
    const client = new ForgeClient({ baseUrl: server.url, token: "keep-alive-token" });
    try {
      const before = server.connections;
      for (let i = 0; i < 5; i++) await client.request("GET", "/projects/:id", { id: i });
      server.fallback = (req) => ({ body: req.method === "GET" && req.rawPath === "/api/v4/groups" ? [] : {} });
      await client.list("/groups");
      await client.request("POST", "/groups", { name: "g" });
      expect(server.requests).toHaveLength(7);
      expect(server.connections - before).toBe(1);
      expect(new Set(server.requests.map((r) => r.socketId)).size).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("clientFor reuses one client per (baseUrl, token) and keys by a token hash", async () => {
    const a = clientFor({ baseUrl: server.url, token: "token-a" });
    expect(clientFor({ baseUrl: `${server.url}/`, token: "token-a" })).toBe(a);
    expect(clientFor({ baseUrl: server.url, token: "token-b" })).not.toBe(a);
    expect(tokenFingerprint("token-a")).toMatch(/^[0-9a-f]{16}$/);
    expect(tokenFingerprint("token-a")).not.toContain("token-a");
    await a.request("GET", "/version");
    expect(server.requests[0]?.headers["private-token"]).toBe("token-a");
    await closeClients();
    expect(clientFor({ baseUrl: server.url, token: "token-a" })).not.toBe(a);
  });

  it("clientFor keeps clients apart by everything that changes behaviour, the retry-wait listener too, over one shared connection", async () => {
    const connection = { baseUrl: server.url, token: "token-w" };
    const heard: string[] = [];
    const listener = (wait: { reason: string }) => void heard.push(wait.reason);
    const quiet = clientFor(connection);
    const loud = clientFor(connection, listener);
    expect(loud).not.toBe(quiet);
    expect(clientFor(connection, listener)).toBe(loud);
    expect(clientFor({ ...connection, transport: { retryBudgetMs: 5_000 } })).not.toBe(quiet);
    expect(clientFor({ ...connection, transport: { timeoutMs: 5_000 } })).not.toBe(quiet);
    server.script({ status: 503, headers: { "retry-after": "0" }, body: { message: "503" } }, { body: {} });
    await loud.request("GET", "/version");
    expect(heard).toEqual(["503"]);
    // The listener is the client's; the keep-alive connection is the link's.
    await quiet.request("GET", "/version");
    expect(new Set(server.requests.map((r) => r.socketId)).size).toBe(1);
  });

  it("sends no PRIVATE-TOKEN when the client has none", async () => {
    const anonymous = new ForgeClient({ baseUrl: server.url });
    try {
      await anonymous.request("GET", "/version");
      expect(server.requests[0]?.headers["private-token"]).toBeUndefined();
    } finally {
      await anonymous.close();
    }
  });
});
