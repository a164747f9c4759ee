/**
 * The two faces of the engine compared, in `npm run bench` (`BENCH_ONLY=plugin` for it
 * alone): N group labels through the provider plugin from a TypeScript program
 * (`pulumi-forge/plugin`) and from a Pulumi YAML program, against the same labels through the
 * dynamic classes and N no-op dynamic resources (the engine's floor), one emulator, one run,
 * fresh stacks in interleaved rounds, medians. Then the YAML program's `up` against bare loops of
 * the client creating the same labels at the engine's concurrency: POSTs alone, and the engine's
 * own create (the read that proves what it makes, then the POST) with no engine around it.
 *
 * Two modes, printed first. Path (the default): each program's Pulumi.yaml names the plugin's
 * directory (`plugins.providers`), and the engine starts the plugin twice per operation (the YAML
 * host for its schema, the engine for the resources). Installed (BENCH_PLUGIN_INSTALL=1), as
 * pipelines run it: before the rounds, our plugin (this platform's executable in the archive
 * scripts/plugin-build.sh makes, built into a temporary directory) and the peer's binary are installed with `pulumi plugin install ... --file` into the bench world's
 * PULUMI_HOME, and the YAML programs of our face and the peer have no `plugins` block; the engine
 * caches an installed plugin's schema at the first operation (PULUMI_HOME/plugins/schema-<name>-
 * <version>-.json, whose presence the bench prints), and from then on starts the plugin once
 * per operation: a one-label preview per installed plugin before the rounds fills it, so that
 * every measured operation starts each plugin once. The TypeScript face and the baseline keep
 * their path blocks.
 *
 * Not a test: it asserts nothing about time. It fails only if an operation fails.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import * as grpc from "@grpc/grpc-js";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { routes } from "../api/routes";
import { seedToken } from "../emulator";
import { ResourceOperations } from "../provider/engine/operations";
import { declarationByName } from "../provider/resources";
import type { TimingLine } from "../provider/plugin/timings";
import { unaryCall } from "../test/support/grpc-call";
import { EXECUTABLE_DIR, EXECUTABLE as HOST_EXECUTABLE, HOST_PLATFORM } from "../test/support/plugin-under-test";
import { PULUMI_ROOT, REPO_ROOT } from "../test/support/pulumi-paths";
import { measureStack, median, medianMeasured, OPS, seconds, type Measured, type Op } from "./measure";
import { FORGE_PROGRAM, PLUGIN_DIR, type BenchWorld } from "./stacks";

/**
 * `pulumi up`'s parallelism when no `--parallel` is given (pkg/cmd/pulumi/operations/up.go,
 * 3.259): PULUMI_PARALLEL if set (the CLI inherits this process's environment), else GOMAXPROCS × 4.
 */
const PULUMI_PARALLEL = Number(process.env["PULUMI_PARALLEL"]);
const ENGINE_PARALLEL = PULUMI_PARALLEL > 0 ? PULUMI_PARALLEL : availableParallelism() * 4;
const PARALLEL_SOURCE = PULUMI_PARALLEL > 0 ? "PULUMI_PARALLEL" : "pulumi up's default parallelism, cores x 4";

/** BENCH_PLUGIN_INSTALL=1: our plugin and the peer installed in the world's PULUMI_HOME, their YAML programs without a `plugins` block. */
const INSTALL = process.env["BENCH_PLUGIN_INSTALL"] === "1";

/** The plugin the faces run: the executable of this platform when built (scripts/plugin-build.sh), else the Node launcher. */
const PLUGIN_UNDER_BENCH = existsSync(HOST_EXECUTABLE) ? EXECUTABLE_DIR : PLUGIN_DIR;
const pluginBlock = `plugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_UNDER_BENCH}\n`;
/** The Node launcher's face (the plugin as it ran before the executable, and where there is none). */
const NODE_PLUGIN_LABEL = "Node plugin (YAML)";
/** The block of our face's YAML programs: none when the plugin is installed. */
const yamlPluginBlock = INSTALL ? "" : pluginBlock;

/**
 * A peer to measure against, built outside this repository (the repository holds no recipe of
 * another project's code): BENCH_PEER_GITLAB=<a directory holding pulumi-resource-gitlab, or the
 * binary>, a bridged provider of the forge's REST API (pulumi-gitlab). It runs the same YAML
 * program's labels against the same emulator. Without it, the faces are measured against the floor.
 */
