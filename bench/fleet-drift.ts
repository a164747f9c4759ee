/**
 * `npm run bench:fleet [-- <stacks> ...]` (default 50): `forge-drift --stacks-file` over a fleet
 * of one-label stacks of one project on a file backend, half of them on the dynamic classes and
 * half on the plugin (from TypeScript), one of them drifted. Measured in the same run: the check
 * from the exported states (the default) and the refresh per stack (`--per-stack-refresh`, what
 * forge-drift did before), each with its requests to the forge and whether both found the same;
 * the refresh per stack only up to FLEET_BEFORE_MAX stacks (default 50: beyond, it takes tens of
 * minutes and is left out, and said so).
 *
 * The fleet is made fast: two template stacks (one per face) are deployed by `pulumi up`, and
 * every other stack is its template's state and settings with its own label, made by the engine's
 * own check and create (what `up` would record), written where the file backend keeps stacks.
 *
 * Not a test: it prints figures and asserts nothing.
 */
import { execFile } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedToken, startEmulator, type RunningEmulator } from "../emulator";
import { clientFor } from "../provider/client";
import { operationsOver } from "../provider/composition-root";
import { cliProject, PLUGIN_DIR, type CliProject } from "../test/e2e/cli-project";
import { REPO_ROOT } from "../test/support/pulumi-paths";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const FACES = ["dynamic", "plugin"] as const;
const BEFORE_MAX = Number(process.env["FLEET_BEFORE_MAX"] ?? 50);

interface Run {
  code: number;
  ms: number;
  /** CPU seconds of forge-drift and every process it started (user + system). */
  cpu: number;
  requests: number;
  answers: string;
}

async function requestCount(emulator: RunningEmulator): Promise<number> {
  return ((await (await emulator.admin("/requests")).json()) as unknown[]).length;
}

async function drift(project: CliProject, emulator: RunningEmulator, args: string[]): Promise<Run> {
  const before = await requestCount(emulator);
  const started = Date.now();
  // bash's `time` counts the CPU of every process the run waited for: the CLIs and plugins it started.
  const command = `TIMEFORMAT='cpu %U %S'; time ${[process.execPath, DRIFT_BIN, ...args].map((arg) => `'${arg}'`).join(" ")}`;
  const { code, stdout, cpu } = await new Promise<{ code: number; stdout: string; cpu: number }>((resolve) => {
    execFile("bash", ["-c", command], { env: project.env, cwd: project.dir, maxBuffer: 256 * 1024 * 1024 }, (error, out, err) => {
      const [user, system] = (/cpu ([\d.]+) ([\d.]+)/.exec(err) ?? []).slice(1).map(Number);
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout: out, cpu: (user ?? NaN) + (system ?? NaN) });
    });
  });
  const ms = Date.now() - started;
  const report = JSON.parse(stdout) as { summary: unknown; stacks: { durationMs?: number }[] };
  // What was found, without the times.
  const answers = JSON.stringify({ summary: report.summary, stacks: report.stacks.map(({ durationMs: _, ...entry }) => entry) });
  return { code, ms, cpu, requests: (await requestCount(emulator)) - before, answers };
}

