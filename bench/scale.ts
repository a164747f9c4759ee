/**
 * `npm run bench`: the scale benchmark. The real Pulumi CLI (Automation API, local file backend)
 * runs up, preview, refresh and destroy of N resources of a mix of types against the emulator
 * (in this process, real HTTP on loopback), and the same four operations of N no-op dynamic
 * resources (the engine's own floor: no HTTP), in the same run. Two floors: `methods`, a no-op
 * provider with the six methods a user would write (1.75 KB serialized, the floor of the issue's
 * first measurements), and `create-only`, the smallest provider the engine accepts (the strict
 * floor). What to compare across changes are the printed ratios, not the absolute times, which
 * depend on the machine and its load.
 *
 *   BENCH_N=100,500 (default)   sizes to run
 *   BENCH_RATE_LIMIT=200/5      also an `up` + `destroy` of the largest N under that budget
 *                                (requests per window of seconds) and count the 429s
 *   BENCH_PREVIEW_N=500         the preview ratio: N group labels previewed with no change (no
 *                                HTTP request) against the floors, BENCH_ROUNDS interleaved rounds
 *                                (default 3), medians; 0 skips it
 *   BENCH_ONLY=preview          only the preview ratio (quick: BENCH_PREVIEW_N=200 BENCH_ROUNDS=5)
 *   BENCH_PLUGIN_N=1,200        the plugin's faces (bench/plugin.ts): start-up times, then for each N,
 *                                N labels through the plugin from TypeScript and YAML vs the dynamic
 *                                classes vs the floor, the plugin's own time per resource, and YAML
 *                                vs the client alone; BENCH_PLUGIN_ROUNDS (default 3); 0 skips the faces
 *   BENCH_ONLY=plugin           only the plugin's faces
 *   BENCH_PLUGIN_FACES=YAML     only the faces whose label holds one of these (comma-separated)
 *   BENCH_PLUGIN_INSTALL=1      the plugin and the peer installed in PULUMI_HOME (pulumi plugin
 *                                install), not named by path in the YAML programs (bench/plugin.ts)
 *   BENCH_SKIP_CHECKPOINTS=1    adds the YAML face run with PULUMI_SKIP_CHECKPOINTS=true
 *   BENCH_PARALLEL=1,32         adds the YAML face run at each PULUMI_PARALLEL (pulumi's --parallel)
 *   BENCH_FORGE_LATENCY_MS=50   the plugin's faces against a forge whose every answer waits that long
 *   BENCH_TABLE_ROUNDS=1        rounds of the table (fresh stacks each round, alternating order;
 *                                the table shows medians)
 *   BENCH_BASELINE=<checkout>   also the same forge stacks with `pulumi-forge` linked to another
 *                                built checkout (e.g. `git archive <commit>` + tsc), interleaved
 *                                with this one: before/after in one run
 *   BENCH_PROFILE=<dir>         with BENCH_ONLY=preview: the last round's previews run with
 *                                NODE_OPTIONS=--cpu-prof (program and provider process), profiles
 *                                in <dir>/<stack>/, summarised at the end (bench/profile-summary.ts)
 *
 * Not a test: it asserts nothing about time. It fails only if an operation fails.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { files, summarise } from "./profile-summary";
import { pluginFaces, preparePluginMode, startupTimes } from "./plugin";
import { measureStack, median, medianMeasured, OPS, seconds, type Measured, type Op } from "./measure";
import { FORGE_PROGRAM, PULUMI_VERSION, startBenchWorld, type BenchWorld } from "./stacks";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";

/** A floor: the same number of dynamic resources whose provider does nothing. */
const FLOOR_PROGRAM = (provider: string) => `
const pulumi = require("@pulumi/pulumi");
const n = Number(new pulumi.Config().require("n"));
const provider = ${provider};
for (let i = 0; i < n; i += 1) {
  new pulumi.dynamic.Resource(provider, "noop-" + i, { key: "noop-" + i, name: "bench-" + i, color: "#aa0000" }, {}, "floor", "Noop");
}
`;

const FLOORS = {
  methods: `{
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) { return { id: inputs.key, outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async update(id, olds, news) { return { outs: news }; },
  async delete() {},
}`,
  "create-only": `{ async create(inputs) { return { id: inputs.key, outs: inputs }; } }`,
};

