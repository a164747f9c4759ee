/**
 * `forge-drift` over many stacks in one process (a platform team's fleet): the stacks come from
 * repeated `--stack` and from a file listing stacks with their project directories; they run
 * with bounded concurrency and a timeout each; each forge's reachability is checked once, so an
 * unreachable forge costs one connection attempt, not a refresh's whole retry budget per stack.
 * One report (JSON for tools, markdown for a merge request or job summary, text for a log) and
 * one exit status for the run.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { BASE_URL_CONFIG_KEY, BASE_URL_ENV, TRANSPORT_SETTINGS } from "../provider/client/connection";
import { detectDrift, formatDrift, refreshFailure, type DriftedResource } from "./drift";
import { StackLockedError } from "./lock-gate";

/** One stack of the fleet: its name and its Pulumi project directory. */
export interface FleetStack {
  stack: string;
  workDir: string;
}

/** What a stack's check found: `locked` while a run (a deploy) holds its lock, so nothing was read. */
export type StackStatus = "clean" | "drift" | "error" | "locked";

/** One stack's line of the fleet report. */
export interface StackResult {
  stack: string;
  workDir: string;
  status: StackStatus;
  durationMs: number;
  /** The drifted resources (empty unless `drift`). */
  drifted: DriftedResource[];
  /** Why the check failed (`error`), or who holds the lock (`locked`). */
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
  /** A stack's check is stopped after this long (default 10 minutes) and reported as an error. */
  timeoutMs?: number;
  /** Extra environment for the CLI (backend, passphrase). */
  envVars?: Record<string, string>;
  /** Whether a forge answers, by base URL; default a TCP connection to its host and port. */
  reachable?: (baseUrl: string) => Promise<string | undefined>;
}

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_STACK_TIMEOUT_MS = 10 * 60_000;

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

/** The forge a stack talks to (`forge:baseUrl`, FORGE_BASE_URL); undefined when nothing says (the refresh then decides). */
export function forgeUrlOf(target: FleetStack, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return stackSetting(target, { config: BASE_URL_CONFIG_KEY, env: BASE_URL_ENV }, env);
}

/** Whether the stack reaches its forge through a proxy: its proxy settings, or the proxy variables undici honours. */
export function proxied(target: FleetStack, env: NodeJS.ProcessEnv = process.env): boolean {
  const settings = [TRANSPORT_SETTINGS.httpsProxy, TRANSPORT_SETTINGS.httpProxy];
  return settings.some((setting) => stackSetting(target, setting, env) !== undefined) || ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].some((name) => (env[name] ?? "") !== "");
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

/** Checks every stack of the fleet, at most `concurrency` at once, and reports them in the order given. */
export async function fleetDrift(stacks: readonly FleetStack[], version: string, options: FleetOptions = {}): Promise<FleetReport> {
  const started = Date.now();
  const env = { ...process.env, ...options.envVars };
  const reachable = options.reachable ?? tcpReachable;
  // Each forge once, however many stacks use it.
  const forges = new Map<string, Promise<string | undefined>>();
  const forgeProblem = (target: FleetStack): Promise<string | undefined> => {
    const url = forgeUrlOf(target, env);
    // Behind a proxy a direct connection says nothing: the refresh goes through the proxy.
    if (url === undefined || (!options.reachable && proxied(target, env))) return Promise.resolve(undefined);
    if (!forges.has(url)) forges.set(url, reachable(url).then((why) => (why ? `the forge ${url} cannot be reached (${why}): drift not checked` : undefined)));
    return forges.get(url)!;
  };

  const results: StackResult[] = new Array(stacks.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < stacks.length; index = next++) results[index] = await checkOne(stacks[index]!, forgeProblem, options);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, stacks.length)) }, worker));

  const summary = { stacks: results.length, clean: 0, drift: 0, error: 0, locked: 0 };
  for (const result of results) summary[result.status] += 1;
  return { generatedAt: new Date(started).toISOString(), tool: { name: "forge-drift", version }, durationMs: Date.now() - started, summary, stacks: results };
}

async function checkOne(target: FleetStack, forgeProblem: (target: FleetStack) => Promise<string | undefined>, options: FleetOptions): Promise<StackResult> {
  const started = Date.now();
  const result = (status: StackStatus, drifted: DriftedResource[] = [], message?: string): StackResult => ({
    stack: target.stack,
    workDir: target.workDir,
    status,
    durationMs: Date.now() - started,
    drifted,
    ...(message !== undefined ? { message } : {}),
  });
  const problem = await forgeProblem(target);
  if (problem) return result("error", [], problem);
  const timeoutMs = options.timeoutMs ?? DEFAULT_STACK_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const report = await detectDrift({ workDir: target.workDir, stackName: target.stack, signal: controller.signal, ...(options.envVars ? { envVars: options.envVars } : {}) });
    return result(report.drifted.length > 0 ? "drift" : "clean", report.drifted);
  } catch (error) {
    if (error instanceof StackLockedError) return result("locked", [], error.message);
    if (controller.signal.aborted) return result("error", [], `stopped after ${Math.round(timeoutMs / 1000)} s (--timeout): drift not checked`);
    return result("error", [], refreshFailure(error, 12));
  } finally {
    clearTimeout(timer);
  }
}

/** The run's exit status: 1 when a stack could not be checked, else 2 when one drifted, else 3 when one was locked, else 0. */
export function fleetExit(report: FleetReport): number {
  if (report.summary.error > 0) return 1;
  if (report.summary.drift > 0) return 2;
  if (report.summary.locked > 0) return 3;
  return 0;
}

/** The fleet report as JSON, a markdown table with each drifted stack's details, or text. */
export function formatFleet(report: FleetReport, format: "text" | "markdown" | "json"): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  const { summary } = report;
  const counts = `${summary.stacks} stacks: ${summary.drift} drifted, ${summary.clean} clean, ${summary.error} failed, ${summary.locked} locked (${seconds(report.durationMs)})`;
  const drifted = report.stacks.filter((entry) => entry.status === "drift");
  if (format === "markdown") {
    const lines = [`## Drift over ${counts}`, "", "| Stack | Project | Status | Drifted resources | Time |", "|---|---|---|---|---|"];
    for (const entry of report.stacks) {
      const what = entry.status === "drift" ? entry.drifted.map((resource) => `\`${resource.name}\``).join(", ") : (entry.message ?? "").split("\n")[0]!.replace(/\|/g, "\\|");
      lines.push(`| \`${entry.stack}\` | \`${entry.workDir}\` | ${entry.status} | ${what} | ${seconds(entry.durationMs)} |`);
    }
    lines.push("");
    for (const entry of drifted) lines.push(formatDrift({ stack: entry.stack, drifted: entry.drifted }, "markdown"));
    lines.push(`_forge-drift ${report.tool.version}, ${report.generatedAt}_`);
    return `${lines.join("\n")}\n`;
  }
  const width = Math.max(...report.stacks.map((entry) => entry.stack.length));
  const lines = [`Drift over ${counts}`];
  for (const entry of report.stacks) {
    const what = entry.status === "drift" ? `${entry.drifted.length} resource${entry.drifted.length === 1 ? "" : "s"}` : (entry.message ?? "").split("\n")[0];
    lines.push(`  ${entry.stack.padEnd(width)}  ${entry.status.padEnd(6)}  ${seconds(entry.durationMs).padStart(7)}  ${what}`);
  }
  for (const entry of drifted) lines.push("", formatDrift({ stack: entry.stack, drifted: entry.drifted }, "text").trimEnd());
  return `${lines.join("\n")}\n`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