/** Writes stack `name` as a copy of the template stack of `face` holding its own label (made on the forge here). */
async function copyStack(
  project: CliProject,
  emulator: RunningEmulator,
  face: (typeof FACES)[number],
  name: string,
  stacksDir: string,
): Promise<void> {
  const template = `tpl-${face}`;
  const text = readFileSync(join(stacksDir, `${template}.json`), "utf8").replaceAll(template, name);
  const checkpoint = JSON.parse(text) as {
    checkpoint: {
      latest: { resources: { type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[] };
    };
  };
  const label = checkpoint.checkpoint.latest.resources.find((resource) => resource.type.endsWith(":GroupLabel"))!;
  const operations = operationsOver("GroupLabel", clientFor({ baseUrl: emulator.url, token: seedToken("root") }), () => undefined);
  const dynamic = face === "dynamic" ? { __provider: label.outputs!["__provider"] } : {};
  const checked = await operations.check({}, { group: "acme", name: label.inputs!["name"], color: "#FF0000" });
  const made = await operations.create(checked.inputs);
  label.id = made.id;
  label.inputs = { ...checked.inputs, ...dynamic };
  label.outputs = { ...made.outs, ...dynamic };
  writeFileSync(join(stacksDir, `${name}.json`), JSON.stringify(checkpoint));
  cpSync(join(project.dir, `Pulumi.${template}.yaml`), join(project.dir, `Pulumi.${name}.yaml`));
}

async function fleet(size: number, emulator: RunningEmulator): Promise<string> {
  const stacks = Array.from({ length: size }, (_, index) => `s${index}`);
  const project = await cliProject({
    name: `bench-fleet-${size}`,
    nodeModules: true,
    from: {
      "Pulumi.yaml": `name: bench-fleet-${size}\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
      "index.js": `const pulumi = require("@pulumi/pulumi");\nconst config = new pulumi.Config();\nconst forge = require(config.require("face") === "plugin" ? "pulumi-forge/plugin" : "pulumi-forge");\nnew forge.GroupLabel("team", { group: "acme", name: "bench-${size}-" + pulumi.getStack(), color: "#FF0000" });\n`,
    },
  });
  try {
    for (const face of FACES) {
      await project.ok(["stack", "init", `tpl-${face}`]);
      await project.ok([
        "config",
        "set-all",
        "--stack",
        `tpl-${face}`,
        "--plaintext",
        `forge:baseUrl=${emulator.url}`,
        "--secret",
        `forge:token=${seedToken("root")}`,
        "--plaintext",
        `face=${face}`,
      ]);
      await project.ok(["up", "--yes", "--skip-preview", "--stack", `tpl-${face}`]);
    }
    const stacksDir = join(project.work, "backend", ".pulumi", "stacks", `bench-fleet-${size}`);
    if (!readdirSync(stacksDir).includes("tpl-plugin.json")) throw new Error(`no template state in ${stacksDir}`);
    for (const [index, stack] of stacks.entries()) await copyStack(project, emulator, FACES[index % 2]!, stack, stacksDir);
    // One stack drifts: its label's colour changed by hand.
    const labels = (await (
      await fetch(`${emulator.url}/api/v4/groups/acme/labels?per_page=100&search=bench-${size}-s1`, {
        headers: { "PRIVATE-TOKEN": seedToken("root") },
      })
    ).json()) as { id: number; name: string }[];
    const id = labels.find((label) => label.name === `bench-${size}-s1`)!.id;
    await fetch(`${emulator.url}/api/v4/groups/acme/labels/${id}`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": seedToken("root"), "content-type": "application/json" },
      body: JSON.stringify({ color: "#00FF00" }),
    });

    const file = join(project.work, "fleet.yaml");
    writeFileSync(file, `stacks:\n${stacks.map((stack) => `  - { stack: ${stack}, cwd: ${JSON.stringify(project.dir)} }\n`).join("")}`);
    const after = await drift(project, emulator, ["--stacks-file", file, "--format", "json"]);
    const before =
      size <= BEFORE_MAX ? await drift(project, emulator, ["--stacks-file", file, "--format", "json", "--per-stack-refresh"]) : undefined;
    const cell = (run: Run) => `${(run.ms / 1000).toFixed(1)} s, ${run.cpu.toFixed(0)} s CPU (exit ${run.code}, ${run.requests} requests)`;
    return `| ${size} | ${before ? cell(before) : `not run (over FLEET_BEFORE_MAX=${BEFORE_MAX})`} | ${cell(after)} | ${before ? (after.ms / before.ms).toFixed(2) : "-"} | ${before ? (before.answers === after.answers ? "yes" : "NO") : "-"} |`;
  } finally {
    project.close();
  }
}

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((size) => size > 0);
  const emulator = await startEmulator({ port: 0 });
  try {
    console.log(
      "forge-drift --stacks-file over one-label stacks (half dynamic classes, half plugin), file backend, concurrency 4, one stack drifted",
    );
    console.log(
      "| stacks | --per-stack-refresh (before) | from the exported states (after) | after / before | same answers |\n|---|---|---|---|---|",
    );
    for (const size of sizes.length > 0 ? sizes : [50]) console.log(await fleet(size, emulator));
  } finally {
    await emulator.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
