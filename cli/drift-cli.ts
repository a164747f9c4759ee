/**
 * The `forge-drift` command: arguments, one stack (cli/drift.ts) or a fleet (cli/fleet.ts), the
 * report's format and the exit status.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { detectDrift, DRIFT_FORMATS, formatDrift, refreshFailure, type DriftFormat } from "./drift";
import { DEFAULT_CONCURRENCY, DEFAULT_STACK_TIMEOUT_MS, fleetDrift, fleetExit, formatFleet, KILL_GRACE_MS, readFleetFile, uniqueStacks } from "./fleet";
import { StackLockedError } from "./lock-gate";
import { maskedIo } from "../provider/redaction";

const USAGE = `usage: forge-drift [--stack <name>]... [--stacks-file <file>] [--cwd <project dir>]
                   [--format ${DRIFT_FORMATS.join("|")}] [--concurrency <n>] [--timeout <seconds>] [--preview-only]
                   [--per-stack-refresh]

Refreshes the stack without writing it (pulumi refresh --preview-only) and prints which
resources drifted on the forge. While a run (a deploy) holds the stack's lock, it reads nothing:
the run's own changes in flight are not drift. Exit status: 0 no drift, 2 drift, 1 error,
3 the stack is locked.

A fleet: repeat --stack (stacks of the --cwd project), and/or give --stacks-file, a YAML or JSON
list of { stack, cwd } (cwd relative to the file); a stack named twice (same name, same
directory) is checked once. Each stack's state is read with one \`pulumi stack export\` (secrets kept in
memory, never printed) and its objects are read and compared in this process, as a refresh would,
reads shared across stacks under the same parent; --per-stack-refresh runs a refresh per stack
instead (slower, the same answers). The stacks are checked in one call, --concurrency at a time (default
${DEFAULT_CONCURRENCY}); each forge's reachability is checked once. --timeout (seconds, default ${DEFAULT_STACK_TIMEOUT_MS / 1000}) bounds
each stack: at its end its export is ended and its reads given up (with --per-stack-refresh, every
process of its refresh gets SIGTERM, and SIGKILL ${KILL_GRACE_MS / 1000} s later if still running); the stack is
reported as timeout, with whether it left the stack's lock and the command that releases it. One report: per
stack clean, drift, error, locked or timeout, with its time; JSON adds generatedAt, the tool's
version and a summary. Exit status: 1 if a stack could not be checked (error, timeout), else 2 if
one drifted, else 3 if one was locked, else 0.`;

/** Exit statuses of {@link runDriftCli}. */
export const EXIT = { noDrift: 0, error: 1, drift: 2, locked: 3 } as const;

/** The `forge-drift` command: returns its exit status. */
export async function runDriftCli(
  argv: readonly string[],
  io: { out(text: string): void; err(text: string): void } = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
): Promise<number> {
  // Every report and error goes out masked: a backend URL's password, the secrets of the states read.
  io = maskedIo(io);
  let values: { stack?: string[]; "stacks-file"?: string; cwd?: string; format?: string; concurrency?: string; timeout?: string; "preview-only"?: boolean; "per-stack-refresh"?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stack: { type: "string", short: "s", multiple: true },
        "stacks-file": { type: "string" },
        cwd: { type: "string", short: "C" },
        format: { type: "string", short: "f" },
        concurrency: { type: "string" },
        timeout: { type: "string" },
        // Always on: the command never writes the stack. Accepted so pipelines can say so.
        "preview-only": { type: "boolean" },
        "per-stack-refresh": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    io.err(`forge-drift: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return EXIT.error;
  }
  if (values.help) {
    io.out(`${USAGE}\n`);
    return EXIT.noDrift;
  }
  const format = (values.format ?? "text") as DriftFormat;
  if (!DRIFT_FORMATS.includes(format)) {
    io.err(`forge-drift: unknown --format ${values.format}: one of ${DRIFT_FORMATS.join(", ")}\n`);
    return EXIT.error;
  }
  const named = values.stack ?? [];
  if (named.length > 1 || values["stacks-file"] !== undefined) return runFleet(values, format, io);
  try {
    const report = await detectDrift({
      ...(values.cwd !== undefined ? { workDir: values.cwd } : {}),
      ...(named[0] !== undefined ? { stackName: named[0] } : {}),
    });
    io.out(formatDrift(report, format));
    return report.drifted.length > 0 ? EXIT.drift : EXIT.noDrift;
  } catch (error) {
    if (error instanceof StackLockedError) {
      io.err(`forge-drift: ${error.message}\nDrift was not checked.\n`);
      return EXIT.locked;
    }
    io.err(`forge-drift: the refresh failed, drift unknown:\n${refreshFailure(error, 40)}\n`);
    return EXIT.error;
  }
}

/** `forge-drift` over several stacks (cli/fleet.ts). */
async function runFleet(
  values: { stack?: string[]; "stacks-file"?: string; cwd?: string; concurrency?: string; timeout?: string; "per-stack-refresh"?: boolean },
  format: DriftFormat,
  io: { out(text: string): void; err(text: string): void },
): Promise<number> {
  const positive = (flag: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${flag} takes a positive number, not "${text}"`);
    return value;
  };
  try {
    const workDir = resolve(values.cwd ?? process.cwd());
    const stacks = [...(values.stack ?? []).map((stack) => ({ stack, workDir })), ...(values["stacks-file"] !== undefined ? readFleetFile(values["stacks-file"]) : [])];
    if (stacks.length === 0) throw new Error(`${values["stacks-file"]} lists no stack`);
    for (const again of uniqueStacks(stacks).repeated) io.err(`forge-drift: stack ${again.stack} (${again.workDir}) is named more than once: checked once\n`);
    const concurrency = positive("concurrency", values.concurrency);
    const timeout = positive("timeout", values.timeout);
    const report = await fleetDrift(stacks, toolVersion(), {
      ...(concurrency !== undefined ? { concurrency: Math.floor(concurrency) } : {}),
      ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
      ...(values["per-stack-refresh"] ? { refresh: true } : {}),
    });
    io.out(formatFleet(report, format));
    return fleetExit(report);
  } catch (error) {
    io.err(`forge-drift: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.error;
  }
}

/** The package's version, for reports. */
function toolVersion(): string {
  for (const candidate of [join(__dirname, "..", "..", "package.json"), join(__dirname, "..", "package.json")]) {
    try {
      return (JSON.parse(readFileSync(candidate, "utf8")) as { version: string }).version;
    } catch {
      // the other layout (compiled or sources)
    }
  }
  return "unknown";
}
