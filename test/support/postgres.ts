/**
 * A throwaway PostgreSQL server for a test, started as tests start the emulator: `initdb` into a
 * temporary directory, a free port on 127.0.0.1, password authentication for one user, one
 * database. As root (CI), the server runs as the `postgres` system user, since PostgreSQL refuses
 * to run as root. `postgresBinaries()` says why a test must skip when it cannot start one.
 * `stop()` removes everything; a server the test forgot to stop is stopped when the process exits.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running server: its URL for Pulumi (password left out: give it as PGPASSWORD), and how to stop it. */
export interface RunningPostgres {
  /** `postgres://forge@127.0.0.1:<port>/<database>?sslmode=disable` */
  url: string;
  password: string;
  port: number;
  /** Makes another database on the server (one per team, as docs/guides/pipelines-and-locks.md suggests). */
  createDatabase(name: string): void;
  /** Stops the server and removes its directory; safe to call twice. */
  stop(): void;
}

/** The directory of the PostgreSQL binaries (initdb, pg_ctl, createdb), or why a server cannot be started here. */
export function postgresBinaries(): { dir: string } | { missing: string } {
  const candidates = [
    process.env["FORGE_PG_BIN"],
    ...listVersions("/usr/lib/postgresql").map((version) => `/usr/lib/postgresql/${version}/bin`),
  ].filter((dir): dir is string => !!dir);
  let dir = candidates.find((candidate) => ["initdb", "pg_ctl", "createdb"].every((name) => existsSync(join(candidate, name))));
  if (!dir) {
    const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout?.trim();
    if (onPath) dir = onPath.slice(0, onPath.lastIndexOf("/"));
  }
  if (!dir)
    return {
      missing: "PostgreSQL's initdb, pg_ctl and createdb were not found (install PostgreSQL, or set FORGE_PG_BIN to their directory)",
    };
  if (process.getuid?.() === 0 && spawnSync("runuser", ["-u", "postgres", "--", "true"]).status !== 0) {
    return { missing: "running as root, and PostgreSQL will not run as root: a `postgres` system user and runuser are needed" };
  }
  return { dir };
}

function listVersions(root: string): string[] {
  try {
    return readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** Starts a server; throws with the reason of `postgresBinaries()` when it cannot. */
export async function startPostgres(database = "pulumi"): Promise<RunningPostgres> {
  const binaries = postgresBinaries();
  if ("missing" in binaries) throw new Error(binaries.missing);
  const bin = (name: string) => join(binaries.dir, name);
  const work = mkdtempSync(join(tmpdir(), "forge-pg-"));
  const data = join(work, "data");
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL will not run as root: hand the directory to its system user.
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, {
      stdio: "pipe",
      env: { ...process.env, PGPASSWORD: password },
    });
  let started = false;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stop);
    if (started) {
      try {
        run(bin("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
    }
    rmSync(work, { recursive: true, force: true });
  };
  process.on("exit", stop);
  try {
    if (asRoot) chmodSync(work, 0o777);
    const passwordFile = join(work, "password");
    writeFileSync(passwordFile, password, { mode: 0o644 });
    run(bin("initdb"), ["-D", data, "-U", "forge", "-A", "scram-sha-256", `--pwfile=${passwordFile}`, "--no-sync"]);
    // The port is free when asked and taken by the server a moment later: another process may win it in between.
    let port = 0;
    for (let attempt = 1; !started; attempt++) {
      port = await freePort();
      try {
        run(bin("pg_ctl"), [
          "-D",
          data,
          "-w",
          "-t",
          "30",
          "-l",
          join(work, "server.log"),
          "-o",
          `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c fsync=off`,
          "start",
        ]);
        started = true;
      } catch (error) {
        if (attempt >= 3) throw new Error(`PostgreSQL did not start: ${String(error)}\n${readOr(join(work, "server.log"))}`);
      }
    }
    const createDatabase = (name: string) => {
      run(bin("createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "forge", name]);
    };
    createDatabase(database);
    return { url: `postgres://forge@127.0.0.1:${port}/${database}?sslmode=disable`, password, port, createDatabase, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
