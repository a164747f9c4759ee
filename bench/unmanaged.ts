/**
 * `npm run bench:unmanaged`: the cost of `forge-drift --unmanaged` over a fleet of 20 stacks on
 * PostgreSQL state (a file backend when PostgreSQL's binaries are not here) and 5 groups of 200
 * labels each, with a project, members and an integration per group and broadcast messages on the
 * instance; each stack holds 40 labels of one group (so 200 labels are unmanaged). Measured in
 * the same run against the naive way, `forge-adopt --list` once per scope (each group, the
 * instance): requests the forge answered, 429s, seconds. Then once more with the emulator's rate
 * limit on (100 requests per 10 s, below what the run sends), to show that the client paces
 * itself on the forge's RateLimit-* headers instead of running into 429s.
 *
 * The stacks' states are written with `pulumi stack import` (the resources an `up` of the same
 * program would record): 800 creates would measure the provider, not this tool, which reads each
 * state with one `pulumi stack export` whatever made it.
 *
 * Not a test: it prints figures and asserts nothing.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { routes } from "../api/routes";
import { seedToken, startEmulator, type RunningEmulator } from "../emulator";
import { ForgeClient } from "../provider/client";
import { inTurns } from "../provider/engine/in-turns";
import { pluginToken } from "../provider/type-tokens";
import { cliProject, type CliProject } from "../test/e2e/cli-project";
import { REPO_ROOT } from "../test/support/pulumi-paths";
import { postgresBinaries, startPostgres, type RunningPostgres } from "../test/support/postgres";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const GROUPS = 5;
const LABELS_PER_GROUP = 200;
const STACKS = 20;
const HELD_PER_STACK = 40;
/** The rate limit of the last run: below what the run sends, so the client has to pace itself. */
const RATE_LIMIT = 100;
const RATE_WINDOW_S = 10;

interface Measured {
  ms: number;
  requests: number;
  limited: number;
  code: number;
}

/** Runs a bin with the forge's connection; what the forge answered meanwhile, from its request log. */
async function measure(emulator: RunningEmulator, project: CliProject, bin: string, args: string[]): Promise<Measured> {
  const last = async () => ((await (await emulator.admin("/requests/last")).json()) as { seq: number }).seq;
  const before = await last();
  const started = Date.now();
  const code = await new Promise<number>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        env: { ...project.env, FORGE_BASE_URL: emulator.url, FORGE_TOKEN: seedToken("root") },
        cwd: project.work,
        maxBuffer: 256 * 1024 * 1024,
      },
      (error, _stdout, stderr) => {
        // 4 is forge-drift --unmanaged's "found something": what the fleet is made to find.
        if (error && error.code !== 4) console.error(`${args.join(" ")}: ${stderr.trim().split("\n").slice(-25).join("\n")}`);
        resolve(error ? (typeof error.code === "number" ? error.code : -1) : 0);
      },
    );
  });
  const ms = Date.now() - started;
  const log = (await (await emulator.admin(`/requests?since=${before}`)).json()) as { status: number }[];
  return { ms, requests: log.length, limited: log.filter((request) => request.status === 429).length, code };
}

function sum(runs: Measured[]): Measured {
  return runs.reduce(
    (total, run) => ({
      ms: total.ms + run.ms,
      requests: total.requests + run.requests,
      limited: total.limited + run.limited,
      code: Math.max(total.code, run.code),
    }),
    { ms: 0, requests: 0, limited: 0, code: 0 },
  );
}

/** The forge: groups, each with a project, 200 labels, two members and an integration; messages on the instance. Returns each group's label ids. */
async function fillForge(emulator: RunningEmulator): Promise<number[][]> {
  const api = new ForgeClient({ baseUrl: emulator.url, token: seedToken("root") });
  const olivia = new ForgeClient({ baseUrl: emulator.url, token: seedToken("olivia") });
  const labels: number[][] = [];
  for (let group = 0; group < GROUPS; group++) {
    const path = `team-${group}`;
    // The emulator's admin endpoints (made out of band, as in the UI), not API routes.
    await emulator.admin("groups", { method: "POST", json: { path } });
    await emulator.admin("projects", { method: "POST", json: { path: "app", namespace: path, creator: "olivia" } });
    labels.push(
      await inTurns(
        Array.from({ length: LABELS_PER_GROUP }, (_, index) => index),
        8,
        async (index) =>
          (await api.request<{ id: number }>(routes.groupLabels.create, { group: path, name: `label-${index}`, color: "#FF0000" })).body.id,
      ),
    );
    for (const username of ["dev", "max"]) {
      const user = (await api.request<{ id: number }[]>(routes.users.list, { username })).body[0]!;
      await olivia.request(routes.projectMembers.create, { project: `${path}/app`, user_id: user.id, access_level: 30 });
    }
    await api.request(routes.groupIntegrations.bySlug["emails-on-push"].set, { group: path, recipients: `${path}@example.com` });
  }
  for (let index = 0; index < 5; index++) await api.request(routes.broadcastMessages.create, { message: `Notice ${index}` });
  return labels;
}

