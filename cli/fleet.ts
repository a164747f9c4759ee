/**
 * `forge-drift` over many stacks in one process (a platform team's fleet): the stacks come from
 * repeated `--stack` and from a file listing stacks with their project directories; they run
 * with bounded concurrency and a timeout each; each forge's reachability is checked once, so an
 * unreachable forge costs one connection attempt, not a refresh's whole retry budget per stack.
 * Each stack is checked from its exported state in this process (cli/fleet-exports.ts), reads
 * shared across stacks. With `refresh` (or for a state only a refresh can judge), each stack is
 * checked by a refresh in a child process (cli/fleet-stack.ts) in a session of its own, so that
 * the timeout ends all of it: the Pulumi CLI, its language host and plugins, which would otherwise
 * wait for the forge's answers. One report (JSON for tools, markdown for a merge request or job
 * summary, text for a log) and one exit status for the run.
 */
import { fork } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { hostname } from "node:os";
import { connect } from "node:net";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parse as parseYaml } from "yaml";
import { markdownCode } from "../provider/adopt/escape";
import { BASE_URL_ENV, TRANSPORT_SETTINGS } from "../provider/client/connection";
import { recordedConfig } from "../provider/holdings/connection";
import { holdingsOf, type ExportedDeployment, type Holding } from "../provider/holdings/holdings";
import { exportDeployment } from "./stack-export";
import { detectDrift, formatDrift, refreshFailure, type DriftedResource } from "./drift";
import { checkFromExport } from "./fleet-exports";
import { SharedReads } from "./state-drift";
import { StackLockedError, stackLockStatus } from "./lock-gate";
import { endSession, sessionMembers, type EndedSession } from "./process-session";
import type { LockStatus } from "./stack-lock";

/** One stack of the fleet: its name and its Pulumi project directory. */
export interface FleetStack {
  stack: string;
  workDir: string;
}

/**
 * What a stack's check found: `locked` while a run (a deploy) holds its lock, so nothing was read;
 * `timeout` when it ran past `--timeout` and its processes were ended.
 */
export type StackStatus = "clean" | "drift" | "error" | "locked" | "timeout";

/** One stack's line of the fleet report. */
export interface StackResult {
  stack: string;
  /** The Pulumi project's name (its project file's `name`), when it could be read. */
  project?: string;
  workDir: string;
  status: StackStatus;
  durationMs: number;
  /** The drifted resources (empty unless `drift`). */
  drifted: DriftedResource[];
  /** Why the check failed (`error`), who holds the lock (`locked`), or what was ended and whether a lock was left (`timeout`). */
  message?: string;
}

/** The fleet's report. */
export interface FleetReport {
  generatedAt: string;
  tool: { name: "forge-drift"; version: string };
  durationMs: number;
  summary: { stacks: number } & Record<StackStatus, number>;
  stacks: StackResult[];
}

export interface FleetOptions {
  /** Stacks checked at once (default 4). */
  concurrency?: number;
  /**
   * A stack's check is ended after this long (default 10 minutes): SIGTERM to every process it
   * started, SIGKILL after {@link KILL_GRACE_MS} to those still running; reported as `timeout`.
   */
  timeoutMs?: number;
  /** Extra environment for the CLI (backend, passphrase). */
  envVars?: Record<string, string>;
  /** Whether a forge answers, by base URL; default a TCP connection to its host and port. */
  reachable?: (baseUrl: string) => Promise<string | undefined>;
  /**
   * Each stack by its own `pulumi refresh --preview-only` (a CLI, a language host and a plugin
   * per stack), as before the check from the exported state (cli/fleet-exports.ts), which is
   * the default and finds the same drift. A state only a refresh can judge gets one either way.
   */
  refresh?: boolean;
}

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_STACK_TIMEOUT_MS = 10 * 60_000;
/** How long a timed-out stack's processes have between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3000;
/** How long the lock of a timed-out stack is looked for (a backend that hangs must not undo the bound). */
const LOCK_READ_MS = 10_000;

