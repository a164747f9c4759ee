/**
 * The stack-lock reader (cli/stack-lock.ts) against what Pulumi CLI 3.259 really writes: a live
 * `pulumi up` of a small TypeScript program whose one resource takes seconds to create holds the
 * lock on a file backend and on a PostgreSQL backend (a throwaway server), and the reader names
 * the `pulumi` process, this host and this user while it runs and nothing once it has finished;
 * a run killed with SIGKILL leaves its lock, which the reader shows as stale until
 * `pulumi cancel`. Which backend a project uses is compared with `pulumi whoami`. The parsing,
 * layouts and redaction on their own need no CLI.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir, userInfo } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendUrlOf, describeLock, readStackLock, type LockHolder, type LockStatus, type StackRef } from "../../cli/stack-lock";
import { PULUMI_ROOT, REPO_ROOT, skipEngineTests } from "../e2e/harness";
import { postgresBinaries, startPostgres, type RunningPostgres } from "../support/postgres";

const PULUMI = join(PULUMI_ROOT, "bin", "pulumi");
const temporaries: string[] = [];
const temporary = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `forge-stack-lock-${name}-`));
  temporaries.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporaries) rmSync(dir, { recursive: true, force: true });
});

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const lockJson = (pid: number, host = "runner-7") =>
  JSON.stringify({ pid, username: "ci", hostname: host, timestamp: "2026-11-25T06:12:46.415496499+01:00" });

describe("backend URLs: redaction and the CLI's order", () => {
  it("reports, never throws, for backends whose locks it cannot read, and redacts their URL", async () => {
    for (const backendUrl of ["https://api.pulumi.com", "s3://team-state?region=eu-west-1", "azblob://state", "gs://state"]) {
      expect(await readStackLock({ backendUrl, project: "p", stack: "s" })).toEqual({
        state: "unknown",
        why: expect.stringContaining(backendUrl),
      });
    }
    const unknown = (await readStackLock({ backendUrl: "https://team:tok3n@pulumi.example", project: "p", stack: "s" })) as { why: string };
    expect(unknown.why).not.toContain("tok3n");
  });

  it("a PostgreSQL error names the server, never the password", async () => {
    // Nothing listens on port 9: the connection is refused, and the message carries the redacted URL.
    const read = readStackLock({ backendUrl: "postgres://team:s3cret@127.0.0.1:9/pulumi?sslmode=disable", project: "p", stack: "s" });
    await expect(read).rejects.toThrow(/could not read the stack's lock from postgres:\/\/team:\[secret\]@127\.0\.0\.1:9\/pulumi/);
    await expect(read).rejects.not.toThrow(/s3cret/);
    // A password given as the URL's parameter, as libpq takes it.
    const inQuery = readStackLock({
      backendUrl: "postgres://team@127.0.0.1:9/pulumi?sslmode=disable&password=s3cret",
      project: "p",
      stack: "s",
    });
    await expect(inQuery).rejects.toThrow(/pulumi\?sslmode=disable&password=\[secret\]/);
    await expect(inQuery).rejects.not.toThrow(/s3cret/);
    const password = readStackLock({
      backendUrl: "postgres://team@127.0.0.1:9/pulumi?sslmode=disable",
      project: "p",
      stack: "s",
      env: { PGPASSWORD: "s3cret" },
    });
    await expect(password).rejects.not.toThrow(/s3cret/);
    await expect(readStackLock({ backendUrl: "postgres://u@h/db?table=x;drop", project: "p", stack: "s" })).rejects.toThrow(
      /not a plain SQL name/,
    );
  });

  it("resolves PULUMI_BACKEND_URL, then the project's backend.url (found upward), then the current login", () => {
    const root = temporary("order");
    const home = join(root, "home");
    const project = join(root, "project");
    write(join(project, "Pulumi.yaml"), "name: p\nruntime: nodejs\nbackend:\n  url: file://./state\n");
    mkdirSync(join(project, "src", "deep"), { recursive: true });
    write(join(home, "credentials.json"), JSON.stringify({ current: "postgres://team@db/pulumi", accessTokens: {}, accounts: {} }));
    const env = { PULUMI_HOME: home };

    expect(backendUrlOf(project, { ...env, PULUMI_BACKEND_URL: "file:///srv/state" })).toEqual({
      url: "file:///srv/state",
      source: "env",
      from: "PULUMI_BACKEND_URL",
    });
    expect(backendUrlOf(join(project, "src", "deep"), env)).toEqual({
      url: "file://./state",
      source: "project",
      from: join(project, "Pulumi.yaml"),
    });
    write(join(project, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    expect(backendUrlOf(project, env)).toEqual({
      url: "postgres://team@db/pulumi",
      source: "credentials",
      from: join(home, "credentials.json"),
    });
    // PULUMI_CREDENTIALS_PATH names the credentials' folder before PULUMI_HOME.
    expect(backendUrlOf(project, { ...env, PULUMI_CREDENTIALS_PATH: join(root, "nowhere") })).toEqual({
      why: expect.stringContaining("does not exist"),
    });
    write(
      join(home, "credentials.json"),
      JSON.stringify({ $pulumiSecureStore: 1, backend: "os", algo: "aes-256-gcm", nonce: "", data: "" }),
    );
    expect(backendUrlOf(project, env)).toEqual({ why: expect.stringContaining("encrypted") });
    write(join(home, "credentials.json"), JSON.stringify({ accessTokens: {}, accounts: {} }));
    expect(backendUrlOf(project, env)).toEqual({ why: expect.stringContaining("no current login") });
  });
});

describe("lock layouts on a file backend", () => {
  it("reads the project layout and the one before it, skipping .attrs files and other stacks", async () => {
    const root = temporary("layouts");
    const backend = join(root, "state");
    write(join(backend, ".pulumi/locks/organization/shop/prod/0b7c.json"), lockJson(4242));
    write(join(backend, ".pulumi/locks/organization/shop/prod/0b7c.json.attrs"), "{}");
    write(join(backend, ".pulumi/locks/organization/shop/staging/1111.json"), lockJson(1));
    write(join(backend, ".pulumi/locks/organization/other/prod/2222.json"), lockJson(2));
    write(join(backend, ".pulumi/locks/legacy/3333.json"), lockJson(3333, hostname()));

    const held = await readStackLock({ backendUrl: `file://${backend}`, project: "shop", stack: "prod" });
    expect(held).toEqual({
      state: "held",
      holders: [
        {
          pid: 4242,
          host: "runner-7",
          user: "ci",
          since: "2026-11-25T05:12:46.415Z",
          location: join(backend, ".pulumi/locks/organization/shop/prod/0b7c.json"),
        },
      ],
    });
    expect(await readStackLock({ backendUrl: `file://${backend}`, project: "any", stack: "legacy" })).toMatchObject({
      state: "held",
      holders: [{ pid: 3333 }],
    });
    expect(await readStackLock({ backendUrl: `file://${backend}`, project: "shop", stack: "dev" })).toEqual({ state: "free" });
    // Relative to the directory the CLI runs in (the project's), as `pulumi whoami` reports it.
    expect(
      await readStackLock({ backendUrl: "file://./state?no_tmp_dir=true", project: "shop", stack: "prod", workDir: root }),
    ).toMatchObject({ state: "held", holders: [{ pid: 4242 }] });
    expect(await readStackLock({ backendUrl: "file:///nonexistent/state", project: "shop", stack: "prod" })).toEqual({ state: "free" });
  });

  it("says how to confirm the holder is dead: on this host by its pid, on another by its runner", () => {
    const elsewhere = describeLock("prod", [
      {
        pid: 4242,
        host: "runner-7",
        user: "ci",
        since: "2026-11-25T05:12:46.415Z",
        location: "/srv/state/.pulumi/locks/organization/shop/prod/0b7c.json",
      },
    ]);
    expect(elsewhere).toContain(
      "pid 4242 on runner-7 as ci, since 2026-11-25T05:12:46.415Z: on runner-7, `ps -p 4242`, or ask that runner whether its job has ended",
    );
    expect(elsewhere).toContain("lock: /srv/state/.pulumi/locks/organization/shop/prod/0b7c.json");
    expect(elsewhere).toMatch(
      /`kill -0 <pid>` or `ps -p <pid>`; on another runner: its CI job has ended\), then release the lock with `pulumi cancel`/,
    );
    expect(describeLock("prod", [{ pid: process.pid, host: hostname() }])).toContain(`(running on this host): \`ps -p ${process.pid}\``);
    expect(describeLock("prod", [{ pid: 2 ** 22 + 17, host: hostname() }])).toContain(
      `(not running on this host: the lock looks stale): \`kill -0 ${2 ** 22 + 17}\` fails`,
    );
  });
});

const pgMissing = (() => {
  const found = postgresBinaries();
  return "missing" in found ? found.missing : undefined;
})();
if (pgMissing && !skipEngineTests()) console.warn(`stack-lock.test.ts: the PostgreSQL backend is not tried: ${pgMissing}`);

/** A TypeScript program whose one resource takes SLOW_MS to create (a dynamic provider: no plugin of ours). */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";