/** A state as an `up` of `labels` would record it, for `pulumi stack import`. */
function deployment(project: string, stack: string, group: string, labels: number[]): string {
  const urn = (type: string, name: string) => `urn:pulumi:${stack}::${project}::${type}::${name}`;
  const stackUrn = urn("pulumi:pulumi:Stack", `${project}-${stack}`);
  const provider = urn("pulumi:providers:forge", "default");
  const providerId = "00000000-0000-4000-8000-000000000000";
  const type = pluginToken("GroupLabel");
  return JSON.stringify({
    version: 3,
    deployment: {
      manifest: { time: new Date().toISOString(), magic: "", version: "" },
      resources: [
        { urn: stackUrn, custom: false, type: "pulumi:pulumi:Stack" },
        { urn: provider, custom: true, id: providerId, type: "pulumi:providers:forge", parent: stackUrn, inputs: {}, outputs: {} },
        ...labels.map((id) => {
          const inputs = { group, name: `label-${id}`, color: "#FF0000" };
          return {
            urn: urn(type, `label-${id}`),
            custom: true,
            id: `${group}:${id}`,
            type,
            parent: stackUrn,
            provider: `${provider}::${providerId}`,
            inputs,
            outputs: { ...inputs, labelId: id },
          };
        }),
      ],
    },
  });
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  let postgres: RunningPostgres | undefined;
  if (!("missing" in postgresBinaries())) postgres = await startPostgres();
  const project = await cliProject({
    name: "bench-unmanaged",
    from: { "Pulumi.yaml": "name: bench-unmanaged\nruntime: yaml\n" },
    ...(postgres ? { backend: { url: postgres.url, env: { PGPASSWORD: postgres.password } } } : {}),
  });
  try {
    const labels = await fillForge(emulator);
    const stacks = Array.from({ length: STACKS }, (_, index) => `s${index}`);
    await inTurns(stacks, 4, async (stack, index) => {
      const group = index % GROUPS;
      const slot = Math.floor(index / GROUPS);
      const file = join(project.work, `${stack}.json`);
      writeFileSync(
        file,
        deployment("bench-unmanaged", stack, `team-${group}`, labels[group]!.slice(slot * HELD_PER_STACK, (slot + 1) * HELD_PER_STACK)),
      );
      if (stack !== "test") await project.ok(["stack", "init", stack]);
      await project.ok(["stack", "import", "--stack", stack, "--file", file]);
    });
    const fleet = join(project.work, "fleet.yaml");
    writeFileSync(fleet, `stacks:\n${stacks.map((stack) => `  - { stack: ${stack}, cwd: ${JSON.stringify(project.dir)} }\n`).join("")}`);
    const groups = Array.from({ length: GROUPS }, (_, index) => ["--group", `team-${index}`]);

    const fleetRun = () =>
      measure(emulator, project, DRIFT_BIN, ["--unmanaged", "--stacks-file", fleet, ...groups.flat(), "--instance", "--format", "json"]);
    const perScope = async () =>
      sum([
        ...(await inTurns(groups, 1, (group) => measure(emulator, project, ADOPT_BIN, [...group, "--list"]))),
        await measure(emulator, project, ADOPT_BIN, ["--instance", "--list"]),
      ]);
    const row = (what: string, run: Measured) =>
      `| ${what} | ${run.requests} | ${run.limited} | ${(run.ms / 1000).toFixed(1)} s | ${run.code} |`;
    console.log(
      `${STACKS} stacks (${postgres ? "PostgreSQL" : "file"} backend), ${GROUPS} groups of ${LABELS_PER_GROUP} labels, each stack holding ${HELD_PER_STACK}; ${process.platform} ${process.arch}`,
    );
    console.log("| run | requests | 429 | seconds | exit |\n|---|---|---|---|---|");
    console.log(row("`forge-drift --unmanaged` (5 groups and the instance, 20 stacks)", await fleetRun()));
    console.log(row("`forge-adopt --list`, once per scope (6 runs, summed)", await perScope()));
    await emulator.admin("/rate-limit", { method: "PUT", json: { limit: RATE_LIMIT, window_s: RATE_WINDOW_S } });
    console.log(
      row(`\`forge-drift --unmanaged\`, the forge's rate limit at ${RATE_LIMIT} requests per ${RATE_WINDOW_S} s`, await fleetRun()),
    );
  } finally {
    project.close();
    postgres?.stop();
    await emulator.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
