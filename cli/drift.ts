/**
 * Drift detection for pipelines (`forge-drift`): a refresh that writes nothing
 * (`pulumi refresh --preview-only`, the Automation API's `previewRefresh`), read from the
 * engine's events, reported per resource and field as text, markdown or JSON.
 */
import { isDeepStrictEqual } from "node:util";
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import { automation } from "./automation";
import { markdownCode } from "../provider/adopt/escape";
import { declaredSecrets } from "../provider/engine/declaration";
import type { ResourceOperations } from "../provider/engine/operations";
import type { ForgeClient } from "../provider/client";
import { clientsOf } from "../provider/holdings/connection";
import { holdingsOf, type ExportedDeployment } from "../provider/holdings/holdings";
import { operations, operationsOver } from "../provider/composition-root";
import { parseTypeToken } from "../provider/type-tokens";
import { lockedBy, StackLockedError } from "./lock-gate";
import { maskUrls, SECRET_MASK } from "../provider/redaction";
import { holdsSecret, plainState } from "../provider/holdings/state-values";
import { formatRotationDue, rotationsDue, type RotationDue } from "./rotation-due";
import { SIG_KEY } from "../provider/secret-marks";
import { APPLIED_KEY, currentBookkeeping, engineState } from "../provider/engine/bookkeeping";

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
  /** Pulumi type token (`pulumi-nodejs:dynamic/forge:GroupLabel` or `forge:index:GroupLabel`). */
  type: string;
  urn: string;
  /** `changed`: fields differ; `deleted`: the object is gone from the forge. */
  drift: "changed" | "deleted";
  /** The fields the program manages (those it set) that differ: the drift (empty for a deletion). */
  fields: DriftedField[];
  /** Fields the program does not set that changed too (server-side ones such as `updatedAt`,
   *  or what follows from a drifted field): named only, not drift on their own. */
  alsoChanged?: string[];
}

/** What {@link detectDrift} found. */
export interface DriftReport {
  stack: string;
  /** Resources that drifted, by name. */
  drifted: DriftedResource[];
  /** Rotating resources whose next `up` rotates (cli/rotation-due.ts): not drift. */
  rotationDue?: RotationDue[];
}

/** Where the stack is and how the CLI runs. */
export interface DriftOptions {
  /** The Pulumi project directory (where Pulumi.yaml is); default the current directory. */
  workDir?: string;
  /** Stack name; default `PULUMI_STACK`, then the workspace's selected stack. */
  stackName?: string;
  /** Extra environment for the CLI (backend, passphrase, forge connection). */
  envVars?: Record<string, string>;
  /** Stops the refresh: the CLI gets SIGINT, writes nothing, and ends once its requests in flight have. */
  signal?: AbortSignal;
}

/** Output formats of {@link formatDrift}. */
export const DRIFT_FORMATS = ["text", "markdown", "json"] as const;
/** One of {@link DRIFT_FORMATS}. */
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

const MASK = SECRET_MASK;

/**
 * Refreshes the stack without writing it and lists what drifted.
 *
 * @throws StackLockedError while a run holds the stack's lock (nothing is read).
 * @throws Error when the refresh fails (an unreachable forge, a rejected token, no such stack).
 */