const slow: pulumi.dynamic.ResourceProvider = {
  async create() {
    await new Promise((resolve) => setTimeout(resolve, Number(process.env["SLOW_MS"] ?? "0")));
    return { id: "slow", outs: {} };
  },
};
class Slow extends pulumi.dynamic.Resource {
  constructor(name: string) {
    super(slow, name, {});
  }
}
new Slow(process.env["SLOW_NAME"] ?? "slow");
`;

interface Stack {
  dir: string;
  env: NodeJS.ProcessEnv;
  ref: StackRef;
}

function pulumi(stack: Stack, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(PULUMI, [...args, "--non-interactive"], { cwd: stack.dir, env: { ...stack.env, ...extra } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

async function makeStack(name: string, backend?: { url: string; env: NodeJS.ProcessEnv }): Promise<Stack> {
  const root = temporary(name);
  const dir = join(root, "program");
  write(join(dir, "Pulumi.yaml"), `name: lock-${name}\nruntime: nodejs\n`);
  write(join(dir, "index.ts"), PROGRAM);
  write(join(dir, "package.json"), JSON.stringify({ name: `lock-${name}`, main: "index.ts" }));
  symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(root, "state"));
  mkdirSync(join(root, "home"));
  const url = backend?.url ?? `file://${join(root, "state")}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The set-up's Node first: the language host runs the program on the `node` of PATH.
    PATH: [join(PULUMI_ROOT, "bin"), dirname(process.execPath), process.env["PATH"] ?? ""].join(delimiter),
    PULUMI_BACKEND_URL: url,
    PULUMI_HOME: join(root, "home"),
    PULUMI_CONFIG_PASSPHRASE: "stack-lock",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...backend?.env,
  };
  const stack = { dir, env, ref: { backendUrl: url, project: `lock-${name}`, stack: "test", env, workDir: dir } };
  const init = await pulumi(stack, ["stack", "init", "test"]);
  expect(init.code, init.output).toBe(0);
  return stack;
}

