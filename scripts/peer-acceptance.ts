/**
 * Runs a peer's own acceptance tests against the emulator: `npm run peer:acceptance -- <compiled
 * test binary> [test names or patterns] [options]`. The binary is the user's (a Go test binary,
 * such as a Terraform provider's `go test -c -tags acceptance`); nothing of it is in this
 * repository. Each test runs alone, against an emulator of its own started for it, with the
 * environment a Terraform provider's acceptance tests read (TF_ACC, GITLAB_BASE_URL,
 * GITLAB_TOKEN, TF_ACC_TERRAFORM_PATH). The table says, per test, whether it passed, and for a
 * failure the first request the emulator refused, its status, and whether the spec has that
 * endpoint. The refused request is the one the test's own error names when it names one, else
 * the first the log shows refused. docs/emulator.md says how to build a binary and what to expect.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, createWriteStream, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ENDPOINTS, endpointName, type Endpoint } from "../api/routes";
import { OFFERINGS, type Offering, type Tier, TIERS } from "../api/editions";
import { type RunningEmulator, startEmulator } from "../emulator";

export const USAGE = `usage: npm run peer:acceptance -- <test binary> [test name or pattern ...]
  [--terraform <path>]       terraform CLI the tests drive (default: TF_ACC_TERRAFORM_PATH, then terraform on PATH)
  [--tier ${TIERS.join("|")}] [--offering ${OFFERINGS.join("|")}] [--forge-version <x.y.z>]   the emulator's edition and reported release
  [--timeout <go duration>]  per test (default 10m)
  [--logs <dir>]             where each test's output goes (default: a new directory under the system's temp)
  [--json <file>]            the table as JSON as well`;

/** What a run needs. */
export interface PeerRunOptions {
  binary: string;
  /** Test names or patterns (regular expressions matched against the whole name); none: every test the binary lists. */
  tests: string[];
  terraform: string;
  tier?: Tier;
  offering?: Offering;
  version?: string;
  timeout: string;
  logs: string;
}

/** The first request of a test the emulator refused. */
export interface RefusedRequest {
  method: string;
  path: string;
  status: number;
  /** The route table's entry that served it; null when no route did (the emulator does not have the endpoint). */
  route: string | null;
  /** `yes` (an endpoint of the spec), `outside` (the service's, served outside the spec) or `no` (not served). */
  inSpec: "yes" | "outside" | "no";
}

/** One row of the table. */
export interface PeerResult {
  test: string;
  result: "pass" | "fail" | "skip";
  /** The test's own first error line (fail) or skip reason. */
  reason?: string;
  firstRefused?: RefusedRequest;
  /** Parameters the emulator ignored during the test, by endpoint (`POST /api/v4/projects/1/protected_environments: required_approval_count`). */
  ignored: string[];
  seconds: number;
  log: string;
}

interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  route?: string | null;
  ignored?: string[];
}

/** The API's root, which clients read for its rate-limit headers: the service answers it 404 as well. */
const API_ROOT = /^\/api\/v4\/?$/;

const entries = new Map<string, Endpoint>(ENDPOINTS.map((entry) => [endpointName(entry)!, entry]));

/** Whether a logged request's endpoint is the spec's. */
function specHas(route: string | null | undefined): RefusedRequest["inSpec"] {
  if (!route) return "no";
  return entries.get(route)?.outsideSpec === undefined ? "yes" : "outside";
}

/**
 * The request that made a test fail, as far as the log tells: the first one answered 400 or
 * above, leaving out a read that found nothing on a route the emulator has (a client looking
 * for what is not there yet, or checking it is gone, gets 404 on every service) and the read of
 * the API's root (go-gitlab's first request; the service answers it 404 too).
 */
export function firstRefused(log: readonly LoggedRequest[]): RefusedRequest | undefined {
  const refused = log.find(
    (entry) => entry.status >= 400 && !(entry.method === "GET" && entry.status === 404 && (entry.route || API_ROOT.test(entry.path))),
  );
  if (!refused) return undefined;
  return {
    method: refused.method,
    path: refused.path,
    status: refused.status,
    route: refused.route ?? null,
    inSpec: specHas(refused.route),
  };
}

/**
 * The request a test's own error names (go-gitlab writes `POST http://host/api/v4/...: 404 {...}`),
 * found in the log; undefined when the error names none.
 */
export function namedRefusal(reason: string | undefined, log: readonly LoggedRequest[]): RefusedRequest | undefined {
  const named = /\b(GET|POST|PUT|PATCH|DELETE) https?:\/\/[^/\s]+(\/[^\s:]*): (\d{3})\b/.exec(reason ?? "");
  if (!named) return undefined;
  const [, method, path, status] = named;
  const entry = [...log]
    .reverse()
    .find((request) => request.method === method && request.path === path && request.status === Number(status));
  if (!entry) return undefined;
  return { method: entry.method, path: entry.path, status: entry.status, route: entry.route ?? null, inSpec: specHas(entry.route) };
}