const PEER_GITLAB = process.env["BENCH_PEER_GITLAB"];
const PEER_BINARY =
  PEER_GITLAB && (PEER_GITLAB.endsWith("pulumi-resource-gitlab") ? PEER_GITLAB : join(PEER_GITLAB, "pulumi-resource-gitlab"));
const PEER_LABEL = "pulumi-gitlab (YAML)";
/** The face of bench/node-floor-plugin.ts: a Node plugin on node:http2 with no work of its own. */
const NODE_FLOOR_LABEL = "floor: Node plugin (YAML)";

/** The peer's provider configuration: the world's emulator, as the seed's administrator. */
const peerConfig = (world: BenchWorld): Record<string, string> => ({
  "gitlab:baseUrl": `${world.emulator.url}/api/v4/`,
  "gitlab:token": seedToken("root"),
});

/** A built checkout of this repository to measure the YAML face against in the same run (BENCH_PLUGIN_BASELINE=<dir>): before and after a change. */
const PLUGIN_BASELINE = process.env["BENCH_PLUGIN_BASELINE"];

const PLUGIN_TS_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const forge = require("pulumi-forge/plugin");
const n = Number(new pulumi.Config().require("n"));
for (let i = 0; i < n; i += 1) new forge.GroupLabel("label-" + i, { group: "acme", name: "bench-" + i, color: "#aa0000" });
`;

/** N group labels of one group in a Pulumi YAML program, through the provider plugin of `plugins` (ours by default). */
function yamlProgram(name: string, n: number, plugins = yamlPluginBlock, type = "forge:index:GroupLabel"): string {
  const resources = Array.from(
    { length: n },
    (_, i) => `  label-${i}:\n    type: ${type}\n    properties:\n      group: acme\n      name: bench-${i}\n      color: "#aa0000"\n`,
  );
  return `name: ${name}\nruntime: yaml\n${plugins}resources:\n${resources.join("")}`;
}

/** `plugins.providers` naming a provider binary (or the directory holding it) of the given package. */
function providerBlock(name: string, path: string): string {
  const dir = path.endsWith(`pulumi-resource-${name}`) ? dirname(path) : path;
  return `plugins:\n  providers:\n    - name: ${name}\n      path: ${dir}\n`;
}

/** The optional faces: the peer, and our YAML face built from another checkout. */
function comparedFaces(plugin: (type: string) => boolean): Face[] {
  const faces: Face[] = [];
  if (PEER_GITLAB) {
    const block = INSTALL ? "" : providerBlock("gitlab", PEER_GITLAB);
    faces.push({
      label: PEER_LABEL,
      installed: INSTALL ? "gitlab" : undefined,
      managed: (type) => type === "gitlab:index/groupLabel:GroupLabel",
      open: (world, name, n) =>
        world.project(name, { "Pulumi.yaml": yamlProgram(name, n, block, "gitlab:index:GroupLabel") }, peerConfig(world)),
    });
  }
  if (PLUGIN_BASELINE) {
    const block = providerBlock("forge", join(PLUGIN_BASELINE, "plugin"));
    faces.push({
      label: "plugin (YAML), baseline",
      managed: plugin,
      open: (world, name, n) => world.project(name, { "Pulumi.yaml": yamlProgram(name, n, block) }, {}),
    });
  }
  return faces;
}

interface Face {
  label: string;
  /** Environment its operations run with (the CLI inherits it): PULUMI_SKIP_CHECKPOINTS, PULUMI_PARALLEL. */
  env?: Record<string, string>;
  /** The installed plugin its program finds without a `plugins` block (BENCH_PLUGIN_INSTALL=1). */
  installed?: "forge" | "gitlab";
  managed: (type: string) => boolean;
  open(world: BenchWorld, name: string, n: number): Promise<Stack>;
}

/** The YAML face again under BENCH_SKIP_CHECKPOINTS=1 (PULUMI_SKIP_CHECKPOINTS=true) and BENCH_PARALLEL=<p,...> (PULUMI_PARALLEL). */
function engineVariants(): { label: string; env: Record<string, string> }[] {
  const skip =
    process.env["BENCH_SKIP_CHECKPOINTS"] === "1" ? [{ label: "PULUMI_SKIP_CHECKPOINTS", env: { PULUMI_SKIP_CHECKPOINTS: "true" } }] : [];
  const parallel = (process.env["BENCH_PARALLEL"] ?? "").split(",").filter((p) => Number(p) > 0);
  return [...skip, ...parallel.map((p) => ({ label: `--parallel ${p}`, env: { PULUMI_PARALLEL: p } }))];
}

/** The faces measured (BENCH_PLUGIN_FACES=<a,b>: only those whose label contains one of them); `floorProgram` is the scale benchmark's strictest floor (a create-only no-op provider). */
function faces(floorProgram: string): Face[] {
  const plugin = (type: string) => type === "forge:index:GroupLabel";
  const wanted = (process.env["BENCH_PLUGIN_FACES"] ?? "").split(",").filter(Boolean);
  return allFaces(floorProgram, plugin).filter((face) => wanted.length === 0 || wanted.some((part) => face.label.includes(part)));
}

function allFaces(floorProgram: string, plugin: (type: string) => boolean): Face[] {
  return [
    {
      label: "floor (create-only)",
      managed: (type) => type === "pulumi-nodejs:dynamic/floor:Noop",
      open: (world, name, n) => world.stack(name, floorProgram, { n: String(n) }),
    },
    {
      label: "dynamic",
      managed: (type) => type.startsWith("pulumi-nodejs:dynamic/forge:"),
      open: (world, name, n) => world.stack(name, FORGE_PROGRAM, { n: String(n), types: "GroupLabel" }),
    },
    {
      label: "plugin (TS)",
      managed: plugin,
      open: (world, name, n) =>
        world.project(
          name,
          {
            "Pulumi.yaml": `name: ${name}\nruntime: nodejs\nmain: index.js\n${pluginBlock}`,
            "package.json": JSON.stringify({ name, private: true }),
            "index.js": PLUGIN_TS_PROGRAM,
          },
          { n: String(n) },
          { nodeModules: true },
        ),
    },
    {
      label: "plugin (YAML)",
      installed: INSTALL ? "forge" : undefined,
      managed: plugin,
      open: (world, name, n) => world.project(name, { "Pulumi.yaml": yamlProgram(name, n) }, {}),
    },
    ...(PLUGIN_UNDER_BENCH === PLUGIN_DIR
      ? []
      : [
          {
            label: NODE_PLUGIN_LABEL,
            managed: plugin,
            open: (world: BenchWorld, name: string, n: number) =>
              world.project(name, { "Pulumi.yaml": yamlProgram(name, n, providerBlock("forge", PLUGIN_DIR)) }, {}),
          },
        ]),
    // What a Node plugin cannot go under: node:http2 and no work of its own (node-floor-plugin.ts).
    {
      label: NODE_FLOOR_LABEL,
      managed: plugin,
      open: (world, name, n) =>
        world.project(name, { "Pulumi.yaml": yamlProgram(name, n, providerBlock("forge", nodeFloorPluginDir())) }, {}),
    },
    // What the engine's settings cost or save, on the YAML face: the state written once at the end, and parallelism.
    ...engineVariants().map(({ label, env }) => ({
      label: `plugin (YAML), ${label}`,
      installed: INSTALL ? ("forge" as const) : undefined,
      managed: plugin,
      env,
      open: (world: BenchWorld, name: string, n: number) => world.project(name, { "Pulumi.yaml": yamlProgram(name, n) }, {}),
    })),
    ...comparedFaces(plugin),
  ];
}

/** Runs `work` over the items with `parallel` workers; resolves to the milliseconds it took. */
async function timedPool<T>(items: T[], parallel: number, work: (item: T) => Promise<unknown>): Promise<number> {
  const queue = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
  return performance.now() - started;
}

/** The same N labels made by the client alone: POSTs, or the engine's create; each round's labels deleted after. */
async function bareLoops(world: BenchWorld, n: number): Promise<{ post: number; create: number }> {
  const names = Array.from({ length: n }, (_, i) => `bench-${i}`);
  const clear = async () => {
    const labels = await world.api.list<{ id: number }>(routes.groupLabels.list, { group: "acme" });
    await timedPool(labels, ENGINE_PARALLEL, (label) => world.api.request(routes.groupLabels.delete, { group: "acme", labelId: label.id }));
  };
  const post = await timedPool(names, ENGINE_PARALLEL, (name) =>
    world.api.request(routes.groupLabels.create, { group: "acme", name, color: "#aa0000" }),
  );
  await clear();
  const operations = new ResourceOperations(declarationByName("GroupLabel"), () => world.api);
  const create = await timedPool(names, ENGINE_PARALLEL, async (name) => {
    const checked = await operations.check({}, { group: "acme", name, color: "#aa0000" });
    await operations.create(checked.inputs ?? {});
  });
  await clear();
  return { post, create };
}

/** The plugin's own milliseconds per resource in one operation: each method's time to its answer, the forge's share left out. */
type OwnTime = Partial<Record<TimingLine["method"], number>>;

/** Reads a timings file (provider/plugin/timings.ts) into the plugin's own milliseconds per resource and method. */
function ownTimePerResource(file: string, n: number): OwnTime {
  if (!existsSync(file)) return {};
  const own: OwnTime = {};
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const timing = JSON.parse(line) as TimingLine;
    own[timing.method] = (own[timing.method] ?? 0) + Math.max(0, timing.ms - timing.httpMs) / n;
  }
  return own;
}

/** Measures the faces and the bare loops at N labels over `rounds` interleaved rounds, and prints them. */
export async function pluginFaces(world: BenchWorld, n: number, rounds: number, floorProgram: string): Promise<void> {
  const measured = faces(floorProgram);
  const runs = new Map<string, Measured[]>(measured.map((face) => [face.label, []]));
  const own = new Map<string, Record<Op, OwnTime>[]>();
  const loops: { post: number; create: number }[] = [];
  const timings = mkdtempSync(join(tmpdir(), "forge-plugin-timings-"));
  if (INSTALL) {
    const [installed, pathed] = [
      measured.filter((face) => face.installed),
      measured.filter((face) => face.label.startsWith("plugin") && !face.installed),
    ];
    console.log(`\nfaces run on the installed plugins: ${installed.map((face) => face.label).join(", ") || "none"}`);
    if (pathed.length > 0) console.log(`faces run on their path block: ${pathed.map((face) => face.label).join(", ")}`);
  }
  // A forge farther away than loopback: every answer waits this long (what parallelism is for).
  const latencyMs = Number(process.env["BENCH_FORGE_LATENCY_MS"] ?? "0");
  if (latencyMs > 0) {
    await world.emulator.admin("/faults", { method: "POST", json: { path: "^/", latencyMs } });
    console.log(`\n(every answer of the forge delayed ${latencyMs} ms: BENCH_FORGE_LATENCY_MS)`);
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const face of round % 2 === 0 ? measured : [...measured].reverse()) {
      const name = `faces-${face.label.replace(/\W+/g, "-")}-${n}-${round}`.replace(/-+/g, "-");
      // The plugin (started by the CLI, which inherits this process's environment) writes its timings per operation.
      const fileOf = (op: Op) => join(timings, `${name}-${op}.jsonl`);
      Object.assign(process.env, face.env);
      runs.get(face.label)!.push(
        await measureStack(world.emulator, await face.open(world, name, n), n, face.managed, OPS, (op) => {
          process.env["FORGE_PLUGIN_TIMINGS"] = fileOf(op);
          // The proof the engine took the installed plugin: its schema cached after the first operation.
          if (face.installed && op !== OPS[0] && !schemaShown.has(face.installed)) {
            schemaShown.add(face.installed);
            console.log(schemaCached(world, face.installed, `${face.label}'s first ${OPS[0]}`));
          }
        }),
      );
      delete process.env["FORGE_PLUGIN_TIMINGS"];
      for (const key of Object.keys(face.env ?? {})) delete process.env[key];
      if (face.label.startsWith("plugin") || face.label === NODE_PLUGIN_LABEL) {
        own.set(face.label, [
          ...(own.get(face.label) ?? []),
          Object.fromEntries(OPS.map((op) => [op, ownTimePerResource(fileOf(op), n)])) as Record<Op, OwnTime>,
        ]);
      }
    }
    loops.push(await bareLoops(world, n));
  }
  rmSync(timings, { recursive: true, force: true });
  if (latencyMs > 0) await world.emulator.admin("/faults", { method: "DELETE" });
  const results = new Map([...runs].map(([label, list]) => [label, medianMeasured(list)]));
  report(n, rounds, results, { post: median(loops.map((loop) => loop.post)), create: median(loops.map((loop) => loop.create)) });
  reportOwnTime(n, own);
}