export async function detectDrift(options: DriftOptions = {}): Promise<DriftReport> {
  const workDir = options.workDir ?? process.cwd();
  // One workspace with one CLI for every step: a workspace made without a CLI first runs `pulumi version`.
  const pulumiCommand = await automation().PulumiCommand.get({
    skipVersionCheck: Boolean(options.envVars?.["PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK"]),
  });
  const workspace = await automation().LocalWorkspace.create({
    workDir,
    pulumiCommand,
    ...(options.envVars ? { envVars: options.envVars } : {}),
  });
  const stackName = options.stackName ?? process.env["PULUMI_STACK"] ?? (await workspace.stack())?.name;
  if (!stackName) throw new Error(`no stack selected in ${workDir}: pass --stack <name> or set PULUMI_STACK`);
  // A run in progress (a deploy) holds the lock: its updates in flight are not drift.
  const lock = await lockedBy(workDir, stackName, options.envVars, undefined, workspace);
  if (lock) throw new StackLockedError(lock);
  const stack = await automation().Stack.select(stackName, workspace);
  // The state with its secrets in plain (the Automation API exports with --show-secrets), kept in
  // this process: which fields are secret, and their values for the comparison below; and what
  // each resource holds, on which forge (provider/holdings).
  const deployment = (await stack.exportStack()).deployment as ExportedDeployment;
  const resources = stateResources(deployment);
  const holdings = new Map(holdingsOf(deployment).resources.map((holding) => [holding.urn, holding]));
  const drifted: DriftedResource[] = [];
  const gone = new Set<string>();
  await stack.previewRefresh({
    color: "never",
    ...(options.signal ? { signal: options.signal } : {}),
    onEvent: (event: EngineEvent) => {
      // The outputs event carries what the read found (the pre-event, the state only).
      const metadata = event.resOutputsEvent?.metadata;
      // A resource read with `get` manages nothing: what changed on the forge is not its drift.
      if (!metadata || holdings.get(metadata.urn)?.role === "reads") return;
      const state = resources.get(metadata.urn);
      const found = driftOf(metadata, state?.secrets, state?.ignoreChanges);
      if (found?.drift === "deleted") gone.add(found.urn);
      if (found) drifted.push(found);
    },
  });
  const due = await afterRefresh(deployment, drifted, gone, { ...process.env, ...options.envVars }, workDir, (message) =>
    process.stderr.write(`forge-drift: ${message}\n`),
  );
  // By name, not in the order the engine's reads happened to finish: two runs over the same
  // drift print the same report, whichever face the stack uses.
  drifted.sort((a, b) => a.name.localeCompare(b.name) || a.urn.localeCompare(b.urn));
  return { stack: stackName, drifted, ...(due.length > 0 ? { rotationDue: due } : {}) };
}

/**
 * What a refresh's events cannot show, read here: the engine's events mask every secret, before
 * and after alike, so a secret the program set and someone changed by hand is found by reading
 * the object with the provider's own read and comparison, and added to `drifted` with its value
 * hidden; and the rotating resources whose rotation is due. Each resource is read on its own
 * provider's connection and forge (provider/holdings/connection.ts), as the refresh read it: a
 * stack may talk to two forges. `gone`: resources the refresh found deleted.
 */
export async function afterRefresh(
  deployment: ExportedDeployment,
  drifted: DriftedResource[],
  gone: ReadonlySet<string>,
  env: NodeJS.ProcessEnv,
  workDir: string | undefined,
  warn: (message: string) => void,
): Promise<RotationDue[]> {
  const resources = stateResources(deployment);
  const holdings = new Map(holdingsOf(deployment).resources.map((holding) => [holding.urn, holding]));
  const clientOf = clientsOf(env, workDir);
  const clientOfResource = (urn: string): Promise<ForgeClient> => {
    const holding = holdings.get(urn);
    return holding ? clientOf(holding) : Promise.reject(new Error(`${urn} is no forge resource of the state`));
  };
  const checked = [...resources.values()].filter(
    (resource) => !gone.has(resource.urn) && resource.managedSecrets.length > 0 && holdings.get(resource.urn)?.role === "manages",
  );
  for (const resource of checked) {
    const changed = await changedSecrets(resource, await clientOfResource(resource.urn));
    if (changed.length === 0) continue;
    const fields = changed.map((field) => ({ field, program: MASK, forge: MASK }));
    const entry = drifted.find((candidate) => candidate.urn === resource.urn);
    if (entry) entry.fields.push(...fields.filter((field) => !entry.fields.some((known) => known.field === field.field)));
    else
      drifted.push({
        name: resource.urn.slice(resource.urn.lastIndexOf("::") + 2),
        type: resource.type,
        urn: resource.urn,
        drift: "changed",
        fields,
      });
  }
  const managing = [...resources.values()].filter((resource) => holdings.get(resource.urn)?.role === "manages");
  return rotationsDue(managing, clientOfResource, warn);
}

