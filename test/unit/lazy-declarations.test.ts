/**
 * A provider process loads the declarations of the types its program uses, not all of them
 * (provider/resources/by-name.ts): each resource file builds its zod schemas when loaded, and
 * loading all of them was about a third of the plugin's load at its first request. Nor all of
 * undici at its first connection (provider/client/connection.ts). Checked on the build, in a
 * process of its own, as a provider process loads it.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/pulumi-paths";

/** The files a fresh process has loaded after `script` ran against the build. */
function filesLoadedBy(script: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const probe = `
    const dist = ${JSON.stringify(join(REPO_ROOT, "dist", "provider"))};
    Promise.resolve((${script})(dist)).then(() => console.log(JSON.stringify(Object.keys(require.cache))));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8", env }).trim().split("\n").pop()!) as string[];
}

/** The resource files among them (by-name.js and the declarations' files). */
function resourceFilesLoadedBy(script: string): string[] {
  const resources = join(REPO_ROOT, "dist", "provider", "resources") + "/";
  return filesLoadedBy(script)
    .filter((file) => file.startsWith(resources))
    .map((file) => file.slice(resources.length))
    .sort();
}

const FIRST_PLUGIN_CHECK = `(dist) => {
    const runtime = require(dist + "/plugin/loaded.js");
    runtime.useStackConfig({ get: () => undefined });
    const provider = runtime.pluginProvider({ version: "0.0.0", schema: "{}" }, () => {});
    return provider.check("urn:pulumi:dev::p::forge:index:GroupLabel::bug", {}, { group: "acme", name: "bug", color: "#aa0000" });
  }`;

it("the plugin face's first check of a group label loads group-label's declarations and no other type's", () => {
  expect(resourceFilesLoadedBy(FIRST_PLUGIN_CHECK)).toEqual(["by-name.js", "group-label.js"]);
});

it("the plugin's first check loads no lookup, no action and no gRPC library: they are for invokes, adoptions and the SDK's own server", () => {
  const loaded = filesLoadedBy(`(dist) => { require(dist + "/plugin/serve.js"); return (${FIRST_PLUGIN_CHECK})(dist); }`);
  expect(loaded.some((file) => file.endsWith("/dist/provider/plugin/loaded.js"))).toBe(true);
  const unexpected = ["/dist/provider/lookups/registry.js", "/dist/provider/actions.js", "/@grpc/grpc-js/", "/google-protobuf/"];
  expect(loaded.filter((file) => unexpected.some((part) => file.includes(part)))).toEqual([]);
});

it("the dynamic face's operations of a type load its file alone, and an unknown type is named", () => {
  expect(resourceFilesLoadedBy(`(dist) => require(dist + "/composition-root.js").operations("BroadcastMessage")`)).toEqual([
    "broadcast-message.js",
    "by-name.js",
  ]);
  expect(() =>
    execFileSync(
      process.execPath,
      ["-e", `require(${JSON.stringify(join(REPO_ROOT, "dist", "provider", "resources", "by-name.js"))}).declarationByName("Nope")`],
      {
        encoding: "utf8",
        stdio: "pipe",
      },
    ),
  ).toThrow(/no resource named Nope/);
});

describe("undici at a provider's first connection", () => {
  const undici = join(REPO_ROOT, "node_modules", "undici") + "/";
  const openAgent = (transport: object) =>
    `(dist) => require(dist + "/client/connection.js").openAgent("http://127.0.0.1:1", ${JSON.stringify(transport)}).close()`;
  const noProxy = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?|no)_proxy$/i.test(name)));
  const undiciFiles = (script: string, env: NodeJS.ProcessEnv) =>
    filesLoadedBy(script, env)
      .filter((file) => file.startsWith(undici))
      .map((file) => file.slice(undici.length));
  const wholePackage = (files: string[]) => files.filter((file) => file === "index.js" || /^lib\/(web|mock|cache)\//.test(file));

  it("with no proxy set, its proxy-aware agent alone: not its index, fetch, WebSocket or mocks", () => {
    const loaded = undiciFiles(openAgent({}), noProxy);
    expect(loaded).toContain("lib/dispatcher/env-http-proxy-agent.js");
    expect(wholePackage(loaded)).toEqual([]);
  });

  it("through a proxy, from the transport or the environment, the whole package: its tunnel needs what the index adds", () => {
    expect(undiciFiles(openAgent({ httpsProxy: "http://127.0.0.1:2" }), noProxy)).toContain("index.js");
    expect(undiciFiles(openAgent({}), { ...noProxy, HTTPS_PROXY: "http://127.0.0.1:2" })).toContain("index.js");
  });
});
