/**
 * Whether a Pulumi stack is locked by a running operation, and by whom, read the way Pulumi CLI
 * 3.259 writes it for the self-managed ("DIY") backends teams use (docs/guides/pipelines-and-locks.md has what was
 * seen on the real CLI):
 *
 * - file (`file://<dir>`, `file://~` after `pulumi login --local`): one JSON file per lock holder,
 *   `<dir>/.pulumi/locks/organization/<project>/<stack>/<uuid>.json` (`<dir>/.pulumi/locks/<stack>/`
 *   in the layout before projects), holding `{ pid, username, hostname, timestamp }`;
 * - PostgreSQL (`postgres://user@host:port/<db>?sslmode=...&table=...`): the same files as rows of
 *   the state table (`pulumi_state` unless `table=`), key `<db>/.pulumi/locks/...`, data
 *   `{ "data": "<base64 of the JSON>" }`.
 *
 * Other backends (Pulumi Cloud, object stores) answer "unknown": the caller says it could not check.
 * Which backend a project uses: `backendUrlOf` (PULUMI_BACKEND_URL, the project's `backend.url`,
 * then the current login), or `pulumi whoami`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir, hostname, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { maskUrls } from "../provider/redaction";
import { requireOptional } from "../provider/optional-package";

/** One holder of a stack's lock, as the CLI records it. */
export interface LockHolder {
  pid?: number;
  host?: string;
  user?: string;
  /** When the lock was taken (ISO). */
  since?: string;
  /** Where the lock is: a file's path, or the backend URL (password redacted), table and key. */
  location?: string;
}

/** What the backend says of a stack's lock. */
export type LockStatus = { state: "free" } | { state: "held"; holders: LockHolder[] } | { state: "unknown"; why: string };

/** Which stack, in which backend. */
export interface StackRef {
  /** The backend URL as `pulumi whoami --json` or `backendUrlOf` report it (a password in it is never printed). */
  backendUrl: string;
  project: string;
  stack: string;
  /** Environment for the PostgreSQL connection (`PGPASSWORD`, `PGUSER`, `PGSSLMODE`, ...); default this process's. */
  env?: NodeJS.ProcessEnv;
  /** The directory the CLI runs in (the project's), against which a relative `file://` path resolves; default this process's. */
  workDir?: string;
}

/** Reads the lock of a stack. Never throws for a backend it does not know; throws when a known one cannot be read. */
export async function readStackLock(ref: StackRef): Promise<LockStatus> {
  const env = ref.env ?? process.env;
  const backend = parseBackendUrl(ref.backendUrl, ref.workDir ?? process.cwd());
  if (!backend)
    return { state: "unknown", why: `the backend ${maskUrls(ref.backendUrl)} keeps its locks where this tool cannot read them` };
  const locks = backend.kind === "file" ? lockFilesOnDisk(backend.root, ref) : await lockRowsInPostgres(backend.url, ref, env);
  const holders = locks.map(({ location, text }) => ({ ...parseHolder(text), location }));
  return holders.length > 0 ? { state: "held", holders } : { state: "free" };
}

/** A message naming the holders, and how to confirm that a holder is dead before `pulumi cancel`. */
export function describeLock(stack: string, holders: readonly LockHolder[]): string {
  const here = hostname();
  const lines = holders.map((holder) => {
    const who = [
      holder.pid !== undefined ? `pid ${holder.pid}` : undefined,
      holder.host ? `on ${holder.host}` : undefined,
      holder.user ? `as ${holder.user}` : undefined,
    ]
      .filter(Boolean)
      .join(" ");
    let how = "";
    if (holder.host === here && holder.pid !== undefined) {
      how = isRunning(holder.pid)
        ? ` (running on this host): \`ps -p ${holder.pid}\` shows it`
        : ` (not running on this host: the lock looks stale): \`kill -0 ${holder.pid}\` fails, and no run of this stack is under way here`;
    } else if (holder.host) {
      how = `: on ${holder.host}, \`ps -p ${holder.pid ?? "<pid>"}\`, or ask that runner whether its job has ended`;
    }
    const where = holder.location ? `\n    lock: ${holder.location}` : "";
    return `  ${who || "an unknown process"}${holder.since ? `, since ${holder.since}` : ""}${how}${where}`;
  });
  return (
    `stack ${stack} is locked by a running operation:\n${lines.join("\n")}\n` +
    "Run this again when it has finished. If it was killed (a cancelled pipeline, a lost runner), confirm that the holder is dead " +
    "first (on its host: `kill -0 <pid>` or `ps -p <pid>`; on another runner: its CI job has ended), then release the lock with `pulumi cancel`."
  );
}

/** Where the CLI's backend URL came from, in Pulumi's own order. */
export type BackendUrlSource = "env" | "project" | "credentials";

/** The backend URL the CLI would use for a project, and where it came from; or why there is none to read. */
export type BackendChoice = { url: string; source: BackendUrlSource; from: string } | { url?: undefined; why: string };