/** A forge resource of the exported state, secrets in plain. */
export interface StateResource {
  urn: string;
  type: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Top-level fields that are (or hold) secrets. */
  secrets: Set<string>;
  /** Secret fields the program set: what the refresh events cannot compare. */
  managedSecrets: string[];
  /** The resource's `ignoreChanges` paths: what differs there is not drift (`pulumi preview --refresh` shows none). */
  ignoreChanges: string[];
}

/** The resources of an exported deployment by URN, secrets decoded (and remembered by the mask). */
export function stateResources(deployment: unknown): Map<string, StateResource> {
  const result = new Map<string, StateResource>();
  const listed =
    (
      deployment as {
        resources?: {
          urn: string;
          type: string;
          id?: string;
          inputs?: Record<string, unknown>;
          outputs?: Record<string, unknown>;
          ignoreChanges?: string[];
        }[];
      }
    )?.resources ?? [];
  for (const resource of listed) {
    const secrets = new Set<string>();
    for (const bag of [resource.inputs ?? {}, resource.outputs ?? {}])
      for (const [field, value] of Object.entries(bag)) if (holdsSecret(value)) secrets.add(field);
    const outputs = currentBookkeeping(plainState(resource.outputs ?? {}) as Record<string, unknown>);
    const applied = Array.isArray(outputs[APPLIED_KEY]) ? (outputs[APPLIED_KEY] as string[]) : [];
    const operations = forgeOperations(resource.type);
    if (operations) for (const field of declaredSecrets(operations.declaration)) secrets.add(field);
    result.set(resource.urn, {
      urn: resource.urn,
      type: resource.type,
      id: resource.id ?? "",
      inputs: plainState(resource.inputs ?? {}) as Record<string, unknown>,
      outputs,
      secrets,
      managedSecrets: operations && resource.id ? applied.filter((field) => secrets.has(field)) : [],
      ignoreChanges: resource.ignoreChanges ?? [],
    });
  }
  return result;
}

/** The managed secret fields of a resource whose value on the forge differs from the program's. */
async function changedSecrets(resource: StateResource, client: ForgeClient): Promise<string[]> {
  const token = parseTypeToken(resource.type);
  if (!token) return [];
  const operations = operationsOver(token.name, client);
  const read = await operations.read(resource.id, engineState(resource.outputs));
  if (!read.id) return [];
  const set = Object.fromEntries(
    resource.managedSecrets.map((field) => [field, field in resource.inputs ? resource.inputs[field] : resource.outputs[field]]),
  );
  return operations.changedInputs(ignoringChanges(read.props as Record<string, unknown>, set, resource.ignoreChanges), set);
}

/**
 * The drift one refresh step shows, or undefined when the resource matches. Drift is what the
 * engine calls drift: a field the program set (the state's `__appliedInputs`) whose value on the
 * forge differs by the resource's own comparison (the same one `pulumi preview` uses). A field the
 * program never set is not drift; server-side fields that changed with it are named apart.
 * Values are compared as they are, and secrets (`secrets`, the resource's secret outputs, and
 * anything marked secret in the event) are masked when shown.
 */