/** The environment a Terraform provider's acceptance tests read, and nothing of the caller's own GITLAB_* settings. */
function testEnvironment(emulator: RunningEmulator, terraform: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(GITLAB_|TF_)/.test(name)));
  const root = emulator.seed.users.find((user) => user.admin)!;
  return {
    ...inherited,
    TF_ACC: "1",
    GITLAB_BASE_URL: `${emulator.url}/api/v4/`,
    GITLAB_TOKEN: root.token,
    TF_ACC_TERRAFORM_PATH: terraform,
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
  };
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  logFile?: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    const log = logFile ? createWriteStream(logFile) : undefined;
    let output = "";
    const take = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      log?.write(chunk);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.once("error", reject);
    child.once("close", (code) => {
      log?.end();
      resolvePromise({ code, output });
    });
  });
}

async function emulatorFor(options: PeerRunOptions): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    ...(options.tier ? { tier: options.tier } : {}),
    ...(options.offering ? { offering: options.offering } : {}),
    ...(options.version ? { version: options.version } : {}),
  });
}

/** The binary's tests the arguments name (all it lists when none do); a name or pattern that matches none is an error. */
export async function selectTests(options: PeerRunOptions): Promise<string[]> {
  // The binary may talk to the forge as it starts (a Terraform provider's tests fetch the current user): list against an emulator too.
  const emulator = await emulatorFor(options);
  try {
    const listed = await run(options.binary, ["-test.list", ".*"], testEnvironment(emulator, options.terraform), options.logs);
    const names = listed.output.split("\n").filter((line) => /^Test\w*$/.test(line.trim()));
    if (listed.code !== 0 || names.length === 0) {
      throw new Error(`${options.binary} -test.list listed no tests (exit ${listed.code}):\n${listed.output.slice(0, 2000)}`);
    }
    if (options.tests.length === 0) return names;
    const patterns = options.tests.map((test) => ({ test, pattern: new RegExp(`^(?:${test})$`) }));
    const unmatched = patterns.filter(({ pattern }) => !names.some((name) => pattern.test(name))).map(({ test }) => test);
    if (unmatched.length > 0) throw new Error(`no test of ${options.binary} matches ${unmatched.join(", ")}`);
    return names.filter((name) => patterns.some(({ pattern }) => pattern.test(name)));
  } finally {
    await emulator.close();
  }
}

/** The verdict of `go test -v` output for one test, with the line that says why. */
export function verdict(test: string, code: number | null, output: string): Pick<PeerResult, "result" | "reason"> {
  const lines = output.split("\n");
  const marker = (kind: string) => lines.findIndex((line) => line.trim().startsWith(`--- ${kind}: ${test} `));
  const skipped = marker("SKIP");
  if (skipped >= 0) {
    const reason = lines
      .slice(0, skipped)
      .reverse()
      .find((line) => /^\s+\S+\.go:\d+:/.test(line));
    return { result: "skip", ...(reason ? { reason: reason.trim() } : {}) };
  }
  if (code === 0 && marker("PASS") >= 0) return { result: "pass" };
  const at =
    [
      lines.findIndex((line) => /^\s+\S+_test\.go:\d+:/.test(line) && /error|fail|could not|unable|expected/i.test(line)),
      lines.findIndex((line) => /^\s*(Error|panic):/.test(line)),
      lines.findIndex((line) => /^\s+\S+\.go:\d+:/.test(line)),
    ].find((index) => index >= 0) ?? -1;
  if (at < 0) return { result: "fail", reason: `exit status ${code}` };
  // Terraform's own message follows a step's "Error running apply": that is the reason worth showing.
  const detail = lines.slice(at + 1, at + 20).find((line) => /^\s*Error: /.test(line));
  return { result: "fail", reason: [lines[at]!.trim(), detail?.trim()].filter(Boolean).join(" / ") };
}

/** Runs each test alone against a fresh emulator; calls `onResult` as each ends. */
export async function runPeerTests(
  options: PeerRunOptions,
  tests: string[],
  onResult: (result: PeerResult) => void = () => {},
): Promise<PeerResult[]> {
  const results: PeerResult[] = [];
  for (const test of tests) {
    const emulator = await emulatorFor(options);
    const started = Date.now();
    const log = join(options.logs, `${test}.log`);
    const workdir = mkdtempSync(join(options.logs, `${test}-`));
    try {
      const args = ["-test.run", `^${test}$`, "-test.v", "-test.count", "1", "-test.timeout", options.timeout];
      const { code, output } = await run(options.binary, args, testEnvironment(emulator, options.terraform), workdir, log);
      const requests = (await (await emulator.admin("/requests")).json()) as LoggedRequest[];
      const { result, reason } = verdict(test, code, output);
      const refused = result === "fail" ? (namedRefusal(reason, requests) ?? firstRefused(requests)) : undefined;
      const ignored = [
        ...new Set(
          requests.flatMap((entry) => (entry.ignored ?? []).map((name) => `${entry.method} ${entry.route ?? entry.path}: ${name}`)),
        ),
      ];
      const row: PeerResult = {
        test,
        result,
        ...(reason ? { reason } : {}),
        ...(refused ? { firstRefused: refused } : {}),
        ignored,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        log,
      };
      results.push(row);
      onResult(row);
    } finally {
      await emulator.close();
    }
  }
  return results;
}

