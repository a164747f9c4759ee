/**
 * A throwaway PostgreSQL server for a test, started as tests start the emulator: `initdb` into a
 * temporary directory, a free port on 127.0.0.1, password authentication for one user, one
 * database. As root (CI), the server runs as the `postgres` system user, since PostgreSQL refuses
 * to run as root. `postgresBinaries()` says why a test must skip when there are none.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running server: its URL for Pulumi (password left out: give it as PGPASSWORD), and how to stop it. */
export interface RunningPostgres {
  /** `postgres://forge@127.0.0.1:<port>/<database>?sslmode=disable` */
  url: string;
  password: string;
  port: number;
  /** Makes another database on the server (one per team, as the README suggests). */
  createDatabase(name: string): void;
  stop(): void;
}

/** The directory of the PostgreSQL binaries (initdb, pg_ctl), or why there is none. */
export function postgresBinaries(): { dir: string } | { missing: string } {
  const candidates = [process.env["FORGE_PG_BIN"], ...listVersions("/usr/lib/postgresql").map((version) => `/usr/lib/postgresql/${version}/bin`)].filter((dir): dir is string => !!dir);
  const dir = candidates.find((candidate) => existsSync(join(candidate, "initdb")) && existsSync(join(candidate, "pg_ctl")));
  if (dir) return { dir };
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return { dir: onPath.slice(0, onPath.lastIndexOf("/")) };
  return { missing: "PostgreSQL's initdb and pg_ctl were not found (install PostgreSQL, or set FORGE_PG_BIN to their directory)" };
}

function listVersions(root: string): string[] {
  try {
    return readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** Starts a server; throws with the binaries' reason when there are none. */
export async function startPostgres(database = "pulumi"): Promise<RunningPostgres> {
  const binaries = postgresBinaries();
  if ("missing" in binaries) throw new Error(binaries.missing);
  const work = mkdtempSync(join(tmpdir(), "forge-pg-"));
  const data = join(work, "data");
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL will not run as root: hand the directory to its system user.
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, { stdio: "pipe", env: { ...process.env, PGPASSWORD: password } });
  if (asRoot) chmodSync(work, 0o777);
  const passwordFile = join(work, "password");
  writeFileSync(passwordFile, password, { mode: 0o644 });
  const port = await freePort();
  run(join(binaries.dir, "initdb"), ["-D", data, "-U", "forge", "-A", "scram-sha-256", `--pwfile=${passwordFile}`, "--no-sync"]);
  run(join(binaries.dir, "pg_ctl"), ["-D", data, "-w", "-l", join(work, "server.log"), "-o", `-p ${port} -k ${work} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  const stop = () => {
    try {
      run(join(binaries.dir, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // already stopped
    }
    rmSync(work, { recursive: true, force: true });
  };
  const createDatabase = (name: string) => {
    run(join(binaries.dir, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "forge", name]);
  };
  try {
    createDatabase(database);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://forge@127.0.0.1:${port}/${database}?sslmode=disable`, password, port, createDatabase, stop };
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