async function main(): Promise<void> {
  const sizes = (process.env["BENCH_N"] ?? "100,500").split(",").map(Number);
  const budget = process.env["BENCH_RATE_LIMIT"];
  const world = await startBenchWorld({ requestLogSize: 100_000 });
  const { emulator } = world;
  const stackOf = (name: string, program: string, n: number) => world.stack(name, program, { n: String(n) });

  const dynamic = (type: string) => type.startsWith("pulumi-nodejs:dynamic");
  const measure = (stack: Stack, n: number, ops: readonly Op[] = OPS) => measureStack(emulator, stack, n, dynamic, ops);

  const previewN = Number(process.env["BENCH_PREVIEW_N"] ?? "500");
  const rounds = Number(process.env["BENCH_ROUNDS"] ?? "3");
  const only = process.env["BENCH_ONLY"];
  const baseline = process.env["BENCH_BASELINE"];
  const tableRounds = Number(process.env["BENCH_TABLE_ROUNDS"] ?? "1");

  try {
    console.log(`scale benchmark: Pulumi ${PULUMI_VERSION}, Node ${process.version}, emulator ${emulator.url}`);
    if (only === "preview") {
      await previewRatio(world, previewN, rounds, process.env["BENCH_PROFILE"], baseline);
      return;
    }
    const pluginNs = (process.env["BENCH_PLUGIN_N"] ?? "1,200")
      .split(",")
      .map(Number)
      .filter((n) => n > 0);
    const pluginRounds = Number(process.env["BENCH_PLUGIN_ROUNDS"] ?? "3");
    const plugin = async () => {
      await preparePluginMode(world);
      await startupTimes();
      for (const n of pluginNs) await pluginFaces(world, n, pluginRounds, FLOOR_PROGRAM(FLOORS["create-only"]));
    };
    if (only === "plugin") {
      await plugin();
      return;
    }
    for (const n of sizes) {
      // Each round a fresh stack of each, in alternating order; the table shows the medians.
      const programs: [string, string, string | undefined][] = [
        ...Object.entries(FLOORS).map(([name, provider]): [string, string, string | undefined] => [
          name,
          FLOOR_PROGRAM(provider),
          undefined,
        ]),
        ["pulumi-forge", FORGE_PROGRAM, undefined],
        ...(baseline ? [["baseline", FORGE_PROGRAM, baseline] as [string, string, string | undefined]] : []),
      ];
      const runs = new Map<string, Measured[]>(programs.map(([label]) => [label, []]));
      for (let round = 0; round < tableRounds; round += 1) {
        for (const [label, program, root] of round % 2 === 0 ? programs : [...programs].reverse()) {
          const stack = await world.stack(`${label}-${n}-${round}`, program, { n: String(n) }, {}, root);
          runs.get(label)!.push(await measure(stack, n));
        }
      }
      const medianOf = (label: string) => medianMeasured(runs.get(label)!);
      const floors = Object.fromEntries(Object.keys(FLOORS).map((name) => [name, medianOf(name)]));
      report(n, floors, medianOf("pulumi-forge"), baseline ? medianOf("baseline") : undefined, tableRounds);
    }
    if (budget) {
      const [limit = "200", window = "5"] = budget.split("/");
      const n = Math.max(...sizes);
      await emulator.admin("/rate-limit", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ limit: Number(limit), window_s: Number(window) }),
      });
      const limited = await measure(await stackOf(`limited-${n}`, FORGE_PROGRAM, n), n, ["up", "destroy"]);
      console.log(
        `\nunder a budget of ${limit} requests per ${window} s, N = ${n}: ` +
          (["up", "destroy"] as const)
            .map((op) => `${op} ${seconds(limited.ms[op])} (${limited.requests[op]} requests, ${limited.throttled[op]} answered 429)`)
            .join(", "),
      );
    }
    if (previewN > 0) await previewRatio(world, previewN, rounds, undefined, baseline);
    await plugin();
  } finally {
    await world.close();
  }
}

/**
 * The preview ratio of the issue: N group labels previewed with no change, which sends no
 * request, so what it measures is the library's own cost per resource (the program's resource
 * class, the provider's check and diff) against the floors'. The stacks are created once, then
 * their previews run in interleaved rounds so that the machine's load falls on all alike.
 */