/**
 * Reads a fleet file: YAML or JSON, a list (or `stacks:` holding one) of `{ stack, cwd }`; a
 * relative `cwd` is the file's directory's, and a missing one is that directory.
 */
export function readFleetFile(path: string): FleetStack[] {
  const text = readFileSync(path, "utf8");
  const parsed = parseYaml(text) as unknown;
  const list = Array.isArray(parsed) ? parsed : (parsed as { stacks?: unknown } | null)?.stacks;
  if (!Array.isArray(list)) throw new Error(`${path}: expected a list of { stack, cwd } (or stacks: with one)`);
  const base = dirname(resolve(path));
  return list.map((entry, index) => {
    const { stack, cwd } = (entry ?? {}) as { stack?: unknown; cwd?: unknown };
    if (typeof stack !== "string" || stack === "") throw new Error(`${path}: entry ${index + 1} has no stack name`);
    if (cwd !== undefined && typeof cwd !== "string") throw new Error(`${path}: entry ${index + 1} (${stack}): cwd is not a path`);
    return { stack, workDir: cwd === undefined ? base : isAbsolute(cwd) ? cwd : join(base, cwd) };
  });
}

/** The Pulumi project's name in a directory (`name` of Pulumi.yaml, .yml or .json), undefined when none can be read. */
export function projectNameOf(workDir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"]) {
    try {
      const name = (parseYaml(readFileSync(join(workDir, file), "utf8")) as { name?: unknown } | null)?.name;
      if (typeof name === "string" && name !== "") return name;
    } catch {
      // the next file name, or none
    }
  }
  return undefined;
}

/**
 * How reports name each stack: `<project>/<stack>` (a stack named `org/project/stack` as it is
 * given), so that two `prod` stacks of two projects are told apart; where two still read the
 * same, each with its directory.
 */
export function stackLabels(stacks: readonly { stack: string; workDir: string; project?: string | undefined }[]): string[] {
  const labels = stacks.map((entry) => (entry.project && !entry.stack.includes("/") ? `${entry.project}/${entry.stack}` : entry.stack));
  return labels.map((label, index) =>
    labels.filter((other) => other === label).length > 1 ? `${label} (${stacks[index]!.workDir})` : label,
  );
}

/**
 * The fleet the command line names: repeated `--stack` (of the `--cwd` project) and the stacks of
 * `--stacks-file`, each once (a repeat is said on stderr); `command` names the tool in messages.
 */
export function fleetOf(
  values: { stack?: string[] | undefined; "stacks-file"?: string | undefined; cwd?: string | undefined },
  command: string,
  io: { err(text: string): void },
): FleetStack[] {
  const workDir = resolve(values.cwd ?? process.cwd());
  const stacks = [
    ...(values.stack ?? []).map((stack) => ({ stack, workDir })),
    ...(values["stacks-file"] !== undefined ? readFleetFile(values["stacks-file"]) : []),
  ];
  if (stacks.length === 0)
    throw new Error(
      values["stacks-file"] !== undefined
        ? `${values["stacks-file"]} lists no stack`
        : "name the fleet: --stack <name> (repeatable) or --stacks-file <file>",
    );
  const { stacks: unique, repeated } = uniqueStacks(stacks);
  for (const again of repeated) io.err(`${command}: stack ${again.stack} (${again.workDir}) is named more than once: checked once\n`);
  return unique;
}

/**
 * A `forge:*` setting of a stack, as far as it can be known without the CLI: the stack's settings
 * file, then the project's `config:` (a value, or a default), then the setting's FORGE_*
 * variable. Secret settings are encrypted there: only plain ones (the address, a proxy) are read.
 */
