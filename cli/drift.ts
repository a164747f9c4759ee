/**
 * Drift detection for pipelines (`forge-drift`): a refresh that writes nothing
 * (`pulumi refresh --preview-only`, the Automation API's `previewRefresh`), read from the
 * engine's events, reported per resource and field as text, markdown or JSON.
 */
import { isDeepStrictEqual, parseArgs } from "node:util";
import { LocalWorkspace, type EngineEvent, type StepEventMetadata } from "@pulumi/pulumi/automation";

/** One field whose value on the forge differs from the stack's. */
export interface DriftedField {
  /** Top-level property name, as the resource declares it. */
  field: string;
  /** The value the program last applied (the stack's state); secrets read `[secret]`. */
  program: unknown;
  /** The value the forge holds now; undefined when the field is gone. Secrets read `[secret]`. */
  forge: unknown;
}

/** A resource that no longer matches the stack. */
export interface DriftedResource {
  /** Logical name in the program. */
  name: string;
  /** Pulumi type token (`pulumi-nodejs:dynamic/forge:GroupLabel`). */
  type: string;
  urn: string;
  /** `changed`: fields differ; `deleted`: the object is gone from the forge. */
  drift: "changed" | "deleted";
  /** The differing fields (empty for a deletion). */
  fields: DriftedField[];
}

/** What {@link detectDrift} found. */
export interface DriftReport {
  stack: string;
  /** Resources that drifted, in the engine's order. */
  drifted: DriftedResource[];
}

/** Where the stack is and how the CLI runs. */
export interface DriftOptions {
  /** The Pulumi project directory (where Pulumi.yaml is); default the current directory. */
  workDir?: string;
  /** Stack name; default `PULUMI_STACK`, then the workspace's selected stack. */
  stackName?: string;
  /** Extra environment for the CLI (backend, passphrase, forge connection). */
  envVars?: Record<string, string>;
}

/** Output formats of {@link formatDrift}. */
export const DRIFT_FORMATS = ["text", "markdown", "json"] as const;
/** One of {@link DRIFT_FORMATS}. */
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

const MASK = "[secret]";

/**
 * Refreshes the stack without writing it and lists what drifted.
 *
 * @throws Error when the refresh fails (an unreachable forge, a rejected token, no such stack).
 */
export async function detectDrift(options: DriftOptions = {}): Promise<DriftReport> {
  const workDir = options.workDir ?? process.cwd();
  const workspace = await LocalWorkspace.create({ workDir, ...(options.envVars ? { envVars: options.envVars } : {}) });
  const stackName = options.stackName ?? process.env["PULUMI_STACK"] ?? (await workspace.stack())?.name;
  if (!stackName) throw new Error(`no stack selected in ${workDir}: pass --stack <name> or set PULUMI_STACK`);
  const stack = await LocalWorkspace.selectStack({ stackName, workDir }, { ...(options.envVars ? { envVars: options.envVars } : {}) });
  const drifted: DriftedResource[] = [];
  await stack.previewRefresh({
    color: "never",
    onEvent: (event: EngineEvent) => {
      // The outputs event carries what the read found (the pre-event, the state only).
      const metadata = event.resOutputsEvent?.metadata;
      const found = metadata ? driftOf(metadata) : undefined;
      if (found) drifted.push(found);
    },
  });
  return { stack: stackName, drifted };
}

/** The drift one refresh step shows, or undefined when the resource matches. */
export function driftOf(metadata: StepEventMetadata): DriftedResource | undefined {
  if (metadata.type === "pulumi:pulumi:Stack" || metadata.type.startsWith("pulumi:providers:")) return undefined;
  const base = { name: metadata.urn.slice(metadata.urn.lastIndexOf("::") + 2), type: metadata.type, urn: metadata.urn };
  if (metadata.op === "delete" || (metadata.old && metadata.new?.id === "") || (metadata.old && !metadata.new)) {
    return { ...base, drift: "deleted", fields: [] };
  }
  const before = metadata.old?.outputs ?? {};
  const after = metadata.new?.outputs ?? {};
  const programInputs = metadata.old?.inputs ?? {};
  const fields: DriftedField[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    // Secrets compare as the engine shows them (masked): a secret's change cannot be seen.
    if (field.startsWith("__") || isDeepStrictEqual(masked(before[field]), masked(after[field]))) continue;
    fields.push({ field, program: masked(field in programInputs ? programInputs[field] : before[field]), forge: masked(after[field]) });
  }
  return fields.length > 0 ? { ...base, drift: "changed", fields } : undefined;
}