async function previewRatio(world: BenchWorld, n: number, rounds: number, profileDir?: string, baseline?: string): Promise<void> {
  const stacks: [string, Stack][] = [];
  for (const [name, provider] of Object.entries(FLOORS))
    stacks.push([`floor (${name})`, await world.stack(`preview-floor-${name}-${n}`, FLOOR_PROGRAM(provider), { n: String(n) })]);
  stacks.push([`${n} GroupLabel`, await world.stack(`preview-labels-${n}`, FORGE_PROGRAM, { n: String(n), types: "GroupLabel" })]);
  if (baseline) {
    stacks.push([
      `${n} GroupLabel (baseline)`,
      await world.stack(
        `preview-labels-baseline-${n}`,
        FORGE_PROGRAM,
        { n: String(n), types: "GroupLabel", prefix: "bench-b" },
        {},
        baseline,
      ),
    ]);
  }
  for (const [, stack] of stacks) await stack.up({ color: "never", onOutput: () => {} });
  const times = new Map<string, number[]>(stacks.map(([label]) => [label, []]));
  for (let round = 0; round < rounds; round += 1) {
    const profiling = profileDir !== undefined && round === rounds - 1;
    for (const [label, stack] of round % 2 === 0 ? stacks : [...stacks].reverse()) {
      if (profiling) {
        const dir = join(profileDir, label.replace(/\W+/g, "-").replace(/-$/, ""));
        mkdirSync(dir, { recursive: true });
        // The engine ends its provider process with a signal, which would lose the profile:
        // the hook exits instead, and Node writes the profile on exit.
        const hook = join(dir, "exit-on-signal.js");
        writeFileSync(hook, `for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));\n`);
        (stack.workspace as LocalWorkspace).envVars["NODE_OPTIONS"] = `--cpu-prof --cpu-prof-dir=${dir} --require ${hook}`;
      }
      const started = performance.now();
      const result = await stack.preview({ color: "never", diff: false, onOutput: () => {} });
      times.get(label)!.push(performance.now() - started);
      if (profiling) delete (stack.workspace as LocalWorkspace).envVars["NODE_OPTIONS"];
      const changed = Object.entries(result.changeSummary).filter(([op]) => op !== "same");
      if (changed.length > 0) throw new Error(`${label}: the preview found changes: ${JSON.stringify(result.changeSummary)}`);
    }
  }
  for (const [, stack] of stacks) await stack.destroy({ color: "never", onOutput: () => {} });
  if (profileDir) {
    // The program and the provider process; the other profiles are the short `node -e` runs
    // that locate the provider's script.
    for (const file of files(profileDir)) if (statSync(file).size > 100_000) summarise(file, 15);
  }
  const medians = new Map([...times].map(([label, ms]) => [label, median(ms)]));
  const forge = medians.get(`${n} GroupLabel`)!;
  console.log(`\npreview with no change, N = ${n}, ${rounds} interleaved rounds (median; every round in brackets)`);
  for (const [label, ms] of times)
    console.log(`  ${label}: ${seconds(medians.get(label)!)} [${ms.map((each) => (each / 1000).toFixed(2)).join(", ")}]`);
  const ratios = (ms: number) =>
    Object.keys(FLOORS)
      .map((name) => `${(ms / medians.get(`floor (${name})`)!).toFixed(2)}x ${name}`)
      .join(", ");
  console.log(`preview ratio, ${n} group labels to ${n} no-op dynamic resources: ${ratios(forge)} (goal <= 1.2x methods)`);
  if (baseline) console.log(`  baseline (${baseline}): ${ratios(medians.get(`${n} GroupLabel (baseline)`)!)}`);
}

function report(n: number, floors: Record<string, Measured>, forge: Measured, baseline: Measured | undefined, rounds: number): void {
  const names = Object.keys(floors);
  console.log(`\nN = ${n}${rounds > 1 ? ` (median of ${rounds} interleaved rounds)` : ""}`);
  console.log(
    `| op | ${names.map((name) => `floor (${name})`).join(" | ")} | pulumi-forge | ${names.map((name) => `ratio to ${name}`).join(" | ")} | requests (per resource) | 429s |`,
  );
  console.log(`|---|${names.map(() => "---|").join("")}---|${names.map(() => "---|").join("")}---|---|`);
  for (const op of OPS) {
    console.log(
      `| ${op} | ${names.map((name) => seconds(floors[name]!.ms[op])).join(" | ")} | ${seconds(forge.ms[op])} | ` +
        `${names.map((name) => `${(forge.ms[op] / floors[name]!.ms[op]).toFixed(2)}x`).join(" | ")} | ` +
        `${forge.requests[op]} (${(forge.requests[op] / n).toFixed(2)}) | ${forge.throttled[op]} |`,
    );
  }
  if (baseline) {
    console.log(
      `baseline build: ` +
        OPS.map(
          (op) =>
            `${op} ${seconds(baseline.ms[op])} (${(forge.ms[op] / baseline.ms[op]).toFixed(2)}x this build to it; ${names.map((name) => `${(baseline.ms[op] / floors[name]!.ms[op]).toFixed(2)}x ${name}`).join(", ")})`,
        ).join("; "),
    );
  }
  console.log(
    `state bytes per resource (serialized provider, held in inputs and outputs): ` +
      [...names.map((name) => [`floor (${name})`, floors[name]!] as const), ["pulumi-forge", forge] as const]
        .map(([label, measured]) => `${label} ${Math.round(measured.stateBytesPerResource)} (${measured.providerBytes})`)
        .join(", "),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