/**
 * The backend URL the Pulumi CLI uses in `workDir`, resolved as 3.259 does it without running the
 * CLI: `PULUMI_BACKEND_URL`, else the project's `backend.url` (Pulumi.json, .yaml or .yml in
 * `workDir` or the nearest directory above), else `current` of the stored login
 * (`$PULUMI_CREDENTIALS_PATH`, `$PULUMI_HOME` or `~/.pulumi`, then `credentials.json`).
 */
export function backendUrlOf(workDir: string, env: NodeJS.ProcessEnv = process.env): BackendChoice {
  const fromEnv = env["PULUMI_BACKEND_URL"];
  if (fromEnv) return { url: fromEnv, source: "env", from: "PULUMI_BACKEND_URL" };

  const projectFile = findProjectFile(resolve(workDir));
  if (projectFile) {
    let project: unknown;
    try {
      project = parseYaml(readFileSync(projectFile, "utf8"));
    } catch (error) {
      return { why: `the project file ${projectFile} could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    const url = (project as { backend?: { url?: unknown } } | null)?.backend?.url;
    if (typeof url === "string" && url !== "") return { url, source: "project", from: projectFile };
  }

  const credentialsFile = join(env["PULUMI_CREDENTIALS_PATH"] || env["PULUMI_HOME"] || join(userHome(), ".pulumi"), "credentials.json");
  let text: string;
  try {
    text = readFileSync(credentialsFile, "utf8");
  } catch {
    return { why: `no PULUMI_BACKEND_URL, no backend.url in the project and no login (${credentialsFile} does not exist)` };
  }
  let credentials: { current?: unknown; $pulumiSecureStore?: unknown };
  try {
    credentials = text.trim() === "" ? {} : (JSON.parse(text) as typeof credentials);
  } catch {
    return { why: `${credentialsFile} is not JSON` };
  }
  if (credentials.$pulumiSecureStore !== undefined)
    return { why: `${credentialsFile} is encrypted (PULUMI_CREDENTIAL_STORE): ask \`pulumi whoami --json\`` };
  if (typeof credentials.current === "string" && credentials.current !== "")
    return { url: credentials.current, source: "credentials", from: credentialsFile };
  return { why: `no PULUMI_BACKEND_URL, no backend.url in the project and no current login in ${credentialsFile}` };
}

type Backend = { kind: "file"; root: string } | { kind: "postgres"; url: URL };
type LockText = { location: string; text: string };

function parseBackendUrl(raw: string, workDir: string): Backend | undefined {
  if (raw.startsWith("file://")) {
    // As the CLI does: no percent-decoding, the query dropped, `~` is the user's home, relative to the CLI's directory.
    let path = raw.slice("file://".length).split("?")[0] ?? "";
    if (path === "~" || path.startsWith("~/")) path = join(userHome(), path.slice(1));
    return { kind: "file", root: resolve(workDir, path) };
  }
  if (/^postgres:\/\//.test(raw)) {
    try {
      return { kind: "postgres", url: new URL(raw) };
    } catch {
      throw new Error(`the backend URL ${maskUrls(raw)} is not a URL`);
    }
  }
  return undefined;
}

/** The user's home as Go's `user.Current()` has it (the password database, not `$HOME`). */
function userHome(): string {
  try {
    return userInfo().homedir || homedir();
  } catch {
    return homedir();
  }
}

function findProjectFile(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    for (const name of ["Pulumi.json", "Pulumi.yaml", "Pulumi.yml"]) if (existsSync(join(current, name))) return join(current, name);
    if (dirname(current) === current) return undefined;
  }
}

/** The lock directories of a stack, relative to the backend's root: the layout with projects, and the one before. */
function lockPrefixes(ref: StackRef): string[] {
  return [`.pulumi/locks/organization/${ref.project}/${ref.stack}/`, `.pulumi/locks/${ref.stack}/`];
}

function lockFilesOnDisk(root: string, ref: StackRef): LockText[] {
  return lockPrefixes(ref).flatMap((prefix) => {
    const dir = join(root, prefix);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    // `<uuid>.json.attrs` beside each lock is the blob library's metadata, not a lock.
    return names.filter((name) => name.endsWith(".json")).flatMap((name) => readOrNothing(join(dir, name)));
  });
}

function readOrNothing(path: string): LockText[] {
  try {
    return [{ location: path, text: readFileSync(path, "utf8") }];
  } catch {
    return []; // released between the listing and the read
  }
}

async function lockRowsInPostgres(url: URL, ref: StackRef, env: NodeJS.ProcessEnv): Promise<LockText[]> {
  const table = url.searchParams.get("table") || "pulumi_state";
  // The CLI puts the name into its SQL unquoted (so `MyTable` is the table `mytable`): the same here, for plain names only.
  if (!/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/.test(table))
    throw new Error(`the backend's table "${table}" is not a plain SQL name`);
  const path = decodeURIComponent(url.pathname);
  // The CLI keeps every blob under the URL's path: `<db>/.pulumi/...`.
  const keyPrefix = path.replace(/^\/+/, "") === "" ? "" : `${path.replace(/^\/+/, "").replace(/\/?$/, "/")}`;
  const sslmode = url.searchParams.get("sslmode") || env["PGSSLMODE"] || "require"; // lib/pq's default, as the CLI uses it
  const where = maskUrls(url.href);
  // Loaded here, an optional peer dependency: file-backend users never need the driver.
  const { Client } = requireOptional<typeof import("pg")>("pg");
  const query = async (ssl: false | Record<string, unknown>) => {
    const user = decodeURIComponent(url.username) || env["PGUSER"] || userInfo().username;
    // As libpq: the URL's userinfo, then its `password` parameter, then PGPASSWORD.
    const password = url.password ? decodeURIComponent(url.password) : (url.searchParams.get("password") ?? env["PGPASSWORD"]);
    const timeout = Number(url.searchParams.get("connect_timeout") || env["PGCONNECT_TIMEOUT"] || 10);
    const client = new Client({
      host: url.hostname.replace(/^\[(.*)\]$/, "$1") || env["PGHOST"] || "localhost",
      port: Number(url.port || env["PGPORT"] || 5432),
      user,
      ...(password !== undefined ? { password } : {}),
      database: path.replace(/^\//, "") || env["PGDATABASE"] || user,
      ssl,
      connectionTimeoutMillis: (timeout > 0 ? timeout : 10) * 1000,
      application_name: "forge-stack-lock",
    });
    try {
      await client.connect();
      const rows: LockText[] = [];
      for (const prefix of lockPrefixes(ref)) {
        const dir = `${keyPrefix}${prefix}`;
        const result = await client.query<{ key: string; blob: string | null }>(
          `SELECT key, data->>'data' AS blob FROM ${table} WHERE key LIKE $1 ORDER BY key`,
          [`${escapeLike(dir)}%`],
        );
        for (const row of result.rows) {
          const name = row.key.slice(dir.length);
          // Only the lock files of this stack: not a deeper key (another project's, under a legacy stack named `organization`).
          if (name.includes("/") || !name.endsWith(".json") || row.blob === null) continue;
          rows.push({ location: `${where} (table ${table}, key ${row.key})`, text: Buffer.from(row.blob, "base64").toString("utf8") });
        }
      }
      return rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  try {
    return await query(sslOptions(sslmode, url, env));
  } catch (error) {
    // An undefined table: no stack was ever written there, so nothing holds a lock.
    if ((error as { code?: string }).code === "42P01") return [];
    // `prefer` is TLS when the server has it, plain otherwise.
    if (sslmode === "prefer" && /does not support SSL/i.test(String(error)))
      return query(false).catch((again: unknown) => Promise.reject(readError(where, again)));
    throw readError(where, error);
  }
}

function sslOptions(sslmode: string, url: URL, env: NodeJS.ProcessEnv): false | Record<string, unknown> {
  if (sslmode === "disable" || sslmode === "allow") return false;
  const file = (name: string, variable: string) => {
    const path = url.searchParams.get(name) || env[variable];
    return path ? readFileSync(path, "utf8") : undefined;
  };
  const ca = file("sslrootcert", "PGSSLROOTCERT");
  const cert = file("sslcert", "PGSSLCERT");
  const key = file("sslkey", "PGSSLKEY");
  const files = { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  if (sslmode === "verify-full") return { ...files, rejectUnauthorized: true };
  // verify-ca, and require with a root certificate (as libpq): the chain is checked, not the host name.
  if (sslmode === "verify-ca" || (sslmode === "require" && ca))
    return { ...files, rejectUnauthorized: true, checkServerIdentity: () => undefined };
  return { ...files, rejectUnauthorized: false };
}

function readError(where: string, error: unknown): Error {
  return new Error(`could not read the stack's lock from ${where}: ${maskUrls(error instanceof Error ? error.message : String(error))}`);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function parseHolder(text: string): Omit<LockHolder, "location"> {
  try {
    const raw = JSON.parse(text) as { pid?: unknown; hostname?: unknown; username?: unknown; timestamp?: unknown };
    return {
      ...(typeof raw.pid === "number" ? { pid: raw.pid } : {}),
      ...(typeof raw.hostname === "string" ? { host: raw.hostname } : {}),
      ...(typeof raw.username === "string" ? { user: raw.username } : {}),
      ...(typeof raw.timestamp === "string" ? { since: isoTime(raw.timestamp) } : {}),
    };
  } catch {
    return {};
  }
}

/** Go's RFC 3339 with nanoseconds and the writer's offset (`...46.415496499+01:00`) as an ISO time in UTC. */
function isoTime(text: string): string {
  const date = new Date(text.replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}
