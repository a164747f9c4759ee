#!/usr/bin/env node
/**
 * `pulumi-resource-forge`: the library's declarations served as a Pulumi provider plugin, for
 * programs in any language (issue 20). The engine starts it (found through `plugins.providers` in
 * Pulumi.yaml, or on PATH) and speaks the provider protocol; `@pulumi/pulumi/provider`'s server
 * answers with provider/plugin/provider.ts over the same operations as the dynamic providers.
 *
 * The connection comes from the provider's configuration (`forge:baseUrl`, `forge:token`, ...),
 * with the same environment fallbacks and errors as the dynamic providers. The SDK's server
 * acknowledges `Configure` without reading it, so its handler is wrapped here to hand the
 * configuration to the composition root first.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as provider from "@pulumi/pulumi/provider";
import { actionDeclarations } from "../provider/actions";
import { lookupDeclarations } from "../provider/lookups/registry";
import { importPresenter } from "../provider/plugin/present";
import { forgeProvider, reveal } from "../provider/plugin/provider";
import { configure, currentClient, implementation } from "../provider/runtime";

const PACKAGE_ROOT = join(__dirname, "..", "..");
const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };

/** The provider's configuration as the runtime reads stack config: `get("forge:baseUrl")`. */
function configOf(request: { getArgs(): { toJavaScript(): Record<string, unknown> } | undefined; getVariablesMap(): { toObject(): [string, string][] } }) {
  const args = reveal(request.getArgs()?.toJavaScript() ?? {}).plain;
  const variables = new Map(request.getVariablesMap().toObject());
  return {
    get(key: string): string | undefined {
      const name = key.slice(key.indexOf(":") + 1);
      const value = args[name] ?? variables.get(key) ?? variables.get(key.replace(":", ":config:"));
      return value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

// The SDK's gRPC server: its `configure` handler is wrapped before the service is added.
const grpcPath = require.resolve("@grpc/grpc-js", { paths: [dirname(require.resolve("@pulumi/pulumi"))] });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const grpc = require(grpcPath) as { Server: { prototype: { addService(service: unknown, implementation: Record<string, unknown>): void } } };
const addService = grpc.Server.prototype.addService;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [dirname(require.resolve("@pulumi/pulumi"))] })) as { Struct: new () => object };
interface ReadRequest {
  getProperties(): object | undefined;
  setProperties(value: object): void;
}
grpc.Server.prototype.addService = function (service, handlers) {
  const original = handlers["configure"] as ((call: { request: Parameters<typeof configOf>[0] }, callback: unknown) => void) | undefined;
  if (original) {
    handlers["configure"] = (call: { request: Parameters<typeof configOf>[0] }, callback: unknown) => {
      void configure(configOf(call.request) as unknown as Parameters<typeof configure>[0]);
      original.call(handlers, call, callback);
    };
  }
  // `pulumi import` reads with the id alone, and the server calls `getProperties().toJavaScript()`
  // on the missing properties: an empty object stands for them.
  const read = handlers["read"] as ((call: { request: ReadRequest }, callback: unknown) => unknown) | undefined;
  if (read) {
    handlers["read"] = (call: { request: ReadRequest }, callback: unknown) => {
      if (!call.request.getProperties()) call.request.setProperties(new Struct());
      return read.call(handlers, call, callback);
    };
  }
  return addService.call(this, service, handlers);
};

const USAGE = `Usage: pulumi-resource-forge <engine address> (version ${version})
The forge provider plugin: the Pulumi engine starts it, people do not. Programs find it through Pulumi.yaml:
  plugins:
    providers:
      - name: forge
        path: <a directory holding pulumi-resource-forge>
Configuration: forge:baseUrl, forge:token (secret), and the connection settings of the README
(forge:caBundle, forge:httpsProxy, ...), with the same FORGE_* environment fallbacks.
Its schema: provider/plugin/schema.json in the package.`;

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}

void provider.main(
  forgeProvider({
    version,
    schema: readFileSync(join(PACKAGE_ROOT, "provider", "plugin", "schema.json"), "utf8"),
    operationsOf: implementation,
    lookups: lookupDeclarations,
    actions: actionDeclarations,
    clientOf: currentClient,
    presentImport: importPresenter(currentClient),
  }),
  process.argv.slice(2),
);