function stackSetting(target: FleetStack, setting: { config: string; env: string }, env: NodeJS.ProcessEnv): string | undefined {
  const read = (file: string): Record<string, unknown> | undefined => {
    try {
      return (parseYaml(readFileSync(join(target.workDir, file), "utf8")) as { config?: Record<string, unknown> } | null)?.config;
    } catch {
      return undefined;
    }
  };
  const fromStack = read(`Pulumi.${target.stack}.yaml`)?.[setting.config];
  if (typeof fromStack === "string") return fromStack;
  const fromProject = read("Pulumi.yaml")?.[setting.config] as string | { value?: unknown; default?: unknown } | undefined;
  const projectValue = typeof fromProject === "string" ? fromProject : (fromProject?.value ?? fromProject?.default);
  if (typeof projectValue === "string") return projectValue;
  return env[setting.env] || undefined;
}

/**
 * The forges whose reachability says something of a state's refresh (provider/holdings): each
 * resource's recorded forge, else its provider's recorded address, else the environment's
 * FORGE_BASE_URL, as a refresh would take it; but not a forge that the resource's own provider
 * reaches through its proxy (`forge:httpsProxy`, `forge:httpProxy` recorded), where a direct
 * connection says nothing.
 */
export function forgesToProbe(deployment: ExportedDeployment, env: NodeJS.ProcessEnv): string[] {
  const throughProxy = (holding: Holding) => {
    const recorded = recordedConfig(holding.provider?.config ?? {});
    return [TRANSPORT_SETTINGS.httpsProxy, TRANSPORT_SETTINGS.httpProxy].some((setting) => recorded.get(setting.config) !== undefined);
  };
  const urls = holdingsOf(deployment)
    .resources.filter((holding) => holding.role === "manages" && !throughProxy(holding))
    .map((holding) => holding.forge.url ?? env[BASE_URL_ENV])
    .filter((url): url is string => url !== undefined && url !== "");
  return [...new Set(urls)];
}

/** Whether the stack reaches its forge through a proxy: its proxy settings, or the proxy variables undici honours. */
export function proxied(target: FleetStack, env: NodeJS.ProcessEnv = process.env): boolean {
  const settings = [TRANSPORT_SETTINGS.httpsProxy, TRANSPORT_SETTINGS.httpProxy];
  return (
    settings.some((setting) => stackSetting(target, setting, env) !== undefined) ||
    ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].some((name) => (env[name] ?? "") !== "")
  );
}

/**
 * Whether a forge's host accepts a connection (10 s): undefined when it does, else why not. A TCP
 * connection, not a request: a private CA or a token is the refresh's business, and it reports
 * those itself. Not asked where a proxy is configured (the refresh goes through it).
 */
export function tcpReachable(baseUrl: string, timeoutMs = 10_000): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return Promise.resolve(`${baseUrl} is not a URL`);
  }
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return new Promise((done) => {
    const socket = connect({ host: url.hostname, port, timeout: timeoutMs });
    socket.once("connect", () => {
      socket.destroy();
      done(undefined);
    });
    socket.once("timeout", () => {
      socket.destroy();
      done(`no answer from ${url.host} in ${Math.round(timeoutMs / 1000)} s`);
    });
    socket.once("error", (error) => done(`${url.host}: ${error.message}`));
  });
}

/**
 * The fleet with each stack once, in the order first given, and the entries that named one again:
 * the same stack name in the same project directory (symbolic links resolved).
 */
export function uniqueStacks(stacks: readonly FleetStack[]): { stacks: FleetStack[]; repeated: FleetStack[] } {
  const seen = new Set<string>();
  const unique: FleetStack[] = [];
  const repeated: FleetStack[] = [];
  for (const target of stacks) {
    let dir = resolve(target.workDir);
    try {
      dir = realpathSync(dir);
    } catch {
      // a directory that is not there: its check says so
    }
    const key = `${dir}\0${target.stack}`;
    if (seen.has(key)) repeated.push(target);
    else {
      seen.add(key);
      unique.push(target);
    }
  }
  return { stacks: unique, repeated };
}

