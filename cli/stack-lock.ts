/**
 * Whether a Pulumi stack is locked by a running operation, and by whom, read the way the CLI
 * writes it for the self-managed ("DIY") backends teams use (docs/locks.md):
 *
 * - file (`file://<dir>`, `file://~` when logged in locally): a JSON file per lock holder under
 *   `<dir>/.pulumi/locks/organization/<project>/<stack>/` (`<dir>/.pulumi/locks/<stack>/` in the
 *   layout before projects), `{ pid, username, hostname, timestamp }`;
 * - PostgreSQL (`postgres://user@host:port/db?sslmode=...&table=...`): the same files as rows of
 *   the state table (default `pulumi_state`): key `<db>/.pulumi/locks/...`, data
 *   `{ "data": "<base64 of the JSON>" }`.
 *
 * Other backends (Pulumi Cloud, object stores) answer "unknown": the caller says it could not check.
 */
import { readdirSync, readFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { join } from "node:path";

/** One holder of a stack's lock, as the CLI records it. */
export interface LockHolder {
  pid?: number;
  host?: string;
  user?: string;
  /** When the lock was taken (ISO). */
  since?: string;
}

/** What the backend says of a stack's lock. */
export type LockStatus = { state: "free" } | { state: "held"; holders: LockHolder[] } | { state: "unknown"; why: string };

/** Which stack, in which backend. */
export interface StackRef {
  /** The backend URL as `pulumi whoami --json` reports it (a password in it is never printed). */
  backendUrl: string;
  project: string;
  stack: string;
  /** Environment for the PostgreSQL connection (`PGPASSWORD`); default this process's. */
  env?: NodeJS.ProcessEnv;
}

/** Reads the lock of a stack. Never throws for a backend it does not know; throws when a known one cannot be read. */
export async function readStackLock(ref: StackRef): Promise<LockStatus> {
  const url = parseBackendUrl(ref.backendUrl);
  if (!url) return { state: "unknown", why: `the backend ${redactUrl(ref.backendUrl)} keeps its locks where this tool cannot read them` };
  const files = url.kind === "file" ? lockFilesOnDisk(url.path, ref) : await lockRowsInPostgres(url.url, ref);
  const holders = files.map(parseHolder);
  return holders.length > 0 ? { state: "held", holders } : { state: "free" };
}

/** A message naming the holders, and how to confirm that a holder is dead before `pulumi cancel`. */
export function describeLock(stack: string, holders: readonly LockHolder[]): string {
  const here = hostname();
  const lines = holders.map((holder) => {
    const who = [holder.pid !== undefined ? `pid ${holder.pid}` : undefined, holder.host ? `on ${holder.host}` : undefined, holder.user ? `as ${holder.user}` : undefined]
      .filter(Boolean)
      .join(" ");
    const running = holder.host === here && holder.pid !== undefined ? (isRunning(holder.pid) ? " (running on this host)" : " (not running on this host: the lock looks stale)") : "";
    return `  ${who || "an unknown process"}${holder.since ? `, since ${holder.since}` : ""}${running}`;
  });
  return (
    `stack ${stack} is locked by a running operation:\n${lines.join("\n")}\n` +
    "Run this again when it has finished. If it was killed (a cancelled pipeline, a lost runner), confirm that the holder is dead " +
    "first (on its host: `ps -p <pid>`; on another runner: its CI job has ended), then release the lock with `pulumi cancel`."
  );
}

type BackendUrl = { kind: "file"; path: string } | { kind: "postgres"; url: URL };

function parseBackendUrl(raw: string): BackendUrl | undefined {
  if (raw.startsWith("file://")) {
    let path = raw.slice("file://".length).split("?")[0] ?? "";
    if (path === "~" || path.startsWith("~/")) path = join(homedir(), path.slice(1));
    return { kind: "file", path };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return { kind: "postgres", url: new URL(raw) };
  return undefined;
}

/** The lock directories of a stack, in the layout with projects and in the one before. */
function lockPrefixes(ref: StackRef): string[] {
  return [`.pulumi/locks/organization/${ref.project}/${ref.stack}/`, `.pulumi/locks/${ref.stack}/`];
}

function lockFilesOnDisk(root: string, ref: StackRef): string[] {
  return lockPrefixes(ref).flatMap((prefix) => {
    const dir = join(root, prefix);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names.filter((name) => name.endsWith(".json")).flatMap((name) => readOrNothing(join(dir, name)));
  });
}

function readOrNothing(path: string): string[] {
  try {
    return [readFileSync(path, "utf8")];
  } catch {
    return []; // released between the listing and the read
  }
}

async function lockRowsInPostgres(url: URL, ref: StackRef): Promise<string[]> {
  const database = decodeURIComponent(url.pathname.slice(1));
  const table = url.searchParams.get("table") || "pulumi_state";
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table)) throw new Error(`the backend's table "${table}" is not a plain SQL name`);
  const sslmode = url.searchParams.get("sslmode") ?? "prefer";
  // Loaded here: file-backend users never load the driver.
  const { Client } = await import("pg");
  const env = ref.env ?? process.env;
  const password = url.password ? decodeURIComponent(url.password) : env["PGPASSWORD"];
  const client = new Client({
    host: url.hostname,
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username) || env["PGUSER"],
    ...(password !== undefined ? { password } : {}),
    database,
    ssl: sslmode === "disable" || sslmode === "prefer" || sslmode === "allow" ? false : { rejectUnauthorized: sslmode === "verify-full" || sslmode === "verify-ca" },
    connectionTimeoutMillis: 10_000,
  });
  try {
    await client.connect();
    const quoted = table
      .split(".")
      .map((part) => `"${part}"`)
      .join(".");
    const rows: string[] = [];
    for (const prefix of lockPrefixes(ref)) {
      const result = await client.query<{ data: { data?: string } }>(`SELECT data FROM ${quoted} WHERE key LIKE $1`, [`${escapeLike(`${database}/${prefix}`)}%`]);
      for (const row of result.rows) if (typeof row.data?.data === "string") rows.push(Buffer.from(row.data.data, "base64").toString("utf8"));
    }
    return rows;
  } catch (error) {
    // An undefined table: no stack was ever written there, so nothing holds a lock.
    if ((error as { code?: string }).code === "42P01") return [];
    throw new Error(`could not read the stack's lock from ${redactUrl(url.href)}: ${redactUrl(error instanceof Error ? error.message : String(error))}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function parseHolder(text: string): LockHolder {
  try {
    const raw = JSON.parse(text) as { pid?: unknown; hostname?: unknown; username?: unknown; timestamp?: unknown };
    return {
      ...(typeof raw.pid === "number" ? { pid: raw.pid } : {}),
      ...(typeof raw.hostname === "string" ? { host: raw.hostname } : {}),
      ...(typeof raw.username === "string" ? { user: raw.username } : {}),
      ...(typeof raw.timestamp === "string" ? { since: raw.timestamp } : {}),
    };
  } catch {
    return {};
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** A URL for messages: its password replaced (`postgres://user:***@host/db`). */
export function redactUrl(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/gi, "$1***@");
}