/** The table: test, result, the first refused request with its status, whether the spec has its endpoint. */
export function table(results: readonly PeerResult[]): string {
  const header = ["test", "result", "first refused request", "status", "in spec"];
  const rows = results.map((row) => [
    row.test,
    row.result,
    row.firstRefused
      ? `${row.firstRefused.method} ${row.firstRefused.path}${row.firstRefused.route ? ` (${row.firstRefused.route})` : ""}`
      : "-",
    row.firstRefused ? String(row.firstRefused.status) : "-",
    row.firstRefused ? { yes: "yes", outside: "no (the service's, served)", no: "no (not served)" }[row.firstRefused.inSpec] : "-",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  const counts = (["pass", "fail", "skip"] as const).map((kind) => `${results.filter((row) => row.result === kind).length} ${kind}`);
  return [
    line(header),
    line(widths.map((width) => "-".repeat(width))),
    ...rows.map(line),
    "",
    `${results.length} tests: ${counts.join(", ")}`,
  ].join("\n");
}

/** Where the terraform CLI is: the option, TF_ACC_TERRAFORM_PATH, or PATH. */
function findTerraform(given: string | undefined): string {
  const candidates = given
    ? [given]
    : process.env.TF_ACC_TERRAFORM_PATH
      ? [process.env.TF_ACC_TERRAFORM_PATH]
      : (process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, "terraform"));
  const found = candidates.find((path) => path && existsSync(path) && statSync(path).isFile());
  if (!found) {
    throw new Error(
      "the acceptance framework needs a terraform CLI: give --terraform <path> or set TF_ACC_TERRAFORM_PATH (docs/emulator.md says how to build one)",
    );
  }
  return resolve(found);
}

function parse(argv: readonly string[]): PeerRunOptions & { json?: string } {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      terraform: { type: "string" },
      tier: { type: "string" },
      offering: { type: "string" },
      "forge-version": { type: "string" },
      timeout: { type: "string" },
      logs: { type: "string" },
      json: { type: "string" },
    },
  });
  const [binary, ...tests] = positionals;
  if (!binary) throw new Error(USAGE);
  const path = resolve(binary);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`${binary}: not an executable file\n${USAGE}`);
  }
  if (values.tier !== undefined && !(TIERS as readonly string[]).includes(values.tier))
    throw new Error(`invalid --tier ${values.tier}\n${USAGE}`);
  if (values.offering !== undefined && !(OFFERINGS as readonly string[]).includes(values.offering)) {
    throw new Error(`invalid --offering ${values.offering}\n${USAGE}`);
  }
  const logs = resolve(values.logs ?? mkdtempSync(join(tmpdir(), "peer-acceptance-")));
  mkdirSync(logs, { recursive: true });
  return {
    binary: path,
    tests,
    terraform: findTerraform(values.terraform),
    ...(values.tier ? { tier: values.tier as Tier } : {}),
    ...(values.offering ? { offering: values.offering as Offering } : {}),
    ...(values["forge-version"] ? { version: values["forge-version"] } : {}),
    timeout: values.timeout ?? "10m",
    logs,
    ...(values.json ? { json: resolve(values.json) } : {}),
  };
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
    return;
  }
  const tests = await selectTests(options);
  console.log(`${tests.length} tests of ${options.binary}, each against a fresh emulator; output in ${options.logs}`);
  const results = await runPeerTests(options, tests, (row) => {
    const why = row.result === "pass" ? "" : ` ${row.reason ?? ""}`;
    console.log(`${row.result.padEnd(4)} ${row.test} (${row.seconds} s)${why}`);
  });
  console.log(`\n${table(results)}`);
  const explained = results.filter((row) => row.result !== "pass" && row.reason);
  if (explained.length > 0) console.log(`\nWhat each test said:\n${explained.map((row) => `  ${row.test}: ${row.reason}`).join("\n")}`);
  const ignored = [...new Set(results.flatMap((row) => row.ignored))];
  if (ignored.length > 0)
    console.log(`\nParameters the emulator ignored, as the service drops what an endpoint does not declare:\n  ${ignored.join("\n  ")}`);
  if (options.json) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
  process.exitCode = results.some((row) => row.result === "fail") ? 1 : 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 2;
  });
}
