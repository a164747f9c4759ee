/**
 * Connections to real instances, over real TLS on loopback: the emulator serves HTTPS with a
 * certificate from a CA this test makes (openssl), and the client reaches it with the CA bundle
 * from the environment or the stack config, through a forward proxy (CONNECT) started here,
 * around it with NO_PROXY, and with a client certificate where a server asks for one. Without
 * the CA, through a refusing proxy, or at a sign-in page, the error says what to fix and where.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseCliArgs } from "../../emulator/cli-main";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { ForgeClient, ForgeConfigError, ForgeNetworkError, ForgeNotApiError, resolveConnection } from "../../provider/client";
import { hasOpenssl, makeCertificates, mutualTlsOptions } from "./certificates";
import { startConnectProxy } from "./proxy";

const TOKEN = seedToken("root");

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe.skipIf(!hasOpenssl)("connections over TLS and proxies", () => {
  let dir: string;
  let certs: ReturnType<typeof makeCertificates>;
  let emulator: RunningEmulator;
  const closers: (() => Promise<unknown> | void)[] = [];

  /** GET /user through a client for the connection resolved from `env` and `stackConfig`. */
  async function whoAmI(env: Record<string, string>, stackConfig: Record<string, string> = {}): Promise<unknown> {
    const connection = resolveConnection(config(stackConfig), { FORGE_BASE_URL: emulator.url, FORGE_TOKEN: TOKEN, ...env });
    const client = new ForgeClient({ ...connection, retry: { maxAttempts: 1 } });
    closers.push(() => client.close());
    return (await client.request<{ username: string }>("GET", "/user")).body.username;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "forge-tls-"));
    certs = makeCertificates(dir);
    emulator = await startEmulator({ tls: { cert: readFileSync(certs.serverCert, "utf8"), key: readFileSync(certs.serverKey, "utf8") } });
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the emulator serves HTTPS from --tls-cert / --tls-key", () => {
    expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(parseCliArgs(["--tls-cert", certs.serverCert, "--tls-key", certs.serverKey]).tls?.cert).toContain("BEGIN CERTIFICATE");
    expect(() => parseCliArgs(["--tls-cert", certs.serverCert])).toThrow(/--tls-cert and --tls-key go together/);
  });

  it("without the CA, fails naming the forge and the setting that fixes it", async () => {
    const failure = await whoAmI({}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ForgeNetworkError);
    expect(String((failure as Error).message)).toContain(`the forge at ${emulator.url} presents a certificate this machine does not trust`);
    expect(String((failure as Error).message)).toContain("FORGE_CA_BUNDLE");
  });

  it("trusts the CA bundle from FORGE_CA_BUNDLE (a path) or stack config forge:caBundle (the PEM itself)", async () => {
    expect(await whoAmI({ FORGE_CA_BUNDLE: certs.ca })).toBe("root");
    expect(await whoAmI({}, { "forge:caBundle": readFileSync(certs.ca, "utf8") })).toBe("root");
  });

  it("takes the base URL with or without /api/v4", async () => {
    expect(await whoAmI({ FORGE_CA_BUNDLE: certs.ca, FORGE_BASE_URL: `${emulator.url}/api/v4/` })).toBe("root");
  });

  it("insecure skips verification and warns loudly", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await whoAmI({ FORGE_INSECURE: "true" })).toBe("root");
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^WARNING: TLS certificate verification is OFF for https:\/\/127\.0\.0\.1/));
    } finally {
      warn.mockRestore();
    }
    expect(() => resolveConnection(config({}), { FORGE_BASE_URL: emulator.url, FORGE_TOKEN: TOKEN, FORGE_INSECURE: "yes please" })).toThrow(
      ForgeConfigError,
    );
  });

  it("goes through an HTTPS proxy from the environment or the config, and around it for NO_PROXY hosts", async () => {
    const proxy = await startConnectProxy();
    closers.push(() => new Promise((resolve) => proxy.server.close(resolve)));
    const target = emulator.url.replace("https://", "");
    const saved = { ...process.env };
    try {
      // The standard variables, as a pipeline sets them (read when the client is made).
      process.env["HTTPS_PROXY"] = proxy.url;
      delete process.env["NO_PROXY"];
      delete process.env["no_proxy"];
      expect(await whoAmI({ FORGE_CA_BUNDLE: certs.ca })).toBe("root");
      expect(proxy.tunnels).toEqual([target]);
      process.env["NO_PROXY"] = "127.0.0.1";
      expect(await whoAmI({ FORGE_CA_BUNDLE: certs.ca })).toBe("root");
      expect(proxy.tunnels).toHaveLength(1);
    } finally {
      process.env = saved;
    }
    expect(await whoAmI({ FORGE_CA_BUNDLE: certs.ca }, { "forge:httpsProxy": proxy.url })).toBe("root");
    expect(proxy.tunnels).toEqual([target, target]);
    expect(await whoAmI({ FORGE_CA_BUNDLE: certs.ca, FORGE_NO_PROXY: "localhost,127.0.0.1" }, { "forge:httpsProxy": proxy.url })).toBe(
      "root",
    );
    expect(proxy.tunnels).toHaveLength(2);
  });

  it("a proxy that refuses the tunnel is an error naming the URL and the proxy settings", async () => {
    const proxy = await startConnectProxy(true);
    closers.push(() => new Promise((resolve) => proxy.server.close(resolve)));
    const failure = (await whoAmI({ FORGE_CA_BUNDLE: certs.ca }, { "forge:httpsProxy": proxy.url }).catch(
      (error: unknown) => error,
    )) as Error;
    expect(failure).toBeInstanceOf(ForgeNetworkError);
    expect(failure.message).toContain(`the proxy did not connect to ${emulator.url}/api/v4/user`);
    expect(failure.message).toContain("HTTPS_PROXY");
  });

  it("presents the client certificate and key to a forge that asks for one", async () => {
    const server = createHttpsServer(mutualTlsOptions(certs), (_request, response) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ username: "mtls" })),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(
      await whoAmI({
        FORGE_BASE_URL: url,
        FORGE_CA_BUNDLE: certs.ca,
        FORGE_CLIENT_CERT: certs.clientCert,
        FORGE_CLIENT_KEY: certs.clientKey,
      }),
    ).toBe("mtls");
    await expect(whoAmI({ FORGE_BASE_URL: url, FORGE_CA_BUNDLE: certs.ca })).rejects.toThrow(ForgeNetworkError);
    expect(() =>
      resolveConnection(config({ "forge:clientKey": join(dir, "missing.key") }), { FORGE_BASE_URL: url, FORGE_TOKEN: TOKEN }),
    ).toThrow(/stack config forge:clientKey holds no PEM block and names no readable file \(ENOENT/);
  });
});

