/**
 * `npm run bench:fleet [-- <stacks> ...]`: forge-drift over a fleet of small stacks (one label
 * each, one project, on PostgreSQL state when the binaries are here, else a file backend), one of
 * them drifted: N separate `forge-drift --stack` calls, one after another as a shell loop runs
 * them, against one `forge-drift --stacks-file` call, measured in the same run; prints both and
 * their ratio. The separate calls are measured for fleets up to 20 stacks (beyond, their sum is
 * estimated from the per-call mean of the first 10, and said so).
 *
 * Not a test: it prints figures and asserts nothing.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedToken, startEmulator } from "../emulator";
import { cliProject, type CliProject } from "../test/e2e/cli-project";
import { REPO_ROOT } from "../test/support/pulumi-paths";
import { postgresBinaries, startPostgres, type RunningPostgres } from "../test/support/postgres";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");

function drift(project: CliProject, args: string[]): Promise<{ code: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [DRIFT_BIN, ...args], { env: project.env, cwd: project.dir, maxBuffer: 64 * 1024 * 1024 }, (error) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, ms: Date.now() - started }),
    );
  });
}

async function fleet(size: number, backend: { url: string; env: Record<string, string> } | undefined, emulatorUrl: string): Promise<string> {
  const stacks = Array.from({ length: size }, (_, index) => `s${index}`);
  const project = await cliProject({
    name: `bench-fleet-${size}`,
    nodeModules: true,
    from: {
      "Pulumi.yaml": `name: bench-fleet-${size}\nruntime: nodejs\n`,
      "index.js": `const pulumi = require("@pulumi/pulumi");\nconst forge = require("pulumi-forge");\nnew forge.GroupLabel("team", { group: "acme", name: new pulumi.Config().require("label"), color: "#FF0000" });\n`,
    },
    ...(backend ? { backend } : {}),
  });
  try {
    for (const stack of stacks) {
      await project.ok(["stack", "init", stack]);
      await project.ok(["config", "set", "--stack", stack, "forge:baseUrl", emulatorUrl]);
      await project.ok(["config", "set", "--stack", stack, "--secret", "forge:token", seedToken("root")]);
      await project.ok(["config", "set", "--stack", stack, "label", `bench-${size}-${stack}`]);
    }
    for (let index = 0; index < stacks.length; index += 2) {
      await Promise.all(stacks.slice(index, index + 2).map((stack) => project.ok(["up", "--yes", "--skip-preview", "--stack", stack])));
    }
    // One stack drifts: its label's colour changed by hand.
    const labels = (await (await fetch(`${emulatorUrl}/api/v4/groups/acme/labels?per_page=100&search=bench-${size}-s1`, { headers: { "PRIVATE-TOKEN": seedToken("root") } })).json()) as { id: number; name: string }[];
    const id = labels.find((label) => label.name === `bench-${size}-s1`)!.id;
    await fetch(`${emulatorUrl}/api/v4/groups/acme/labels/${id}`, { method: "PUT", headers: { "PRIVATE-TOKEN": seedToken("root"), "content-type": "application/json" }, body: JSON.stringify({ color: "#00FF00" }) });

    const file = join(project.work, "fleet.yaml");
    writeFileSync(file, `stacks:\n${stacks.map((stack) => `  - { stack: ${stack}, cwd: ${JSON.stringify(project.dir)} }\n`).join("")}`);
    const one = await drift(project, ["--stacks-file", file, "--format", "json"]);
    const measured = Math.min(size, size <= 20 ? size : 10);
    let separate = 0;
    for (const stack of stacks.slice(0, measured)) separate += (await drift(project, ["--stack", stack])).ms;
    const sum = (separate / measured) * size;
    const estimated = measured < size ? ` (estimated from ${measured} calls)` : "";
    return `| ${size} | ${(sum / 1000).toFixed(1)} s${estimated} | ${(one.ms / 1000).toFixed(1)} s (exit ${one.code}) | ${(one.ms / sum).toFixed(2)} |`;
  } finally {
    for (const stack of stacks) await project.run(["destroy", "--yes", "--skip-preview", "--stack", stack]);
    project.close();
  }
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((size) => size > 0);
  const emulator = await startEmulator({ port: 0 });
  let postgres: RunningPostgres | undefined;
  if (!("missing" in postgresBinaries())) postgres = await startPostgres();
  try {
    const backend = postgres ? { url: postgres.url, env: { PGPASSWORD: postgres.password } } : undefined;
    console.log(`forge-drift over a fleet of one-label stacks, ${postgres ? "PostgreSQL" : "file"} backend, concurrency 4, one stack drifted`);
    console.log("| stacks | separate calls, one after another | one fleet call | ratio |\n|---|---|---|---|");
    for (const size of sizes.length > 0 ? sizes : [10]) console.log(await fleet(size, backend, emulator.url));
  } finally {
    postgres?.stop();
    await emulator.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
