/**
 * forge-recover and forge-drift during a live `pulumi up`: a recovery or drift job that
 * fires during a deploy must not judge the deploy's own pending creates and updates. On a file
 * backend and on PostgreSQL (a throwaway server), while the run holds the stack's lock both exit 3
 * naming the holder and change nothing; the run then finishes as if they had not run. The lock
 * reader's message on its own (URLs are masked by provider/redaction.ts, test/unit/redaction.test.ts).
 */
import { execFile, spawn } from "node:child_process";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeLock } from "../../cli/stack-lock";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, type CliProject } from "../e2e/cli-project";
import { PULUMI_ROOT, REPO_ROOT, skipEngineTests } from "../e2e/harness";
import { postgresBinaries, startPostgres, type RunningPostgres } from "../support/postgres";

const BIN = (name: string) => join(REPO_ROOT, "dist", "cli", `${name}.js`);
const PROGRAM = `const forge = require("pulumi-forge");
for (const name of ["one", "two"]) new forge.GroupLabel(name, { group: "acme", name: "locked-" + name, color: "red" });
`;

describe("the lock reader", () => {
  it("names the holder, says whether it still runs on this host, and how to confirm before pulumi cancel", () => {
    const live = describeLock("prod", [{ pid: process.pid, host: hostname(), user: "ci", since: "2026-11-25T03:00:00Z" }]);
    expect(live).toContain(`pid ${process.pid} on ${hostname()} as ci, since 2026-11-25T03:00:00Z (running on this host)`);
    expect(live).toMatch(/confirm that the holder is dead first .*ps -p <pid>.*pulumi cancel/);
    expect(describeLock("prod", [{ pid: 2 ** 22 + 17, host: hostname() }])).toContain("not running on this host: the lock looks stale");
  });
});

const pgMissing = "missing" in postgresBinaries() ? (postgresBinaries() as { missing: string }).missing : undefined;
if (pgMissing && !skipEngineTests()) console.warn(`locks.test.ts: the PostgreSQL backend case is skipped: ${pgMissing}`);

describe.skipIf(skipEngineTests())("forge-recover and forge-drift during a live up", () => {
  let emulator: RunningEmulator;
  let postgres: RunningPostgres | undefined;
  const projects: CliProject[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    if (!pgMissing) postgres = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    for (const project of projects) project.close();
    postgres?.stop();
    await emulator?.close();
  });

  const tool = (project: CliProject, name: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN(name), "--cwd", project.dir, "--stack", "test", ...args],
        { env: project.env },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  const backends = [
    { name: "a file backend", backend: () => undefined },
    {
      name: "a PostgreSQL backend",
      backend: () => (postgres ? { url: postgres.url, env: { PGPASSWORD: postgres.password } } : undefined),
      skip: () => !postgres,
    },
  ];

  for (const row of backends) {
    it(`on ${row.name}: both exit 3 naming the holder, and the run finishes untouched`, async (context) => {
      if (row.skip?.()) context.skip();
      await emulator.admin("/reset", { method: "POST" });
      const backend = row.backend();
      const project = await cliProject({
        name: "locks",
        nodeModules: true,
        from: { "Pulumi.yaml": "name: forge-locks\nruntime: nodejs\n", "index.js": PROGRAM },
        // The held creates' client waits for their answers (no timeout, no lost answer) until they are let go.
        config: {
          "forge:baseUrl": { value: emulator.url },
          "forge:token": { value: seedToken("root"), secret: true },
          "forge:timeoutMs": { value: "300000" },
        },
        ...(backend ? { backend } : {}),
      });
      projects.push(project);
      // The deploy's creates are held (until the faults are cleared below): it holds the lock, with pending creates in its checkpoint.
      expect(
        (
          await emulator.admin("/faults", {
            method: "POST",
            json: { method: "POST", path: "^/groups/[^/]+/labels$", latencyMs: 150_000, times: 2 },
          })
        ).status,
      ).toBeLessThan(300);
      const up = spawn(join(PULUMI_ROOT, "bin", "pulumi"), ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "test"], {
        cwd: project.dir,
        env: project.env,
        stdio: "ignore",
      });
      const finished = new Promise<number | null>((resolve) => up.on("exit", resolve));
      const started = Date.now();
      const held = async () => ((await (await emulator.admin("/faults")).json()) as { held: number }).held > 0;
      while (!(await held()) && Date.now() - started < 120_000) await sleep(100);
      expect(await held(), "the deploy's creates were never sent").toBe(true);
      const before = await project.exportText();

      const [recover, drift] = await Promise.all([tool(project, "forge-recover"), tool(project, "forge-drift")]);
      expect(up.exitCode, "the up was still running when both tools had answered (its creates are held)").toBeNull();
      for (const result of [recover, drift]) {
        expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(3);
        expect(result.stderr).toMatch(/stack test is locked by a running operation:\n {2}pid \d+ on \S+/);
        expect(result.stderr).toContain("pulumi cancel");
      }
      expect(recover.stdout).toBe("");
      expect(drift.stdout).toBe("");
      expect(await project.exportText()).toBe(before);

      await emulator.admin("/faults", { method: "DELETE" });
      expect(await finished).toBe(0);
      const labels = (await (
        await fetch(`${emulator.url}/api/v4/groups/acme/labels`, { headers: { "PRIVATE-TOKEN": seedToken("root") } })
      ).json()) as { name: string }[];
      expect(labels.map((label) => label.name).sort()).toEqual(["locked-one", "locked-two"]);
      // Once the run is over, both run as usual (the lock reader of either backend says "free").
      const [quietRecover, quietDrift] = await Promise.all([tool(project, "forge-recover"), tool(project, "forge-drift")]);
      expect(quietRecover.stdout, quietRecover.stderr).toContain("nothing to recover");
      expect(quietDrift.code, quietDrift.stderr).toBe(0);
    }, 180_000);
  }
});