let nodeFloorDir: string | undefined;
/** A directory holding a launcher of node-floor-plugin.ts as `pulumi-resource-forge` (written once per run). */
function nodeFloorPluginDir(): string {
  if (!nodeFloorDir) {
    nodeFloorDir = mkdtempSync(join(tmpdir(), "forge-node-floor-"));
    const launcher = `#!/bin/sh\nexec "${process.execPath}" "${join(__dirname, "node-floor-plugin.js")}" "$@"\n`;
    writeFileSync(join(nodeFloorDir, "pulumi-resource-forge"), launcher, { mode: 0o755 });
  }
  return nodeFloorDir;
}

/** The installed plugins whose schema file was looked for (once per run). */
const schemaShown = new Set<string>();

/** Whether PULUMI_HOME/plugins holds the engine's copy of an installed plugin's schema. */
function schemaCached(world: BenchWorld, name: string, after: string): string {
  const dir = join(world.env["PULUMI_HOME"]!, "plugins");
  const files = readdirSync(dir).filter((file) => file.startsWith(`schema-${name}-`) && file.endsWith(".json"));
  return files.length > 0
    ? `installed mode, after ${after}: PULUMI_HOME/plugins/${files.join(", ")} exists (the engine cached the schema)`
    : `installed mode, after ${after}: no PULUMI_HOME/plugins/schema-${name}-*.json (the schema was not cached)`;
}