/** Checks every stack of the fleet once, at most `concurrency` at once, and reports them in the order given. */
export async function fleetDrift(named: readonly FleetStack[], version: string, options: FleetOptions = {}): Promise<FleetReport> {
  const started = Date.now();
  const { stacks } = uniqueStacks(named);
  const env = { ...process.env, ...options.envVars };
  const reachable = options.reachable ?? tcpReachable;
  // Each forge once, however many stacks use it: the forges the stack's resources talk to, each
  // on its own provider's connection (provider/holdings), not the stack's config alone.
  const forges = new Map<string, Promise<string | undefined>>();
  const forgeProblem = async (target: FleetStack, deployment: ExportedDeployment): Promise<string | undefined> => {
    // Behind a proxy a direct connection says nothing: the refresh goes through the proxy.
    if (!options.reachable && proxied(target, env)) return undefined;
    for (const url of forgesToProbe(deployment, env)) {
      if (!forges.has(url))
        forges.set(
          url,
          reachable(url).then((why) => (why ? `the forge ${url} cannot be reached (${why}): drift not checked` : undefined)),
        );
      const problem = await forges.get(url)!;
      if (problem) return problem;
    }
    return undefined;
  };

  const results: StackResult[] = new Array(stacks.length);
  const reads = new SharedReads(options.timeoutMs ?? DEFAULT_STACK_TIMEOUT_MS);
  const checks: Promise<void>[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < stacks.length; index = next++) {
      // A check from the exported state gives its turn up once the state is read: its reads wait for those of the next stacks (cli/state-drift.ts).
      let exported!: () => void;
      const stateRead = new Promise<void>((done) => (exported = done));
      const check = checkOne(stacks[index]!, forgeProblem, options, reads, exported).then((result) => void (results[index] = result));
      checks.push(check);
      await Promise.race([check, stateRead]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, stacks.length)) }, worker));
  reads.allExported();
  await Promise.all(checks);

  const summary = { stacks: results.length, clean: 0, drift: 0, error: 0, locked: 0, timeout: 0 };
  for (const result of results) summary[result.status] += 1;
  return {
    generatedAt: new Date(started).toISOString(),
    tool: { name: "forge-drift", version },
    durationMs: Date.now() - started,
    summary,
    stacks: results,
  };
}

/** What a stack's child process answers (cli/fleet-stack.ts). */
export type StackOutcome = { status: "clean" | "drift"; drifted: DriftedResource[] } | { status: "locked" | "error"; message: string };

/** One stack's check, in this process: what the child process of {@link checkOne} runs. */
export async function checkStack(target: FleetStack): Promise<StackOutcome> {
  try {
    const report = await detectDrift({ workDir: target.workDir, stackName: target.stack });
    return { status: report.drifted.length > 0 ? "drift" : "clean", drifted: report.drifted };
  } catch (error) {
    if (error instanceof StackLockedError) return { status: "locked", message: error.message };
    return { status: "error", message: refreshFailure(error, 12) };
  }
}

/** The child process's script: compiled beside this file. */
const STACK_PROCESS = join(__dirname, "fleet-stack.js");

