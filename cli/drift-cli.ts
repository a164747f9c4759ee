/**
 * The `forge-drift` command: arguments, one stack (cli/drift.ts) or a fleet (cli/fleet.ts), the
 * report's format and the exit status.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { detectDrift, DRIFT_FORMATS, formatDrift, refreshFailure, type DriftFormat } from "./drift";
import { DEFAULT_CONCURRENCY, DEFAULT_STACK_TIMEOUT_MS, fleetDrift, fleetExit, fleetOf, formatFleet, KILL_GRACE_MS } from "./fleet";
import { StackLockedError } from "./lock-gate";
import { buildUnmanagedReport, formatUnmanaged, unmanagedExit } from "./unmanaged-report";
import { findUnmanaged } from "./unmanaged";
import { closeClients } from "../provider/client";
import { maskedIo, type TextIo } from "../provider/redaction";

const USAGE = `usage: forge-drift [--stack <name>]... [--stacks-file <file>] [--cwd <project dir>]
                   [--format ${DRIFT_FORMATS.join("|")}] [--concurrency <n>] [--timeout <seconds>] [--preview-only]
                   [--per-stack-refresh]
       forge-drift --unmanaged (--stack <name>... | --stacks-file <file>) [--group <path>]... [--project <path>]...
                   [--instance] [--snippets] [--ignore-file <file>] [--drift] [--format ...] [--concurrency <n>]

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
one drifted, else 3 if one was locked, else 0.

--unmanaged: what no stack of the fleet holds. Lists every object of every kind in the scope
(--group: the group, its subgroups and their projects; --project; --instance: the instance's
objects, an administrator's token; --snippets: the token's user's), once for the whole fleet,
with FORGE_BASE_URL and FORGE_TOKEN; then reads each stack's state with \`pulumi stack export\`
(no refresh, no lock taken, secrets left encrypted), and reports each object no stack holds,
matched by kind and import id (a group or project by the forge's id), each read by its import id
first: kind, place, name, import id, who made it and when, and the import lines. Apart: settings
no stack declares that differ from the forge's defaults, objects held by two stacks, what the
forge made itself, what a stack that could not be read may hold ("possibly held": the report is
incomplete), and what the --ignore-file allows (YAML: ignore: [{kind, scope, name, reason}]),
with the entries that matched nothing. It never writes the forge or a stack. --drift also checks
the stacks' drift in the same run and report. Exit status: 1 if a stack's state could not be
read (or the drift check failed), else 2 drift + 4 unmanaged or held twice (6 both), else 3 if a
stack was locked or mid-run, else 0.`;

/** Exit statuses of {@link runDriftCli} (`--unmanaged` adds 4 and 6: cli/unmanaged-report.ts). */
export const EXIT = { noDrift: 0, error: 1, drift: 2, locked: 3 } as const;

/** The command line, as parsed. */
interface DriftArgs {
  stack?: string[];
  "stacks-file"?: string;
  cwd?: string;
  format?: string;
  concurrency?: string;
  timeout?: string;
  "preview-only"?: boolean;
  unmanaged?: boolean;
  group?: string[];
  project?: string[];
  instance?: boolean;
  snippets?: boolean;
  "ignore-file"?: string;
  drift?: boolean;
  "per-stack-refresh"?: boolean;
  help?: boolean;
}

/** The flags that only `--unmanaged` takes. */
const UNMANAGED_ONLY = ["group", "project", "instance", "snippets", "ignore-file", "drift"] as const;

/** The `forge-drift` command: returns its exit status. */
export async function runDriftCli(
  argv: readonly string[],
  io: { out(text: string): void; err(text: string): void } = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  },
): Promise<number> {
  // Every report and error goes out masked: a backend URL's password, the secrets of the states read.
  io = maskedIo(io);
  let values: DriftArgs;
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
        unmanaged: { type: "boolean" },
        group: { type: "string", multiple: true },
        project: { type: "string", multiple: true },
        instance: { type: "boolean" },
        snippets: { type: "boolean" },
        "ignore-file": { type: "string" },
        drift: { type: "boolean" },
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
  const unmanagedOnly = UNMANAGED_ONLY.find((flag) => values[flag] !== undefined);
  if (!values.unmanaged && unmanagedOnly) {
    io.err(`forge-drift: --${unmanagedOnly} goes with --unmanaged\n${USAGE}\n`);
    return EXIT.error;
  }
  if (values.unmanaged) return runUnmanaged(values, format, io);
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

/** A flag's positive number, or undefined when it is not given. */
function positive(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${flag} takes a positive number, not "${text}"`);
  return value;
}

/** The fleet's options of the command line: `--concurrency` and `--timeout` (seconds). */
function fleetOptions(values: DriftArgs): { concurrency?: number; timeoutMs?: number; refresh?: boolean } {
  const concurrency = positive("concurrency", values.concurrency);
  const timeout = positive("timeout", values.timeout);
  return {
    ...(concurrency !== undefined ? { concurrency: Math.floor(concurrency) } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(values["per-stack-refresh"] ? { refresh: true } : {}),
  };
}

/** `forge-drift` over several stacks (cli/fleet.ts). */
async function runFleet(values: DriftArgs, format: DriftFormat, io: TextIo): Promise<number> {
  try {
    const stacks = fleetOf(values, "forge-drift", io);
    const report = await fleetDrift(stacks, toolVersion(), fleetOptions(values));
    io.out(formatFleet(report, format));
    return fleetExit(report);
  } catch (error) {
    io.err(`forge-drift: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.error;
  }
}

/** `forge-drift --unmanaged` (cli/unmanaged.ts), with the drift of the same stacks under `--drift`. */
async function runUnmanaged(values: DriftArgs, format: DriftFormat, io: TextIo): Promise<number> {
  const started = Date.now();
  try {
    const scope = {
      groups: values.group ?? [],
      projects: values.project ?? [],
      instance: values.instance ?? false,
      snippets: values.snippets ?? false,
    };
    if (scope.groups.length + scope.projects.length === 0 && !scope.instance && !scope.snippets) {
      throw new Error("--unmanaged: say where to look: --group <path>, --project <path>, --instance or --snippets");
    }
    const stacks = fleetOf(values, "forge-drift", io);
    const options = fleetOptions(values);
    const found = await findUnmanaged({
      stacks,
      scope,
      ignoreFile: values["ignore-file"],
      ...options,
      env: process.env,
      log: (message) => io.err(`forge-drift: ${message}\n`),
    });
    // The drift of the same stacks, after the listing and the exports (its refreshes are the slow part).
    const drift = values.drift ? await fleetDrift(stacks, toolVersion(), options) : undefined;
    const report = buildUnmanagedReport({
      started,
      version: toolVersion(),
      forge: found.forge,
      scope,
      states: found.states,
      inventory: found.inventory,
      rules: found.rules,
      ignoreFile: values["ignore-file"],
      drift,
    });
    io.out(formatUnmanaged(report, format));
    return unmanagedExit(report);
  } catch (error) {
    io.err(`forge-drift: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.error;
  } finally {
    await closeClients();
  }
}

/** The package's version, for reports. */
export function toolVersion(): string {
  for (const candidate of [join(__dirname, "..", "..", "package.json"), join(__dirname, "..", "package.json")]) {
    try {
      return (JSON.parse(readFileSync(candidate, "utf8")) as { version: string }).version;
    } catch {
      // the other layout (compiled or sources)
    }
  }
  return "unknown";
}