/** Secret values as the engine shows them, whatever shape they arrive in. */
function masked(value: unknown): unknown {
  if (typeof value === "object" && value !== null && "4dabf18193072939515e22adb298388d" in value) return MASK;
  return value;
}

/** The report as text (a terminal or job log), markdown (a merge request comment, a job summary) or JSON. */
export function formatDrift(report: DriftReport, format: DriftFormat): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  const count = report.drifted.length;
  if (format === "markdown") {
    if (count === 0) return `### No drift in stack \`${report.stack}\`\n\nThe forge matches the stack.\n`;
    const lines = [`### Drift in stack \`${report.stack}\`: ${count} resource${count === 1 ? "" : "s"}`, ""];
    for (const resource of report.drifted) {
      lines.push(`**\`${resource.name}\`** (${shortType(resource.type)}): ${resource.drift === "deleted" ? "deleted on the forge" : "changed on the forge"}`, "");
      if (resource.fields.length > 0) {
        lines.push("| Field | Program | Forge |", "|---|---|---|");
        for (const field of resource.fields) lines.push(`| \`${field.field}\` | ${cell(field.program)} | ${cell(field.forge)} |`);
        lines.push("");
      }
    }
    lines.push("Run `pulumi up` to put the program's values back, or change the program to keep the forge's.");
    return `${lines.join("\n")}\n`;
  }
  if (count === 0) return `No drift in stack ${report.stack}: the forge matches the stack.\n`;
  const lines = [`Drift in stack ${report.stack}: ${count} resource${count === 1 ? "" : "s"}`];
  for (const resource of report.drifted) {
    lines.push(`  ${resource.name} (${shortType(resource.type)}): ${resource.drift === "deleted" ? "deleted on the forge" : "changed on the forge"}`);
    for (const field of resource.fields) lines.push(`    ${field.field}: program ${show(field.program)}, forge ${show(field.forge)}`);
  }
  return `${lines.join("\n")}\n`;
}

function shortType(type: string): string {
  return type.slice(type.lastIndexOf(":") + 1);
}

function show(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}

function cell(value: unknown): string {
  return value === undefined ? "_(none)_" : `\`${show(value).replace(/\|/g, "\\|").replace(/`/g, "'")}\``;
}

const USAGE = `usage: forge-drift [--stack <name>] [--cwd <project dir>] [--format ${DRIFT_FORMATS.join("|")}] [--preview-only]

Refreshes the stack without writing it (pulumi refresh --preview-only) and prints which
resources drifted on the forge. Exit status: 0 no drift, 2 drift, 1 error.`;

/** Exit statuses of {@link runDriftCli}. */
export const EXIT = { noDrift: 0, error: 1, drift: 2 } as const;

/** The `forge-drift` command: returns its exit status. */
export async function runDriftCli(
  argv: readonly string[],
  io: { out(text: string): void; err(text: string): void } = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
): Promise<number> {
  let values: { stack?: string; cwd?: string; format?: string; "preview-only"?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stack: { type: "string", short: "s" },
        cwd: { type: "string", short: "C" },
        format: { type: "string", short: "f" },
        // Always on: the command never writes the stack. Accepted so pipelines can say so.
        "preview-only": { type: "boolean" },
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
  try {
    const report = await detectDrift({
      ...(values.cwd !== undefined ? { workDir: values.cwd } : {}),
      ...(values.stack !== undefined ? { stackName: values.stack } : {}),
    });
    io.out(formatDrift(report, format));
    return report.drifted.length > 0 ? EXIT.drift : EXIT.noDrift;
  } catch (error) {
    io.err(`forge-drift: the refresh failed, drift unknown:\n${refreshFailure(error)}\n`);
    return EXIT.error;
  }
}

/** The CLI's own diagnostics from an Automation API error, without its long command dump. */
function refreshFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = /stderr: ([\s\S]*)$/.exec(message)?.[1]?.trim();
  const diagnostics = (stderr || message).split("\n").filter((line) => line.trim() !== "");
  return diagnostics.slice(0, 40).join("\n");
}