async function checkOne(
  target: FleetStack,
  forgeProblem: (target: FleetStack, deployment: ExportedDeployment) => Promise<string | undefined>,
  options: FleetOptions,
  reads: SharedReads,
  exported: () => void,
): Promise<StackResult> {
  const started = Date.now();
  const project = projectNameOf(target.workDir);
  const result = (status: StackStatus, drifted: DriftedResource[] = [], message?: string): StackResult => ({
    stack: target.stack,
    ...(project !== undefined ? { project } : {}),
    workDir: target.workDir,
    status,
    durationMs: Date.now() - started,
    drifted,
    ...(message !== undefined ? { message } : {}),
  });
  let timeoutMs = options.timeoutMs ?? DEFAULT_STACK_TIMEOUT_MS;
  if (!options.refresh) {
    const checked = await checkFromExport(target, reads, timeoutMs, options.envVars, exported, (deployment) =>
      forgeProblem(target, deployment),
    );
    if (checked.status !== "refresh")
      return "drifted" in checked ? result(checked.status, checked.drifted) : result(checked.status, [], checked.message);
    timeoutMs = Math.max(1, timeoutMs - (Date.now() - started));
  } else {
    // The forges its resources talk to, from its state (one export without secrets), before a
    // refresh spends its retry budget on one that is down; within the stack's bound. A state that
    // cannot be exported is the refresh's to report.
    const signal = AbortSignal.timeout(timeoutMs);
    const env = { ...process.env, ...options.envVars };
    const deployment = await exportDeployment({ stack: target.stack, workDir: target.workDir, env, signal }).catch(() => undefined);
    if (signal.aborted)
      return result(
        "timeout",
        [],
        `timed out after ${Math.round(timeoutMs / 1000)} s (--timeout), drift not checked: its state's export was ended`,
      );
    const problem = deployment && (await forgeProblem(target, deployment));
    if (problem) return result("error", [], problem);
    timeoutMs = Math.max(1, timeoutMs - (Date.now() - started));
  }
  // `detached`: a session of its own (setsid), which everything the check starts stays in. Its
  // stderr is this process's (the lock reader's warnings); it writes nothing else. `advanced`:
  // the answer arrives as it was (a field gone from the forge stays `undefined`).
  const child = fork(STACK_PROCESS, [], {
    detached: true,
    env: { ...process.env, ...options.envVars },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    serialization: "advanced",
  });
  const answered = new Promise<StackOutcome | string>((done) => {
    child.once("message", (message) => done(message as StackOutcome));
    child.on("error", (error) => done(`the check could not start: ${error.message}`));
    // After every message was read.
    child.once("close", (code, signal) => done(`the check ended without an answer (${signal ?? `exit ${code}`})`));
  });
  child.send(target);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([answered, new Promise<"timeout">((done) => (timer = setTimeout(() => done("timeout"), timeoutMs)))]);
  clearTimeout(timer);
  if (child.pid === undefined) return result("error", [], typeof outcome === "string" ? outcome : "the check could not start");
  if (outcome === "timeout") {
    const ended = await endSession(child.pid, KILL_GRACE_MS);
    const lock = await Promise.race([
      stackLockStatus(target.workDir, target.stack, options.envVars).catch((error: unknown): LockStatus => ({
        state: "unknown",
        why: error instanceof Error ? error.message : String(error),
      })),
      // Not holding the process open once the read has answered.
      sleep(LOCK_READ_MS, undefined, { ref: false }).then((): LockStatus => ({
        state: "unknown",
        why: `no answer from the backend in ${LOCK_READ_MS / 1000} s`,
      })),
    ]);
    return result("timeout", [], timeoutMessage(target, options.timeoutMs ?? DEFAULT_STACK_TIMEOUT_MS, ended, lock));
  }
  // Whatever the check left running (a plugin its CLI did not stop) ends with it.
  if (sessionMembers(child.pid).length > 0) await endSession(child.pid, KILL_GRACE_MS);
  if (typeof outcome === "string") return result("error", [], outcome);
  return "drifted" in outcome ? result(outcome.status, outcome.drifted) : result(outcome.status, [], outcome.message);
}

/**
 * A timed-out stack's line: what was ended, and whether it left the stack's lock (a holder on this
 * host among the ended processes) with the command that releases it. The check only reads (a
 * refresh with `--preview-only` takes no lock on the self-managed backends), so a lock left is
 * not expected; it is looked for all the same.
 */
