/**
 * `forge-drift` over a fleet: the stack list (repeated --stack, a fleet file), one forge check
 * per forge, the report and the run's exit status; then, with the real CLI, six stacks of one
 * project on shared PostgreSQL state (a throwaway server, as the tests start the emulator), one
 * of them drifted, checked in one call; and a stack whose forge cannot be reached, reported
 * without a refresh. The backend URL carries its password as a query parameter, as libpq takes
 * it: no report (JSON, markdown, text), no single-stack drift and no forge-recover prints it.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshFailure } from "../../cli/drift";
import {
  fleetExit,
  proxied,
  formatFleet,
  readFleetFile,
  tcpReachable,
  timeoutMessage,
  uniqueStacks,
  type FleetReport,
  type StackResult,
} from "../../cli/fleet";
import { endSession, sessionMembers } from "../../cli/process-session";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";
import { postgresBinaries, startPostgres, type RunningPostgres } from "../support/postgres";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const RECOVER_BIN = join(REPO_ROOT, "dist", "cli", "forge-recover.js");

describe("the fleet's parts", () => {
  const dir = mkdtempSync(join(tmpdir(), "forge-fleet-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a fleet file (YAML or JSON; cwd relative to the file, default its directory) and refuses an entry without a stack", () => {
    writeFileSync(
      join(dir, "fleet.yaml"),
      "stacks:\n  - stack: prod\n    cwd: infra/prod\n  - stack: dev\n  - { stack: abs, cwd: /srv/x }\n",
    );
    expect(readFleetFile(join(dir, "fleet.yaml"))).toEqual([
      { stack: "prod", workDir: join(dir, "infra", "prod") },
      { stack: "dev", workDir: dir },
      { stack: "abs", workDir: "/srv/x" },
    ]);
    writeFileSync(join(dir, "fleet.json"), JSON.stringify([{ stack: "a" }]));
    expect(readFleetFile(join(dir, "fleet.json"))).toEqual([{ stack: "a", workDir: dir }]);
    writeFileSync(join(dir, "bad.yaml"), "- cwd: x\n");
    expect(() => readFleetFile(join(dir, "bad.yaml"))).toThrow("bad.yaml: entry 1 has no stack name");
  });

  it("knows a stack that reaches its forge through a proxy (its settings, FORGE_*, or the variables undici honours), whose forge it does not try directly", () => {
    writeFileSync(
      join(dir, "Pulumi.behind.yaml"),
      "config:\n  forge:baseUrl: https://behind.example\n  forge:httpsProxy: http://proxy.internal:3128\n",
    );
    expect(proxied({ stack: "behind", workDir: dir }, {})).toBe(true);
    expect(proxied({ stack: "prod", workDir: dir }, {})).toBe(false);
    expect(proxied({ stack: "prod", workDir: dir }, { FORGE_HTTPS_PROXY: "http://p:1" })).toBe(true);
    expect(proxied({ stack: "prod", workDir: dir }, { HTTPS_PROXY: "http://p:1" })).toBe(true);
  });

  it("says why a forge cannot be reached", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    expect(await tcpReachable(`http://127.0.0.1:${port}`)).toContain("ECONNREFUSED");
    expect(await tcpReachable("not a url")).toBe("not a url is not a URL");
  });

  it("reports a failed refresh by the CLI's own lines, a backend URL's password masked", () => {
    const error = new Error(
      "Command failed with exit code 255: pulumi refresh ...\nstderr: error: could not connect to postgres://team:s3cr3t@db.internal:5432/pulumi?sslmode=require&password=s3cr3t\n\n  retrying\n",
    );
    expect(refreshFailure(error, 12)).toBe(
      "error: could not connect to postgres://team:[secret]@db.internal:5432/pulumi?sslmode=require&password=[secret]\n  retrying",
    );
    expect(refreshFailure(error, 1)).not.toContain("s3cr3t");
  });

  const entry = (stack: string, status: StackResult["status"], message?: string): StackResult => ({
    stack,
    workDir: `/p/${stack}`,
    status,
    durationMs: 1200,
    drifted:
      status === "drift"
        ? [
            {
              name: "bug",
              type: "forge:index:GroupLabel",
              urn: "u",
              drift: "changed",
              fields: [{ field: "color", program: "#FF0000", forge: "#00FF00" }],
            },
          ]
        : [],
    ...(message ? { message } : {}),
  });
  const report = (...stacks: StackResult[]): FleetReport => {
    const summary = { stacks: stacks.length, clean: 0, drift: 0, error: 0, locked: 0, timeout: 0 };
    for (const stack of stacks) summary[stack.status] += 1;
    return { generatedAt: "2026-11-25T08:00:00.000Z", tool: { name: "forge-drift", version: "1.2.3" }, durationMs: 5000, summary, stacks };
  };

  it("checks a stack named twice (same name, same directory, links resolved) once, in the order first given", () => {
    const named = [
      { stack: "a", workDir: dir },
      { stack: "b", workDir: dir },
      { stack: "a", workDir: join(dir, ".") },
      { stack: "a", workDir: join(dir, "other") },
      { stack: "b", workDir: `${dir}/` },
    ];
    expect(uniqueStacks(named)).toEqual({ stacks: [named[0], named[1], named[3]], repeated: [named[2], named[4]] });
  });

  it.skipIf(process.platform !== "linux")(
    "ends every process of a session, those in groups of their own and those that ignore SIGTERM too, and nothing else",
    async () => {
      // A leader whose children are in process groups of their own (job control), one of them deaf to SIGTERM, as a CLI's plugins are.
      const leader = spawn("bash", ["-c", 'set -m; (trap "" TERM; exec sleep 300) & sleep 300 & wait'], {
        detached: true,
        stdio: "ignore",
      });
      const bystander = spawn("sleep", ["300"], { stdio: "ignore" });
      try {
        const start = Date.now();
        while (sessionMembers(leader.pid!).length < 3 && Date.now() - start < 10_000) await sleep(50);
        const members = sessionMembers(leader.pid!);
        expect(members).toHaveLength(3);
        expect(
          new Set(members.map((pid) => readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[4])).size,
          "process groups",
        ).toBeGreaterThan(1);
        const ended = await endSession(leader.pid!, 500);
        expect(ended.pids.sort()).toEqual(members.sort());
        expect(ended.killed).toHaveLength(1);
        expect(sessionMembers(leader.pid!)).toEqual([]);
        expect(bystander.exitCode).toBeNull();
      } finally {
        bystander.kill("SIGKILL");
      }
    },
  );

  it("says of a timed-out stack what was ended, and whether it left the lock, with the command that releases it", () => {
    const target = { stack: "prod", workDir: "/p/prod" };
    const ended = { pids: [101, 102, 103], killed: [103] };
    const head =
      "timed out after 8 s (--timeout), drift not checked: its 3 processes were ended (SIGTERM; SIGKILL for 1 still running after 3 s)";
    expect(timeoutMessage(target, 8000, ended, { state: "free" })).toBe(`${head}; it left no lock on the stack`);
    // Another run's lock is not this check's.
    expect(
      timeoutMessage(target, 8000, ended, {
        state: "held",
        holders: [
          { pid: 101, host: "elsewhere" },
          { pid: 999, host: hostname() },
        ],
      }),
    ).toBe(`${head}; it left no lock on the stack`);
    expect(
      timeoutMessage(target, 8000, ended, {
        state: "held",
        holders: [{ pid: 101, host: hostname(), location: "/b/.pulumi/locks/organization/p/prod/u.json" }],
      }),
    ).toBe(
      `${head}; it left the stack's lock (/b/.pulumi/locks/organization/p/prod/u.json), and nothing of it runs any more: release it with \`pulumi cancel --yes --stack prod\` in /p/prod`,
    );
    expect(timeoutMessage(target, 8000, { pids: [7], killed: [] }, { state: "unknown", why: "a cloud backend" })).toBe(
      "timed out after 8 s (--timeout), drift not checked: its process was ended (SIGTERM); whether it left the stack's lock could not be checked (a cloud backend): if one was left, `pulumi cancel --yes --stack prod` in /p/prod releases it",
    );
  });

  it("exits 1 when a stack could not be checked, else 2 on drift, else 3 when one was locked, else 0", () => {
    expect(fleetExit(report(entry("a", "clean"), entry("b", "drift"), entry("c", "error", "boom"), entry("d", "locked", "held")))).toBe(1);
    expect(fleetExit(report(entry("a", "clean"), entry("b", "drift"), entry("c", "timeout", "timed out")))).toBe(1);
    expect(fleetExit(report(entry("a", "clean"), entry("b", "drift"), entry("d", "locked", "held")))).toBe(2);
    expect(fleetExit(report(entry("a", "clean"), entry("d", "locked", "held")))).toBe(3);
    expect(fleetExit(report(entry("a", "clean")))).toBe(0);
  });

  it("writes a markdown table with each drifted stack's details, and text for a log", () => {
    const fleet = report(entry("prod", "drift"), entry("dev", "clean"), entry("old", "error", "the forge x cannot be reached | really"));
    const markdown = formatFleet(fleet, "markdown");
    expect(markdown).toContain("## Drift over 3 stacks: 1 drifted, 1 clean, 1 failed, 0 locked (5.0 s)");
    expect(markdown).toContain("| `prod` | `/p/prod` | drift | `bug` | 1.2 s |");
    expect(markdown).toContain("| `old` | `/p/old` | error | `the forge x cannot be reached \\| really` | 1.2 s |");
    // A stack's name or a message is inline code: a link, a mention, a heading in it stay text.
    const hostile = formatFleet(
      report(entry("[x](https://evil.example) @all", "error", "# boom ![i](https://evil.example/i.png)")),
      "markdown",
    );
    expect(hostile).toContain(
      "| `[x](https://evil.example) @all` | `/p/[x](https://evil.example) @all` | error | `# boom ![i](https://evil.example/i.png)` |",
    );
    expect(markdown).toContain("### Drift in stack `prod`: 1 resource");
    expect(markdown).toContain("_forge-drift 1.2.3, 2026-11-25T08:00:00.000Z_");
    const text = formatFleet(fleet, "text");
    expect(text).toMatch(/^ {2}prod {2}drift +1\.2 s {2}1 resource$/m);
    expect(text).toContain('    color: program "#FF0000", forge "#00FF00"');
    expect(JSON.parse(formatFleet(fleet, "json"))).toEqual(fleet);
    const late = formatFleet(report(entry("prod", "clean"), entry("old", "timeout", "timed out after 8 s")), "text");
    expect(late).toContain("2 stacks: 0 drifted, 1 clean, 0 failed, 0 locked, 1 timed out (5.0 s)");
    expect(late).toMatch(/^ {2}prod {2}clean {6}1\.2 s {2}$/m);
    expect(late).toMatch(/^ {2}old {3}timeout {4}1\.2 s {2}timed out after 8 s$/m);
    // Two `prod` stacks of two projects, told apart by project in a log as in markdown and JSON.
    const twoProds = formatFleet(
      report({ ...entry("prod", "drift"), project: "web" }, { ...entry("prod", "clean"), project: "api" }),
      "text",
    );
    expect(twoProds).toMatch(/^ {2}web\/prod {2}drift +1\.2 s {2}1 resource$/m);
    expect(twoProds).toMatch(/^ {2}api\/prod {2}clean +1\.2 s {2}$/m);
    expect(twoProds).toContain("Drift in stack web/prod");
  });
});

const pgMissing = "missing" in postgresBinaries() ? (postgresBinaries() as { missing: string }).missing : undefined;
if (pgMissing && !skipEngineTests()) console.warn(`fleet.test.ts: the PostgreSQL fleet is skipped: ${pgMissing}`);

describe.skipIf(skipEngineTests() || pgMissing !== undefined)("forge-drift over six stacks on PostgreSQL state", () => {
  // More stacks than the check's concurrency (4 below), so some wait their turn: more would each
  // show again what one clean stack shows, at an `up` each.
  const STACKS = Array.from({ length: 6 }, (_, index) => `team-${index}`);
  let emulator: RunningEmulator;
  let postgres: RunningPostgres;
  let project: CliProject;

  /** Runs one of the package's bins; what it printed must never hold the backend's password. */
  const bin = (path: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [path, ...args],
        { env: project.env, cwd: project.dir, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    }).then((run) => {
      expect(`${run.stdout}\n${run.stderr}`, "the backend's password in the output").not.toContain(postgres.password);
      return run;
    });
  const drift = (...args: string[]) => bin(DRIFT_BIN, ...args);

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    postgres = await startPostgres();
    // One project, one stack per team (its own label), on the shared PostgreSQL state.
    project = await cliProject({
      name: "fleet",
      nodeModules: true,
      from: {
        "Pulumi.yaml": "name: forge-fleet\nruntime: nodejs\n",
        "index.js": `const pulumi = require("@pulumi/pulumi");\nconst forge = require("pulumi-forge");\nnew forge.GroupLabel("team", { group: "acme", name: new pulumi.Config().require("label"), color: "#FF0000" });\n`,
      },
      backend: { url: `${postgres.url}&password=${encodeURIComponent(postgres.password)}` },
    });
    for (const stack of STACKS) {
      if (stack !== "test") await project.ok(["stack", "init", stack]);
      await project.ok([
        "config",
        "set-all",
        "--stack",
        stack,
        "--plaintext",
        `forge:baseUrl=${emulator.url}`,
        "--secret",
        `forge:token=${seedToken("root")}`,
        "--plaintext",
        `label=fleet-${stack}`,
      ]);
    }
    for (let index = 0; index < STACKS.length; index += 2) {
      await Promise.all(STACKS.slice(index, index + 2).map((stack) => project.ok(["up", "--yes", "--skip-preview", "--stack", stack])));
    }
  }, 600_000);
  afterAll(async () => {
    project?.close();
    postgres?.stop();
    await emulator?.close();
  });

  it("one call reports the one drifted stack, exits 2, and writes no state", async () => {
    const labels = (await (
      await fetch(`${emulator.url}/api/v4/groups/acme/labels?per_page=100`, { headers: { "PRIVATE-TOKEN": seedToken("root") } })
    ).json()) as { id: number; name: string }[];
    const drifted = labels.find((label) => label.name === "fleet-team-4")!;
    await fetch(`${emulator.url}/api/v4/groups/acme/labels/${drifted.id}`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": seedToken("root"), "content-type": "application/json" },
      body: JSON.stringify({ color: "#00FF00" }),
    });
    writeFileSync(
      join(project.work, "fleet.yaml"),
      `stacks:\n${STACKS.map((stack) => `  - stack: ${stack}\n    cwd: ${project.dir}\n`).join("")}`,
    );
    const before = await project.run(["stack", "export", "--stack", "team-4"]);

    const run = await drift("--stacks-file", join(project.work, "fleet.yaml"), "--format", "json", "--concurrency", "4");
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    const report = JSON.parse(run.stdout) as FleetReport;
    expect(report.summary).toEqual({ stacks: 6, clean: 5, drift: 1, error: 0, locked: 0, timeout: 0 });
    expect(report.stacks.map((entry) => entry.stack)).toEqual(STACKS);
    const four = report.stacks.find((entry) => entry.stack === "team-4")!;
    expect(four.status).toBe("drift");
    expect(four.drifted).toEqual([
      expect.objectContaining({ name: "team", drift: "changed", fields: [{ field: "color", program: "#FF0000", forge: "#00FF00" }] }),
    ]);
    expect(report.tool.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(report.generatedAt)).not.toBeNaN();
    expect((await project.run(["stack", "export", "--stack", "team-4"])).stdout).toBe(before.stdout);
  }, 300_000);

  it("two racing ups of one stack: one applies, the other fails on the lock and changes nothing; a fleet drift check meanwhile reads the stack as locked; refresh and destroy work", async () => {
    // The first up's write is held until the faults are cleared below, and so is the lock; its
    // client waits for the answer that long (no timeout and retry meanwhile).
    await project.ok([
      "config",
      "set-all",
      "--stack",
      "team-3",
      "--plaintext",
      "label=fleet-team-3-renamed",
      "--plaintext",
      "forge:timeoutMs=300000",
    ]);
    expect(
      (
        await emulator.admin("/faults", {
          method: "POST",
          json: { method: "PUT", path: "^/groups/[^/]+/labels/", latencyMs: 240_000, times: 1 },
        })
      ).status,
    ).toBeLessThan(300);
    const first = project.run(["up", "--yes", "--skip-preview", "--stack", "team-3"]);
    const started = Date.now();
    const held = async () => ((await (await emulator.admin("/faults")).json()) as { held: number }).held > 0;
    while (!(await held()) && Date.now() - started < 120_000) await new Promise((done) => setTimeout(done, 100));
    expect(await held(), "the first up's write was never sent").toBe(true);
    const [second, checked] = await Promise.all([
      project.run(["up", "--yes", "--skip-preview", "--stack", "team-3"]),
      drift("--stack", "team-0", "--stack", "team-3", "--format", "json"),
    ]);
    expect(second.code).not.toBe(0);
    expect(second.output).toMatch(/locked by .*|currently locked/i);
    // The fleet reads nothing of the locked stack, says who holds it, and exits 3.
    expect(checked.code, `${checked.stdout}\n${checked.stderr}`).toBe(3);
    const fleet = JSON.parse(checked.stdout) as FleetReport;
    expect(fleet.stacks.map((entry) => [entry.stack, entry.status])).toEqual([
      ["team-0", "clean"],
      ["team-3", "locked"],
    ]);
    expect(fleet.stacks[1]?.message).toMatch(/stack team-3 is locked by a running operation/);
    expect(fleet.stacks[1]?.message).toMatch(
      /lock: postgres:\/\/forge@127\.0\.0\.1:\d+\/pulumi\?sslmode=disable&password=\[secret\] \(table/,
    );
    // One stack alone and forge-recover say who holds it, where, the password masked: nothing read.
    const [alone, recover] = await Promise.all([drift("--stack", "team-3", "--format", "text"), bin(RECOVER_BIN, "--stack", "team-3")]);
    for (const run of [alone, recover]) {
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
      expect(run.stderr).toContain("password=[secret]");
    }
    await emulator.admin("/faults", { method: "DELETE" });
    const done = await first;
    expect(done.code, done.output).toBe(0);
    const names = async () =>
      (
        (await (
          await fetch(`${emulator.url}/api/v4/groups/acme/labels?per_page=100`, { headers: { "PRIVATE-TOKEN": seedToken("root") } })
        ).json()) as { name: string }[]
      ).map((label) => label.name);
    expect((await names()).filter((name) => name.startsWith("fleet-team-3"))).toEqual(["fleet-team-3-renamed"]);
    await project.ok(["config", "rm", "--stack", "team-3", "forge:timeoutMs"]);
    // One run reads the forge and diffs the program: the renamed label is found, nothing to change.
    expect((await project.run(["preview", "--refresh", "--stack", "team-3", "--expect-no-changes"])).code).toBe(0);
    expect((await project.run(["destroy", "--yes", "--skip-preview", "--stack", "team-3"])).code).toBe(0);
    expect((await names()).some((name) => name.startsWith("fleet-team-3"))).toBe(false);
  }, 300_000);

  it("repeated --stack checks each stack named; a stack whose resources' forge cannot be reached is an error without a refresh", async () => {
    // A stack whose label was made on a forge that has gone away since.
    const gone = await startEmulator({ port: 0 });
    await project.ok(["stack", "init", "gone"]);
    await project.ok([
      "config",
      "set-all",
      "--stack",
      "gone",
      "--plaintext",
      `forge:baseUrl=${gone.url}`,
      "--plaintext",
      "label=fleet-gone",
    ]);
    await project.ok(["config", "set", "--stack", "gone", "--secret", "forge:token", seedToken("root")]);
    await project.ok(["up", "--yes", "--skip-preview", "--stack", "gone"]);
    await gone.close();
    const run = await drift("--stack", "team-0", "--stack", "gone", "--format", "markdown");
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stdout).toContain("## Drift over 2 stacks: 0 drifted, 1 clean, 1 failed, 0 locked");
    expect(run.stdout).toMatch(
      /\| `gone` \| .* \| error \| `the forge http:\/\/127\.0\.0\.1:\d+ cannot be reached \(127\.0\.0\.1:\d+: connect ECONNREFUSED/,
    );
    await project.ok(["stack", "rm", "--yes", "--force", "--stack", "gone"]);
  }, 300_000);

  it.skipIf(process.platform !== "linux")(
    "--timeout is a bound: three stacks hung on a forge that holds its answers (both faces) end in time, nothing of them left running, each stack named twice checked once",
    async () => {
      // A stack of the plugin face beside two of the dynamic face, on the same state.
      const plugin = await cliProject({
        name: "fleet-plugin",
        nodeModules: true,
        from: {
          "Pulumi.yaml": `name: forge-fleet-plugin\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
          "index.js": `const forge = require("pulumi-forge/plugin");\nnew forge.GroupLabel("team", { group: "acme", name: "fleet-plugin", color: "#FF0000" });\n`,
        },
        config: { "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
        backend: { url: postgres.url, env: { PGPASSWORD: postgres.password } },
      });
      try {
        await plugin.ok(["up", "--yes", "--skip-preview"]);
        writeFileSync(
          join(project.work, "hung.yaml"),
          `- { stack: team-0, cwd: ${project.dir} }\n- { stack: team-1, cwd: ${project.dir} }\n- { stack: test, cwd: ${plugin.dir} }\n- { stack: team-1, cwd: ${project.dir}/. }\n`,
        );
        // The default check, from the exported states: the reads the forge holds are given up at the
        // bound, and the run ends with its report (nothing of it left waiting on the forge).
        await emulator.admin("/faults", { method: "POST", json: { method: "GET", path: "^/groups/[^/]+/labels", latencyMs: 600_000 } });
        const exportedMark = `fleet-exported-${process.pid}-${Date.now()}`;
        const exportedStart = Date.now();
        const exported = await new Promise<{ code: number | null; stdout: string }>((done) => {
          execFile(
            process.execPath,
            [DRIFT_BIN, "--stacks-file", join(project.work, "hung.yaml"), "--timeout", "8", "--concurrency", "3", "--format", "json"],
            { cwd: project.dir, env: { ...project.env, FORGE_FLEET_TEST_MARK: exportedMark } },
            (error, out) => done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout: out }),
          );
        });
        expect((Date.now() - exportedStart) / 1000).toBeLessThanOrEqual((8 * 3) / 3 + 15);
        await emulator.admin("/faults", { method: "DELETE" });
        expect(exported.code, exported.stdout).toBe(1);
        const late = JSON.parse(exported.stdout) as FleetReport;
        expect(late.stacks.map((entry) => [entry.stack, entry.status])).toEqual([
          ["team-0", "timeout"],
          ["team-1", "timeout"],
          ["test", "timeout"],
        ]);
        // Its reads were held (a loaded machine may still be exporting the state at the bound).
        for (const entry of late.stacks)
          expect(entry.message).toMatch(
            /^timed out after 8 s \(--timeout\), drift not checked: (its reads of the forge were left unanswered|its state's export was ended|the forges of its resources were being reached); the check takes no lock on the stack$/,
          );
        expect(marked(exportedMark), "processes of the run still running").toEqual([]);

        // Every read of a label is held (longer than the test): each stack's refresh waits for answers that do not come.
        expect(
          (await emulator.admin("/faults", { method: "POST", json: { method: "GET", path: "^/groups/[^/]+/labels", latencyMs: 600_000 } }))
            .status,
        ).toBeLessThan(300);
        // Every process of the run carries this variable (children inherit it): how the test finds them, whatever their group or parent.
        const mark = `fleet-hung-${process.pid}-${Date.now()}`;
        const concurrency = 3;
        // A refresh starts three CLI commands before its plugins: on a loaded machine, more than 8 s.
        const refreshTimeout = 20;
        const bound = (refreshTimeout * 3) / concurrency + 15;
        const started = Date.now();
        const child = spawn(
          process.execPath,
          [
            DRIFT_BIN,
            "--per-stack-refresh",
            "--stack",
            "team-0",
            "--stacks-file",
            join(project.work, "hung.yaml"),
            "--timeout",
            String(refreshTimeout),
            "--concurrency",
            String(concurrency),
            "--format",
            "json",
          ],
          {
            cwd: project.dir,
            env: { ...project.env, FORGE_FLEET_TEST_MARK: mark },
          },
        );
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
        let code: number | null | undefined;
        void exited.then((status) => (code = status));
        // While it runs: the most requests held at once, and every command line of the run's processes.
        let mostHeld = 0;
        const seen = new Set<string>();
        while (code === undefined && Date.now() - started < (bound + 30) * 1000) {
          mostHeld = Math.max(mostHeld, ((await (await emulator.admin("/faults")).json()) as { held: number }).held);
          for (const found of marked(mark)) seen.add(found.command);
          await sleep(250);
        }
        const seconds = (Date.now() - started) / 1000;
        // A run that overstays (the code before the bound) is let go, so it ends and the test reports it.
        await emulator.admin("/faults", { method: "DELETE" });
        await exited;
        expect(seconds, `the fleet took ${seconds.toFixed(1)} s, bound ${bound} s\n${stdout}\n${stderr}`).toBeLessThanOrEqual(bound);
        // The stacks were running their refresh, the plugins of both faces started, when the timeout
        // came: the leftover check below has something to find. (Whether their reads were sent yet
        // depends on the machine's load: a stack is hung either way, as its forge answers none.)
        const commands = [...seen].join("\n");
        for (const part of [
          /\bpulumi-language-nodejs\b/,
          // The plugin face's process: the executable (dist/plugin/<platform>/), or the Node plugin with FORGE_TEST_PLUGIN=node.
          /dist\/plugin\/[a-z0-9]+-[a-z0-9]+\/pulumi-resource-forge\b|provider\/plugin\/main\.js/,
          /dynamic-provider/,
          /\bpulumi refresh --preview-only\b/,
        ])
          expect(commands, `held: ${mostHeld}`).toMatch(part);
        expect(marked(mark), "processes of the run still running").toEqual([]);

        expect(code, `${stdout}\n${stderr}`).toBe(1);
        const report = JSON.parse(stdout) as FleetReport;
        expect(report.summary).toEqual({ stacks: 3, clean: 0, drift: 0, error: 0, locked: 0, timeout: 3 });
        expect(report.stacks.map((entry) => [entry.stack, entry.status])).toEqual([
          ["team-0", "timeout"],
          ["team-1", "timeout"],
          ["test", "timeout"],
        ]);
        for (const entry of report.stacks)
          expect(entry.message).toMatch(
            /^timed out after 20 s \(--timeout\), drift not checked: its \d+ processes were ended \(SIGTERM(; SIGKILL for \d+ still running after 3 s)?\); it left no lock on the stack$/,
          );
        expect(stderr).toContain(`stack team-0 (${project.dir}) is named more than once: checked once`);
        expect(stderr).toContain(`stack team-1 (${project.dir}/.) is named more than once: checked once`);

        // forge-drift itself killed outright (a cancelled job): each check's child sees its channel
        // close and ends its session; nothing of the run is left.
        const killedMark = `${mark}-killed`;
        const doomed = spawn(
          process.execPath,
          [DRIFT_BIN, "--per-stack-refresh", "--stack", "team-0", "--stack", "team-1", "--timeout", "600"],
          { cwd: project.dir, env: { ...project.env, FORGE_FLEET_TEST_MARK: killedMark }, stdio: "ignore" },
        );
        const gone = new Promise((done) => doomed.on("close", done));
        const waitFor = async (what: string, ready: () => boolean) => {
          for (const until = Date.now() + 60_000; !ready() && Date.now() < until;) await sleep(100);
          expect(ready(), what).toBe(true);
        };
        await emulator.admin("/faults", { method: "POST", json: { method: "GET", path: "^/groups/[^/]+/labels", latencyMs: 600_000 } });
        await waitFor("the check's refresh never started", () =>
          marked(killedMark).some((found) => /dynamic-provider/.test(found.command)),
        );
        doomed.kill("SIGKILL");
        await gone;
        await waitFor(
          `processes outlived a killed forge-drift:\n${marked(killedMark)
            .map((found) => found.command)
            .join("\n")}`,
          () => marked(killedMark).length === 0,
        );
      } finally {
        await emulator.admin("/faults", { method: "DELETE" });
        plugin.close();
      }
    },
    300_000,
  );
});

/** The processes whose environment holds `FORGE_FLEET_TEST_MARK=<mark>` (Linux: /proc), with their command lines. */
function marked(mark: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${name}/environ`, "utf8").split("\0").includes(`FORGE_FLEET_TEST_MARK=${mark}`)) continue;
      const status = readFileSync(`/proc/${name}/stat`, "utf8");
      if (/^[ZX]/.test(status.slice(status.lastIndexOf(")") + 2))) continue; // ended, not yet reaped
      found.push({ pid: Number(name), command: readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").trim() });
    } catch {
      // ended meanwhile, or not ours to read
    }
  }
  return found;
}