/** Runs a command with the world's environment; resolves to its stdout, rejects with its stderr. */
function run(world: BenchWorld, command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { env: { ...process.env, ...world.env }, cwd: REPO_ROOT }, (error, out, err) =>
      error ? reject(new Error(`${command} ${args.join(" ")} failed: ${err.trim() || error.message}`)) : resolve(out),
    ),
  );
}

/**
 * Prints the mode of the plugin bench; in installed mode (BENCH_PLUGIN_INSTALL=1) first installs,
 * into the world's PULUMI_HOME with the bench's Pulumi CLI, our plugin (this platform's executable
 * in the archive of scripts/plugin-build.sh, at package.json's version) and the peer's binary (at the
 * version its GetPluginInfo answers), then starts each installed copy and checks its version:
 * the engine will find what the bench measures. Once per run, before the rounds.
 */
export async function preparePluginMode(world: BenchWorld): Promise<void> {
  if (!INSTALL) {
    console.log(
      "\nplugin mode: path (each program's Pulumi.yaml names its plugin: plugins.providers; BENCH_PLUGIN_INSTALL=1 installs them)",
    );
    return;
  }
  const home = world.env["PULUMI_HOME"]!;
  // The executable's archive of this platform (scripts/plugin-build.sh), as pipelines install it,
  // built into a directory of the bench's own: dist/plugin holds the executable the tests run.
  const out = mkdtempSync(join(tmpdir(), "forge-bench-plugin-"));
  const forgeVersion = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
  const plugins: [string, string, string][] = [];
  try {
    const built = await run(world, "bash", [join(REPO_ROOT, "scripts", "plugin-build.sh"), "--out", out, HOST_PLATFORM]);
    plugins.push(["forge", forgeVersion, built.trim().split("\n").pop()!]);
    if (PEER_BINARY) plugins.push(["gitlab", (await pluginStart(PEER_BINARY)).version, PEER_BINARY]);
    for (const [name, version, file] of plugins) {
      // --file takes an archive or a bare binary (3.259: "a binary, folder or tarball").
      await run(world, join(PULUMI_ROOT, "bin", "pulumi"), ["plugin", "install", "resource", name, version, "--file", file]);
      const answered = (await pluginStart(join(home, "plugins", `resource-${name}-v${version}`, `pulumi-resource-${name}`))).version;
      if (answered !== version) throw new Error(`the installed ${name} plugin answers version ${answered}, not ${version}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  // The engine caches an installed plugin's schema at its first operation, which starts the
  // plugin twice: a one-label preview per plugin here, so that every measured operation starts it once.
  for (const [name] of plugins) {
    const config = name === "gitlab" ? peerConfig(world) : {};
    const type = name === "gitlab" ? "gitlab:index:GroupLabel" : "forge:index:GroupLabel";
    const warm = await world.project(`warm-${name}`, { "Pulumi.yaml": yamlProgram(`warm-${name}`, 1, "", type) }, config);
    await warm.preview();
    console.log(schemaCached(world, name, `a one-label preview before the rounds`));
  }
  console.log(
    `\nplugin mode: installed (BENCH_PLUGIN_INSTALL=1) into PULUMI_HOME ${home}: ` +
      plugins.map(([name, version, file]) => `${name} ${version} from ${file}`).join(", ") +
      "; the YAML programs of our face and the peer have no plugins block, the TypeScript face and the baseline keep theirs",
  );
}

/** The plugin's own time per resource (median over rounds), against the issue's goals: check + diff <= 2 ms, create <= 3 ms. */
function reportOwnTime(n: number, own: Map<string, Record<Op, OwnTime>[]>): void {
  const ms = (value: number | undefined) => (value === undefined ? "-" : `${value.toFixed(2)} ms`);
  console.log(`\nthe plugin's own time per resource, N = ${n} (gRPC handler to answer, the forge's answers left out; median over rounds)`);
  console.log("| face | up: check | up: create | preview: check + diff | refresh: read | destroy: delete |");
  console.log("|---|---|---|---|---|---|");
  for (const [label, rounds] of own) {
    const of = (op: Op, ...methods: TimingLine["method"][]) => {
      const values = rounds.map((round) => methods.reduce((sum, method) => sum + (round[op][method] ?? 0), 0));
      return values.every((value) => value === 0) ? undefined : median(values);
    };
    console.log(
      `| ${label} | ${ms(of("up", "check"))} | ${ms(of("up", "create"))} | ${ms(of("preview", "check", "diff"))} | ${ms(of("refresh", "read"))} | ${ms(of("destroy", "delete"))} |`,
    );
  }
}

/** What a plugin's first Check holds: the type and inputs of one label of the bench's programs, and its configuration. */
interface FirstCheck {
  urn: string;
  news: Record<string, unknown>;
  config: Record<string, string>;
}

const FORGE_FIRST_CHECK: FirstCheck = {
  urn: "urn:pulumi:bench::start::forge:index:GroupLabel::label-0",
  news: { group: "acme", name: "bench-0", color: "#aa0000" },
  config: { "forge:config:baseUrl": "http://127.0.0.1:1", "forge:config:token": seedToken("root") },
};
const PEER_FIRST_CHECK: FirstCheck = {
  urn: "urn:pulumi:bench::start::gitlab:index/groupLabel:GroupLabel::label-0",
  news: { group: "acme", name: "bench-0", color: "#aa0000" },
  config: { "gitlab:config:baseUrl": "http://127.0.0.1:1/api/v4/", "gitlab:config:token": seedToken("root") },
};

/**
 * A plugin started as the engine starts the one it deploys with, timed from the spawn: to its port
 * line; to its answer of GetPluginInfo; and to its first answered Check, after the engine's
 * Handshake (with a loader's address, as the engine's own provider gets), GetPluginInfo,
 * CheckConfig, DiffConfig and Configure, in the engine's order. The version it answers, too.
 */
async function pluginStart(
  launcher: string,
  first: FirstCheck = FORGE_FIRST_CHECK,
): Promise<{ port: number; answer: number; check: number; version: string }> {
  const started = performance.now();
  const child = spawn(launcher, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "ignore"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
      });
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`${launcher} exited (${code}) before its port line`)));
    });
    const portMs = performance.now() - started;
    const client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const handshake = new providerPb.ProviderHandshakeRequest().setEngineAddress("127.0.0.1:1").setLoaderTarget("127.0.0.1:1");
    // The handshake, CheckConfig and DiffConfig may be left to the engine (UNIMPLEMENTED); the others must answer.
    await unaryCall(client, "handshake", handshake, { allowUnimplemented: true });
    const info = await unaryCall<{ getVersion(): string }>(client, "getPluginInfo", new Empty());
    const answerMs = performance.now() - started;
    const config = Struct.fromJavaScript({});
    await unaryCall(
      client,
      "checkConfig",
      new providerPb.CheckRequest().setUrn("urn:pulumi:bench::start::pulumi:providers:x::default").setNews(config),
      { allowUnimplemented: true },
    );
    await unaryCall(
      client,
      "diffConfig",
      new providerPb.DiffRequest().setUrn("urn:pulumi:bench::start::pulumi:providers:x::default").setNews(config),
      { allowUnimplemented: true },
    );
    const configure = new providerPb.ConfigureRequest().setAcceptsecrets(true).setAcceptresources(true);
    for (const [key, value] of Object.entries(first.config)) configure.getVariablesMap().set(key, value);
    await unaryCall(client, "configure", configure);
    const check = new providerPb.CheckRequest()
      .setUrn(first.urn)
      .setOlds(Struct.fromJavaScript({}))
      .setNews(Struct.fromJavaScript(first.news as never));
    const checked = await unaryCall<{ getFailuresList(): unknown[] }>(client, "check", check);
    const checkMs = performance.now() - started;
    if (checked.getFailuresList().length > 0) throw new Error(`${launcher}: the first Check failed`);
    client.close();
    return { port: portMs, answer: answerMs, check: checkMs, version: info.getVersion() };
  } finally {
    child.kill();
  }
}

/** The plugins whose start the bench times: our executable (when built) and Node launcher, the baseline's, the peer's, and BENCH_START_EXTRA=<label>=<path>,... */
function startedPlugins(): [label: string, path: string, first: FirstCheck][] {
  const plugins: [string, string, FirstCheck][] = [];
  if (existsSync(HOST_EXECUTABLE)) plugins.push(["pulumi-resource-forge, executable", HOST_EXECUTABLE, FORGE_FIRST_CHECK]);
  plugins.push(["pulumi-resource-forge, Node launcher", join(REPO_ROOT, "plugin", "pulumi-resource-forge"), FORGE_FIRST_CHECK]);
  if (PLUGIN_BASELINE)
    plugins.push(["pulumi-resource-forge, baseline", join(PLUGIN_BASELINE, "plugin", "pulumi-resource-forge"), FORGE_FIRST_CHECK]);
  for (const extra of (process.env["BENCH_START_EXTRA"] ?? "").split(",").filter(Boolean)) {
    // The path follows the last "=", so a label may hold one; a comma ends the entry.
    const at = extra.lastIndexOf("=");
    if (at <= 0 || at === extra.length - 1) throw new Error(`BENCH_START_EXTRA: "${extra}" is not <label>=<path> (labels hold no comma)`);
    plugins.push([extra.slice(0, at), extra.slice(at + 1), FORGE_FIRST_CHECK]);
  }
  if (PEER_BINARY) plugins.push(["pulumi-resource-gitlab (the peer)", PEER_BINARY, PEER_FIRST_CHECK]);
  return plugins;
}

/** How long a command takes to start: a plugin to its port line, its first answer and its first
 *  answered Check (ours, the baseline's and the peer's when given), a CLI to its usage; against
 *  Node doing nothing. BENCH_START_ROUNDS rounds, interleaved (default 12). */
export async function startupTimes(rounds = Number(process.env["BENCH_START_ROUNDS"] ?? "12")): Promise<void> {
  const bin = (name: string) => join(__dirname, "..", "cli", `${name}.js`);
  const firstOutput = (command: string, args: string[]) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
      child.stdout.once("data", () => {
        resolve(performance.now() - started);
        child.kill();
      });
      child.on("error", reject);
    });
  const commands: [string, string, string[]][] = [
    ["node doing nothing (the floor)", process.execPath, ["-e", "console.log(1)"]],
    ["forge-drift --help", process.execPath, [bin("forge-drift"), "--help"]],
    ["forge-recover --help", process.execPath, [bin("forge-recover"), "--help"]],
    ["forge-adopt --help", process.execPath, [bin("forge-adopt"), "--help"]],
  ];
  const plugins = startedPlugins();
  // A first start fills Node's compile cache (provider/compile-cache.ts) and the page cache: not counted.
  for (const [, command, args] of commands) await firstOutput(command, args);
  for (const [, launcher, first] of plugins) await pluginStart(launcher, first);
  const times = new Map<string, number[]>(commands.map(([label]) => [label, []]));
  const starts = new Map<string, { port: number; answer: number; check: number }[]>(plugins.map(([label]) => [label, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const [label, command, args] of commands) times.get(label)!.push(await firstOutput(command, args));
    for (const [label, launcher, first] of round % 2 === 0 ? plugins : [...plugins].reverse()) {
      starts.get(label)!.push(await pluginStart(launcher, first));
    }
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(`\nstart-up, median of ${rounds} interleaved rounds (load average ${loadavg()[0]!.toFixed(1)})`);
  for (const [label, list] of times) console.log(`  ${label}: ${ms(median(list))}`);
  console.log(
    "| plugin | to its port line | to its first answer (GetPluginInfo) | to its first answered Check | first Check to the peer's |",
  );
  console.log("|---|---|---|---|---|");
  const peer = starts.get("pulumi-resource-gitlab (the peer)");
  for (const [label, list] of starts) {
    const check = median(list.map((one) => one.check));
    const ratio = peer ? `${(check / median(peer.map((one) => one.check))).toFixed(2)}x` : "-";
    console.log(
      `| ${label} | ${ms(median(list.map((one) => one.port)))} | ${ms(median(list.map((one) => one.answer)))} | ${ms(check)} | ${ratio} |`,
    );
  }
}

function report(n: number, rounds: number, results: Map<string, Measured>, loop: { post: number; create: number }): void {
  const labels = [...results.keys()];
  const of = (label: string) => results.get(label);
  // A face left out by BENCH_PLUGIN_FACES leaves its ratios out ("-").
  const ratio = (label: string, op: (typeof OPS)[number], to: string) => {
    const [a, b] = [of(label), of(to)];
    return a && b ? `${(a.ms[op] / b.ms[op]).toFixed(2)}x` : "-";
  };
  /** Every phase's ratio of one face to another, on one line. */
  const ratios = (from: string, to: string) => OPS.map((op) => `${op} ${ratio(from, op, to)}`).join(", ");
  console.log(`\nthe plugin's faces, N = ${n} group labels (median of ${rounds} interleaved round${rounds > 1 ? "s" : ""}, fresh stacks)`);
  console.log(
    `| op | ${labels.join(" | ")} | plugin (TS) to dynamic | plugin (YAML) to dynamic | plugin (TS) to floor | requests (${labels.join(" / ")}) |`,
  );
  console.log(`|---|${labels.map(() => "---|").join("")}---|---|---|---|`);
  for (const op of OPS) {
    console.log(
      `| ${op} | ${labels.map((label) => seconds(of(label)!.ms[op])).join(" | ")} | ${ratio("plugin (TS)", op, "dynamic")} | ${ratio("plugin (YAML)", op, "dynamic")} | ` +
        `${ratio("plugin (TS)", op, "floor (create-only)")} | ${labels.map((label) => of(label)!.requests[op]).join(" / ")} |`,
    );
  }
  console.log(`state bytes per resource: ${labels.map((label) => `${label} ${Math.round(of(label)!.stateBytesPerResource)}`).join(", ")}`);
  for (const variant of labels.filter((label) => label.startsWith("plugin (YAML), "))) {
    console.log(`${variant} to plugin (YAML): ${ratios(variant, "plugin (YAML)")}`);
  }
  if (of(PEER_LABEL)) {
    console.log(`plugin (YAML) to ${PEER_LABEL} (goal: <= 1.00x in every phase): ${ratios("plugin (YAML)", PEER_LABEL)}`);
  }
  if (of(NODE_PLUGIN_LABEL)) {
    console.log(`plugin (YAML), the executable, to ${NODE_PLUGIN_LABEL}: ${ratios("plugin (YAML)", NODE_PLUGIN_LABEL)}`);
  }
  if (of(NODE_FLOOR_LABEL)) {
    console.log(
      `plugin (YAML) to ${NODE_FLOOR_LABEL}: ${ratios("plugin (YAML)", NODE_FLOOR_LABEL)} (ours over it: the provider's load at Configure, the codec, the face and the engine per call)`,
    );
    if (of(PEER_LABEL)) {
      console.log(
        `${NODE_FLOOR_LABEL} to ${PEER_LABEL}: ${ratios(NODE_FLOOR_LABEL, PEER_LABEL)} (at or under 1.00x: a Node plugin can be as fast as the peer)`,
      );
    }
  }
  const ts = of("plugin (TS)");
  const dynamic = of("dynamic");
  if (ts && dynamic) {
    console.log(
      `targets, plugin from TypeScript to the dynamic labels: up ${(ts.ms.up / dynamic.ms.up).toFixed(2)}x (<= 0.7x), destroy ${(ts.ms.destroy / dynamic.ms.destroy).toFixed(2)}x (<= 0.5x), ` +
        `state ${(ts.stateBytesPerResource / 1024).toFixed(2)} KB per label (<= 2.5 KB)`,
    );
  }
  const yaml = of("plugin (YAML)");
  if (!yaml) return;
  // Milliseconds: the loops take well under a second against the in-process emulator.
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(
    `YAML up of ${n} labels ${seconds(yaml.ms.up)}; the client alone at ${ENGINE_PARALLEL} in flight (${PARALLEL_SOURCE}): ` +
      `${n} POSTs ${ms(loop.post)} (YAML ${(yaml.ms.up / loop.post).toFixed(2)}x, target <= 2x), ` +
      `${n} of the engine's creates, read then POST, ${ms(loop.create)} (YAML ${(yaml.ms.up / loop.create).toFixed(2)}x)`,
  );
}
