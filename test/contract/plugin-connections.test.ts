/**
 * The plugin's own connections, on each build (the executable runs its own runtime's TLS and HTTP,
 * not Node's): the built plugin started as the engine starts it, configured by Configure alone,
 * creates a label over HTTPS with the CA from `forge:caBundle`, through a CONNECT proxy from
 * `forge:httpsProxy`, and with a client certificate (`forge:clientCert`, `forge:clientKey`) at a
 * forge that asks for one; without the CA it fails naming the setting. The client's own rules are
 * test/connection/tls-and-proxies.test.ts's.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { conceal } from "../../provider/plugin/face";
import { hasOpenssl, makeCertificates, mutualTlsOptions, type Certificates } from "../connection/certificates";
import { startConnectProxy } from "../connection/proxy";
import { pluginBuilds, startPluginProcess, struct, type PluginProcess } from "./support/plugin-process";

const TOKEN = seedToken("root");
const urn = (name: string) => `urn:pulumi:test::forge::forge:index:GroupLabel::${name}`;

/** An HTTPS front of the (plain HTTP) emulator that asks for a client certificate signed by the CA. */
async function startMutualTlsFront(certs: Certificates, emulator: RunningEmulator): Promise<{ url: string; server: Server }> {
  const target = new URL(emulator.url);
  const server = createHttpsServer(mutualTlsOptions(certs), (request, response) => {
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(!hasOpenssl).each(pluginBuilds())("the plugin's connections, %s", (_label, command, args) => {
  let dir: string;
  let certs: Certificates;
  let tlsEmulator: RunningEmulator;
  let plainEmulator: RunningEmulator;
  const closers: (() => unknown)[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "forge-plugin-tls-"));
    certs = makeCertificates(dir);
    tlsEmulator = await startEmulator({
      tls: { cert: readFileSync(certs.serverCert, "utf8"), key: readFileSync(certs.serverKey, "utf8") },
    });
    plainEmulator = await startEmulator({ port: 0 });
  }, 60_000);

  afterAll(async () => {
    for (const close of closers) await close();
    await tlsEmulator?.close();
    await plainEmulator?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A plugin configured with `settings` (the token secret), as the engine's Configure sends them. */
  async function configured(settings: Record<string, string>): Promise<PluginProcess> {
    const plugin = await startPluginProcess(command, args);
    closers.push(() => plugin.close());
    const configure = new providerPb.ConfigureRequest();
    configure.setArgs(struct(conceal({ token: TOKEN, ...settings }, ["token"])!));
    await plugin.call("configure", configure);
    return plugin;
  }

  /** Check, then create, a label named `name` of group acme: the create's id. */
  async function createLabel(plugin: PluginProcess, name: string): Promise<string> {
    const check = new providerPb.CheckRequest().setUrn(urn(name)).setNews(struct({ group: "acme", name, color: "#aa0000" }));
    const checked = await plugin.call<providerPb.CheckResponse>("check", check);
    const create = new providerPb.CreateRequest().setUrn(urn(name)).setProperties(checked.getInputs());
    return (await plugin.call<providerPb.CreateResponse>("create", create)).getId();
  }

  it("trusts the CA of forge:caBundle and goes through the proxy of forge:httpsProxy", async () => {
    const proxy = await startConnectProxy();
    closers.push(() => new Promise((resolve) => proxy.server.close(resolve)));
    const plugin = await configured({ baseUrl: tlsEmulator.url, caBundle: readFileSync(certs.ca, "utf8"), httpsProxy: proxy.url });
    expect(await createLabel(plugin, "through-proxy")).toMatch(/^acme:\d+$/);
    expect(proxy.tunnels).toContain(tlsEmulator.url.replace("https://", ""));
  });

  it("presents the client certificate and key to a forge that asks for one", async () => {
    const front = await startMutualTlsFront(certs, plainEmulator);
    closers.push(() => new Promise((resolve) => front.server.close(resolve)));
    const plugin = await configured({
      baseUrl: front.url,
      caBundle: certs.ca,
      clientCert: readFileSync(certs.clientCert, "utf8"),
      clientKey: readFileSync(certs.clientKey, "utf8"),
    });
    expect(await createLabel(plugin, "with-client-cert")).toMatch(/^acme:\d+$/);
  });

  it("without the CA, the create fails naming the setting that fixes it", async () => {
    const plugin = await configured({ baseUrl: tlsEmulator.url });
    const failure = (await createLabel(plugin, "untrusted").catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/forge:caBundle|FORGE_CA_BUNDLE/);
  });
});