describe("answers that are not the API", () => {
  it("an HTML sign-in page is an error naming the URL and the page, never a 'not found'", async () => {
    const server = createHttpServer((request, response) => {
      const status = request.url?.includes("labels") ? 404 : 200;
      response
        .writeHead(status, { "content-type": "text/html; charset=utf-8" })
        .end("<html><head><title>Sign in · Forge</title></head><body>…</body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new ForgeClient({ baseUrl: url, token: TOKEN, retry: { maxAttempts: 1 } });
    try {
      const failure = (await client.request("GET", "/user").catch((error: unknown) => error)) as ForgeNotApiError;
      expect(failure).toBeInstanceOf(ForgeNotApiError);
      expect(failure.message).toBe(
        `GET ${url}/api/v4/user answered 200 with an HTML page ("Sign in · Forge"), not the forge's API: ` +
          "check the base URL (the forge's address, with or without /api/v4) and any proxy, load balancer or sign-on page in front of it",
      );
      await expect(client.request("GET", "/groups/:group/labels/:id", { group: "acme", id: 1 })).rejects.toThrow(ForgeNotApiError);
    } finally {
      await client.close();
      server.close();
    }
  });

  it("a request timeout from FORGE_TIMEOUT_MS or forge:timeoutMs", async () => {
    const server = createHttpServer(() => {}); // never answers
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const connection = resolveConnection(config({ "forge:timeoutMs": "300" }), {
      FORGE_BASE_URL: url,
      FORGE_TOKEN: TOKEN,
      FORGE_TIMEOUT_MS: "5000",
    });
    expect(connection.transport?.timeoutMs).toBe(300);
    const client = new ForgeClient({ ...connection, retry: { maxAttempts: 1 } });
    try {
      await expect(client.request("GET", "/user")).rejects.toThrow("GET /user timed out: no response within 300 ms");
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