export function driftOf(
  metadata: StepEventMetadata,
  secrets: ReadonlySet<string> = new Set(),
  ignored: readonly string[] = [],
): DriftedResource | undefined {
  if (metadata.type === "pulumi:pulumi:Stack" || metadata.type.startsWith("pulumi:providers:")) return undefined;
  const base = { name: metadata.urn.slice(metadata.urn.lastIndexOf("::") + 2), type: metadata.type, urn: metadata.urn };
  if (metadata.op === "delete" || (metadata.old && metadata.new?.id === "") || (metadata.old && !metadata.new)) {
    return { ...base, drift: "deleted", fields: [] };
  }
  const before = currentBookkeeping(unwrapped(metadata.old?.outputs ?? {}) as Record<string, unknown>);
  const programInputs = unwrapped(metadata.old?.inputs ?? {}) as Record<string, unknown>;
  const operations = forgeOperations(metadata.type);
  const secret = new Set([...secrets, ...(operations ? declaredSecrets(operations.declaration) : []), ...markedSecret(metadata)]);
  const set = programValues(programInputs, before);
  const after = ignoringChanges(currentBookkeeping(unwrapped(metadata.new?.outputs ?? {}) as Record<string, unknown>), set, ignored);
  const managed = operations
    ? operations.changedInputs(after, set)
    : Object.keys(set).filter((field) => !isDeepStrictEqual(set[field], after[field]));
  const fields = managed.map((field) => shownField(field, set, after, secret));
  if (fields.length === 0) return undefined;
  const alsoChanged = alsoChangedFields(before, after, set);
  return { ...base, drift: "changed", fields, ...(alsoChanged.length > 0 ? { alsoChanged } : {}) };
}

/**
 * The fields the program set (the state's `__appliedInputs`, else its inputs) with the values it
 * set: the state's inputs, else its outputs. What drift is judged on.
 */
export function programValues(programInputs: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> {
  const applied = Array.isArray(before[APPLIED_KEY])
    ? (before[APPLIED_KEY] as string[])
    : Object.keys(programInputs).filter((field) => !field.startsWith("__"));
  return Object.fromEntries(
    applied
      .filter((field) => field in programInputs || field in before)
      .map((field) => [field, field in programInputs ? programInputs[field] : before[field]]),
  );
}

/**
 * The forge's values with every `ignoreChanges` path (`color`, `settings.flag`, `entries[0]`,
 * `tags["a.b"]`, `entries[*]`) holding the program's value instead: a difference there is not
 * drift, as `pulumi preview --refresh` shows none (the engine ignores those paths in its diff).
 * A path through a wildcard keeps the program's value of what holds the wildcard.
 */
export function ignoringChanges(
  after: Record<string, unknown>,
  program: Record<string, unknown>,
  paths: readonly string[],
): Record<string, unknown> {
  if (paths.length === 0) return after;
  const result = structuredClone(after);
  for (const path of paths) {
    const segments = [...path.matchAll(/([^.[\]"]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\]/g)].map(
      (match) => match[1] ?? match[2] ?? match[3]!,
    );
    const wildcard = segments.indexOf("*");
    const kept = wildcard >= 0 ? segments.slice(0, wildcard) : segments;
    if (kept.length === 0) return { ...structuredClone(program) };
    let into: unknown = result;
    let from: unknown = program;
    for (const segment of kept.slice(0, -1)) {
      into = typeof into === "object" && into !== null ? (into as Record<string, unknown>)[segment] : undefined;
      from = typeof from === "object" && from !== null ? (from as Record<string, unknown>)[segment] : undefined;
    }
    if (typeof into !== "object" || into === null) continue;
    const last = kept[kept.length - 1]!;
    const value = typeof from === "object" && from !== null ? (from as Record<string, unknown>)[last] : undefined;
    if (value === undefined) delete (into as Record<string, unknown>)[last];
    else (into as Record<string, unknown>)[last] = structuredClone(value);
  }
  return result;
}

/** A drifted field as reported: the program's value and the forge's, secrets masked. */
export function shownField(
  field: string,
  set: Record<string, unknown>,
  after: Record<string, unknown>,
  secret: ReadonlySet<string>,
): DriftedField {
  const show = (value: unknown) => (value !== undefined && secret.has(field) ? MASK : masked(value));
  return { field, program: show(set[field]), forge: show(after[field]) };
}

/** Fields the program does not set that differ between the state and the forge (`ignored`: left out). */
export function alsoChangedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  set: Record<string, unknown>,
  ignored: ReadonlySet<string> = new Set(),
): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) =>
      !field.startsWith("__") &&
      field !== APPLIED_KEY &&
      !(field in set) &&
      !ignored.has(field) &&
      !isDeepStrictEqual(before[field], after[field]),
  );
}

