#!/usr/bin/env node
/**
 * `pulumi-resource-forge`: the library's declarations served as a Pulumi provider plugin, for
 * programs in any language. The engine starts it (found through `plugins.providers` in
 * Pulumi.yaml, or on PATH) and speaks the provider protocol. serve.ts serves it; the provider
 * (loaded.ts: the plugin face over the composition root's operations) loads at the first request
 * that needs it.
 */
import "./node-version";
import { keepCompiled } from "../compile-cache";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { servePlugin, type PluginRuntime } from "./serve";

const PACKAGE_ROOT = join(__dirname, "..", "..", "..");
const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };

const USAGE = `Usage: pulumi-resource-forge <engine address> (version ${version})
The forge provider plugin: the Pulumi engine starts it, people do not. Programs find it through Pulumi.yaml:
  plugins:
    providers:
      - name: forge
        path: <a directory holding pulumi-resource-forge>
Configuration: forge:baseUrl, forge:token (secret), and the connection settings of docs/installation-configuration.md
(forge:caBundle, forge:httpsProxy, ...), with the same FORGE_* environment fallbacks.
Its schema: provider/plugin/schema.json in the package.`;

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}

const schema = readFileSync(join(PACKAGE_ROOT, "provider", "plugin", "schema.json"), "utf8");
// The composition root (every declaration, zod, the client) loads at the first request that needs it.
const runtime = () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require("./loaded") as PluginRuntime;
  keepCompiled();
  return loaded;
};
void servePlugin({ version, schema }, runtime, process.argv.slice(2));
keepCompiled();