export function timeoutMessage(target: FleetStack, timeoutMs: number, ended: EndedSession, lock: LockStatus): string {
  const processes = ended.pids.length === 1 ? "its process was" : `its ${ended.pids.length} processes were`;
  const killed = ended.killed.length > 0 ? `; SIGKILL for ${ended.killed.length} still running after ${KILL_GRACE_MS / 1000} s` : "";
  const head = `timed out after ${Math.round(timeoutMs / 1000)} s (--timeout), drift not checked: ${processes} ended (SIGTERM${killed})`;
  const cancel = `\`pulumi cancel --yes --stack ${target.stack}\` in ${target.workDir}`;
  if (lock.state === "unknown")
    return `${head}; whether it left the stack's lock could not be checked (${lock.why}): if one was left, ${cancel} releases it`;
  const here = hostname();
  const left =
    lock.state === "held"
      ? lock.holders.filter((holder) => holder.host === here && holder.pid !== undefined && ended.pids.includes(holder.pid))
      : [];
  if (left.length === 0) return `${head}; it left no lock on the stack`;
  const where = left.map((holder) => holder.location ?? `pid ${holder.pid}`).join(", ");
  return `${head}; it left the stack's lock (${where}), and nothing of it runs any more: release it with ${cancel}`;
}

/** The run's exit status: 1 when a stack could not be checked (an error, a timeout), else 2 when one drifted, else 3 when one was locked, else 0. */
export function fleetExit(report: FleetReport): number {
  if (report.summary.error > 0 || report.summary.timeout > 0) return 1;
  if (report.summary.drift > 0) return 2;
  if (report.summary.locked > 0) return 3;
  return 0;
}

/** The fleet report as JSON, a markdown table with each drifted stack's details, or text. */
export function formatFleet(report: FleetReport, format: "text" | "markdown" | "json"): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  const { summary } = report;
  const timedOut = summary.timeout > 0 ? `, ${summary.timeout} timed out` : "";
  const counts = `${summary.stacks} stacks: ${summary.drift} drifted, ${summary.clean} clean, ${summary.error} failed, ${summary.locked} locked${timedOut} (${seconds(report.durationMs)})`;
  const drifted = report.stacks.filter((entry) => entry.status === "drift");
  if (format === "markdown") {
    const lines = [`## Drift over ${counts}`, "", "| Stack | Project | Status | Drifted resources | Time |", "|---|---|---|---|---|"];
    for (const entry of report.stacks) {
      const what =
        entry.status === "drift"
          ? entry.drifted.map((resource) => markdownCode(resource.name)).join(", ")
          : markdownCode((entry.message ?? "").split("\n")[0]!);
      lines.push(
        `| ${markdownCode(entry.stack)} | ${markdownCode(entry.workDir)} | ${entry.status} | ${what} | ${seconds(entry.durationMs)} |`,
      );
    }
    lines.push("");
    for (const entry of drifted) lines.push(formatDrift({ stack: entry.stack, drifted: entry.drifted }, "markdown"));
    lines.push(`_forge-drift ${report.tool.version}, ${report.generatedAt}_`);
    return `${lines.join("\n")}\n`;
  }
  // A stack by project and stack: two `prod` stacks of two projects read apart in a log too.
  const labels = stackLabels(report.stacks);
  const width = Math.max(...labels.map((label) => label.length));
  const statusWidth = Math.max(6, ...report.stacks.map((entry) => entry.status.length));
  const lines = [`Drift over ${counts}`];
  report.stacks.forEach((entry, index) => {
    const what =
      entry.status === "drift"
        ? `${entry.drifted.length} resource${entry.drifted.length === 1 ? "" : "s"}`
        : (entry.message ?? "").split("\n")[0];
    lines.push(`  ${labels[index]!.padEnd(width)}  ${entry.status.padEnd(statusWidth)}  ${seconds(entry.durationMs).padStart(7)}  ${what}`);
  });
  report.stacks.forEach((entry, index) => {
    if (entry.status === "drift") lines.push("", formatDrift({ stack: labels[index]!, drifted: entry.drifted }, "text").trimEnd());
  });
  return `${lines.join("\n")}\n`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