/** The engine's provider of a forge type, for its comparison rules; undefined for other types. */
function forgeOperations(type: string): ResourceOperations | undefined {
  const token = parseTypeToken(type);
  if (!token) return undefined;
  try {
    return operations(token.name);
  } catch {
    return undefined;
  }
}

/** Fields an event still shows as secret (a run without showSecrets). */
function markedSecret(metadata: StepEventMetadata): string[] {
  const bags = [metadata.old?.inputs, metadata.old?.outputs, metadata.new?.outputs].filter(
    (bag): bag is Record<string, unknown> => bag !== undefined,
  );
  return bags.flatMap((bag) => Object.keys(bag).filter((field) => holdsSecret(bag[field]) || bag[field] === MASK));
}

/** A value with the engine's secret wrappers `{sig, value}` replaced by what they hold, when they hold it. */
function unwrapped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapped);
  if (typeof value !== "object" || value === null) return value;
  if (SIG_KEY in value) return "value" in value ? unwrapped((value as { value: unknown }).value) : value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unwrapped(inner)]));
}

/** Secret values as the engine shows them, whatever shape they arrive in. */
function masked(value: unknown): unknown {
  return holdsSecret(value) ? MASK : value;
}

/** The report as text (a terminal or job log), markdown (a merge request comment, a job summary) or JSON. */
export function formatDrift(report: DriftReport, format: DriftFormat): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  return driftSection(report, format) + formatRotationDue(report.stack, report.rotationDue, format);
}

function driftSection(report: DriftReport, format: Exclude<DriftFormat, "json">): string {
  const count = report.drifted.length;
  if (format === "markdown") {
    if (count === 0) return `### No drift in stack ${markdownCode(report.stack)}\n\nThe forge matches the stack.\n`;
    const lines = [`### Drift in stack ${markdownCode(report.stack)}: ${count} resource${count === 1 ? "" : "s"}`, ""];
    for (const resource of report.drifted) {
      lines.push(
        `**${markdownCode(resource.name)}** (${shortType(resource.type)}): ${resource.drift === "deleted" ? "deleted on the forge" : "changed on the forge"}`,
        "",
      );
      if (resource.fields.length > 0) {
        lines.push("| Field | Program | Forge |", "|---|---|---|");
        for (const field of resource.fields) lines.push(`| ${markdownCode(field.field)} | ${cell(field.program)} | ${cell(field.forge)} |`);
        lines.push("");
        if (resource.alsoChanged)
          lines.push(`Also changed with it, not set by the program: ${resource.alsoChanged.map(markdownCode).join(", ")}.`, "");
      }
    }
    lines.push("Run `pulumi up` to put the program's values back, or change the program to keep the forge's.");
    return `${lines.join("\n")}\n`;
  }
  if (count === 0) return `No drift in stack ${report.stack}: the forge matches the stack.\n`;
  const lines = [`Drift in stack ${report.stack}: ${count} resource${count === 1 ? "" : "s"}`];
  for (const resource of report.drifted) {
    lines.push(
      `  ${resource.name} (${shortType(resource.type)}): ${resource.drift === "deleted" ? "deleted on the forge" : "changed on the forge"}`,
    );
    for (const field of resource.fields) lines.push(`    ${field.field}: program ${show(field.program)}, forge ${show(field.forge)}`);
    if (resource.alsoChanged) lines.push(`    (also changed with it, not set by the program: ${resource.alsoChanged.join(", ")})`);
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
  return value === undefined ? "_(none)_" : markdownCode(show(value));
}

/**
 * The CLI's own diagnostics from an Automation API error, without its long command dump, at most
 * `lines` lines, and with any password of a URL masked: the CLI prints a PostgreSQL backend's URL,
 * password and all, when the database is down.
 */
export function refreshFailure(error: unknown, lines: number): string {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = /stderr: ([\s\S]*)$/.exec(message)?.[1]?.trim();
  return maskUrls(
    (stderr || message)
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, lines)
      .join("\n"),
  );
}