/**
 * SIGKILL to a process and everything under it: the language host and providers that `pulumi`
 * starts are in process groups of their own, and would otherwise outlive the test.
 */
function killTree(pid: number): void {
  const table = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) for (const [child, parent] of table) if (parent === tree[index]) tree.push(child);
  for (const member of tree) {
    try {
      process.kill(member, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** `pulumi up`, creating `name` in `ms`. */
function startUp(stack: Stack, name: string, ms: number): { child: ChildProcess; exit: Promise<number | null>; output: () => string } {
  const child = spawn(PULUMI, ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "test"], {
    cwd: stack.dir,
    env: { ...stack.env, SLOW_MS: String(ms), SLOW_NAME: name },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exit, output: () => output };
}

async function untilHeld(ref: StackRef, exited: () => boolean): Promise<LockStatus & { state: "held" }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await readStackLock(ref);
    if (status.state === "held") return status;
    if (exited() || Date.now() > deadline) throw new Error(`no lock appeared (${exited() ? "the up has exited" : "30 s"})`);
    await sleep(100);
  }
}

function expectHolder(holders: LockHolder[], pid: number | undefined, where: RegExp): void {
  expect(holders).toEqual([
    { pid, host: hostname(), user: userInfo().username, since: expect.any(String), location: expect.stringMatching(where) },
  ]);
  const since = Date.parse(holders[0]!.since!);
  expect(Math.abs(Date.now() - since), `since ${holders[0]!.since}`).toBeLessThan(120_000);
}

describe.skipIf(skipEngineTests())("a live pulumi up holds the lock, and the reader names it", () => {
  let postgres: RunningPostgres | undefined;
  beforeAll(async () => {
    if (!pgMissing) postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  const backends = [
    {
      name: "file",
      stack: () => makeStack("file"),
      where: (stack: Stack) =>
        new RegExp(
          `^${escape(stack.ref.backendUrl.slice("file://".length))}/\\.pulumi/locks/organization/lock-file/test/[0-9a-f-]{36}\\.json$`,
        ),
    },
    {
      name: "postgres",
      skip: () => !postgres,
      stack: () => makeStack("postgres", { url: postgres!.url, env: { PGPASSWORD: postgres!.password } }),
      where: (stack: Stack) =>
        new RegExp(
          `^${escape(stack.ref.backendUrl)} \\(table pulumi_state, key pulumi/\\.pulumi/locks/organization/lock-postgres/test/[0-9a-f-]{36}\\.json\\)$`,
        ),
    },
  ];

  for (const backend of backends) {
    it.concurrent(
      `${backend.name} backend: the holder while the up runs, nothing after it; a killed run's lock until pulumi cancel`,
      async (context) => {
        if (backend.skip?.()) context.skip();
        const stack = await backend.stack();

        // A run that finishes: its lock, then none.
        const up = startUp(stack, "first", 5_000);
        let exited = false;
        void up.exit.then(() => (exited = true));
        const held = await untilHeld(stack.ref, () => exited);
        expectHolder(held.holders, up.child.pid, backend.where(stack));
        expect(describeLock("test", held.holders)).toContain(`pid ${up.child.pid} on ${hostname()} as ${userInfo().username}`);
        expect(describeLock("test", held.holders)).toContain("(running on this host)");
        expect(exited, "the up had finished before the lock was read").toBe(false);
        expect(await up.exit, up.output()).toBe(0);
        expect(await readStackLock(stack.ref)).toEqual({ state: "free" });

        // A run killed outright leaves its lock: stale, until `pulumi cancel` removes it.
        const killed = startUp(stack, "second", 60_000);
        let killedExited = false;
        void killed.exit.then(() => (killedExited = true));
        const before = await untilHeld(stack.ref, () => killedExited);
        expectHolder(before.holders, killed.child.pid, backend.where(stack));
        killTree(killed.child.pid!);
        await killed.exit;
        const stale = await readStackLock(stack.ref);
        expect(stale).toEqual(before);
        expect(describeLock("test", before.holders)).toContain("(not running on this host: the lock looks stale)");
        const cancel = await pulumi(stack, ["cancel", "--yes", "--stack", "test"]);
        expect(cancel.code, cancel.output).toBe(0);
        expect(await readStackLock(stack.ref)).toEqual({ state: "free" });
      },
      90_000,
    );
  }

  it.concurrent(
    "postgres: table= is the table the CLI writes (its name unquoted: TeamState is teamstate), and only the stack's own keys count",
    async (context) => {
      if (!postgres) context.skip();
      const { Client } = await import("pg");
      const client = new Client({
        host: "127.0.0.1",
        port: postgres!.port,
        user: "forge",
        database: "pulumi",
        password: postgres!.password,
      });
      await client.connect();
      try {
        await client.query(
          "CREATE TABLE TeamState (key TEXT PRIMARY KEY, data JSON NOT NULL, updated_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        );
        const row = (key: string, pid: number) =>
          client.query("INSERT INTO teamstate (key, data) VALUES ($1, $2)", [key, { data: Buffer.from(lockJson(pid)).toString("base64") }]);
        await row("pulumi/.pulumi/locks/organization/shop/prod/0b7c.json", 4242);
        await row("pulumi/.pulumi/locks/organization/shop/prod/0b7c.json.tmp", 1);
        await row("pulumi/.pulumi/locks/organization/shop/prod-2/aaaa.json", 2);
      } finally {
        await client.end();
      }
      const ref = {
        backendUrl: `${postgres!.url}&table=TeamState`,
        project: "shop",
        stack: "prod",
        env: { PGPASSWORD: postgres!.password },
      };
      expect(await readStackLock(ref)).toEqual({
        state: "held",
        holders: [
          {
            pid: 4242,
            host: "runner-7",
            user: "ci",
            since: "2026-11-25T05:12:46.415Z",
            location: `${ref.backendUrl} (table TeamState, key pulumi/.pulumi/locks/organization/shop/prod/0b7c.json)`,
          },
        ],
      });
      // A legacy stack named `organization` is not every project's lock.
      expect(await readStackLock({ ...ref, project: "legacy", stack: "organization" })).toEqual({ state: "free" });
      // A table nobody wrote yet: no stack, so no lock.
      expect(await readStackLock({ ...ref, backendUrl: `${postgres!.url}&table=nothing_here` })).toEqual({ state: "free" });
    },
  );

  it.concurrent(
    "backendUrlOf agrees with pulumi whoami: PULUMI_BACKEND_URL, then backend.url, then the login",
    async () => {
      const stack = await makeStack("whoami");
      const root = dirname(stack.dir);
      mkdirSync(join(stack.dir, "project-state"));
      mkdirSync(join(root, "login-state"));
      const login = await pulumi(stack, ["login", `file://${join(root, "login-state")}`], { PULUMI_BACKEND_URL: "" });
      expect(login.code, login.output).toBe(0);
      const whoami = async (env: NodeJS.ProcessEnv) => {
        const result = await pulumi(stack, ["whoami", "--json"], env);
        expect(result.code, result.output).toBe(0);
        return (JSON.parse(result.output.slice(result.output.indexOf("{"))) as { url: string }).url;
      };
      const cases: NodeJS.ProcessEnv[] = [{}, { PULUMI_BACKEND_URL: "" }];
      expect(await whoami(cases[0]!)).toBe(backendUrlOf(stack.dir, { ...stack.env, ...cases[0] }).url);
      expect(backendUrlOf(stack.dir, { ...stack.env, ...cases[1] })).toMatchObject({ source: "credentials" });
      expect(await whoami(cases[1]!)).toBe(backendUrlOf(stack.dir, { ...stack.env, ...cases[1] }).url);
      write(join(stack.dir, "Pulumi.yaml"), "name: lock-whoami\nruntime: nodejs\nbackend:\n  url: file://./project-state\n");
      expect(backendUrlOf(stack.dir, { ...stack.env, ...cases[1] })).toMatchObject({ source: "project", url: "file://./project-state" });
      expect(await whoami(cases[1]!)).toBe("file://./project-state");
      expect(await whoami(cases[0]!)).toBe(stack.ref.backendUrl);
    },
    60_000,
  );
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
