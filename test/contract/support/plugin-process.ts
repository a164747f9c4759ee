/**
 * The built plugin started as the engine starts it, for the contract tests that speak to it on
 * the wire: the executable of this platform (scripts/plugin-build.sh) and the Node bin, with the
 * address of an engine's LogService of the test's as its argument, spoken to with the SDK's
 * generated client. The configuration comes from Configure alone (no FORGE_* in its environment).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { unaryCall } from "../../support/grpc-call";
import { EXECUTABLE, PLUGIN_BUILD } from "../../support/plugin-under-test";
import { REPO_ROOT } from "../../support/pulumi-paths";

/** The builds the contract tests start: [label, command, arguments before the engine's]. */
export function pluginBuilds(): [label: string, command: string, args: string[]][] {
  const node: [string, string, string[]] = ["on Node", process.execPath, [join(REPO_ROOT, "dist", "provider", "plugin", "main.js")]];
  // The executable unless FORGE_TEST_PLUGIN=node; missing, it fails (setup builds it), not skipped.
  if (PLUGIN_BUILD === "node") return [node];
  if (!existsSync(EXECUTABLE)) throw new Error(`the plugin's executable is not built (${EXECUTABLE}): run \`. scripts/setup.sh\``);
  return [["the executable", EXECUTABLE, []], node];
}

export interface PluginProcess {
  process: ChildProcess;
  client: providerRpc.ResourceProviderClient;
  /** What the plugin said in the engine's log. */
  logged: { severity: number; message: string; urn: string }[];
  /** A unary call of the client as a promise; a failure rejects with the gRPC error. */
  call<Res>(method: string, request: unknown): Promise<Res>;
  close(): void;
}

export const struct = (values: Record<string, unknown>) => Struct.fromJavaScript(values as Parameters<typeof Struct.fromJavaScript>[0]);

/** Starts `command args... -v=9 <engine>` with `env` (FORGE_* left out), and connects to the port it prints. */
export async function startPluginProcess(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<PluginProcess> {
  const logged: PluginProcess["logged"] = [];
  const engine = new grpc.Server();
  engine.addService(engineRpc.EngineService, {
    log: (request: grpc.ServerUnaryCall<enginePb.LogRequest, Empty>, done: grpc.sendUnaryData<Empty>) => {
      logged.push({ severity: request.request.getSeverity(), message: request.request.getMessage(), urn: request.request.getUrn() });
      done(null, new Empty());
    },
  });
  const enginePort = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
  const plain = Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith("FORGE_")));
  const child = spawn(command, [...args, "-v=9", `127.0.0.1:${enginePort}`], { env: plain, stdio: ["ignore", "pipe", "inherit"] });
  // The engine reads the port from the plugin's first line of stdout.
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before its port: ${out}`)));
  });
  if (!/^\d+$/.test(port)) throw new Error(`the plugin's first line is not a port: ${port}`);
  const client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    process: child,
    client,
    logged,
    call: <Res>(method: string, request: unknown) => unaryCall<Res>(client, method, request),
    close() {
      client.close();
      if (child.exitCode === null) child.kill("SIGKILL");
      engine.forceShutdown();
    },
  };
}
