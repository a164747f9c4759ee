/**
 * The report of `forge-drift --unmanaged`: what no stack of the fleet holds, as JSON (for tools,
 * with a schema version and the zod schema below, `pulumi-forge/unmanaged`), markdown (a merge
 * request or a job summary) or text (a log), and the run's exit status.
 *
 * Exit status, one meaning shared with forge-drift's: 0 nothing found; 1 an error (a stack whose
 * state could not be read, so the report is incomplete; a forge that cannot be listed; a drift
 * check that failed); else 2 drift, 4 unmanaged objects or objects held twice, 6 both (2 + 4);
 * else 3 a stack was locked or mid-run, or may hold objects of this forge (what it may hold is withheld), else 0.
 */
import { z } from "zod";
import type { FoundObject, Inventory } from "../provider/adopt/inventory";
import type { IgnoreRule } from "../provider/adopt/ignore";
import { markdownCode, printable, shellWord, typescript, yaml } from "../provider/adopt/escape";
import { pluginToken } from "../provider/type-tokens";
import { fleetExit, formatFleet, type FleetReport } from "./fleet";
import type { StackState } from "./fleet-state";

/** The version of the JSON report's shape: raised when a field changes meaning or goes; new fields keep it. */
export const UNMANAGED_SCHEMA_VERSION = 1;

/** Exit statuses of `forge-drift --unmanaged` (with `--drift`, drift's own combine with them). */
export const UNMANAGED_EXIT = { clean: 0, error: 1, drift: 2, locked: 3, found: 4, driftAndFound: 6 } as const;

const driftedResourceSchema = z.object({
  name: z.string(),
  type: z.string(),
  urn: z.string(),
  drift: z.enum(["changed", "deleted"]),
  fields: z.array(z.object({ field: z.string(), program: z.unknown(), forge: z.unknown() })),
  alsoChanged: z.array(z.string()).optional(),
});

/** forge-drift's fleet report (`--format json` without `--unmanaged`), as the `drift` part of an unmanaged report carries it. */
const fleetReportSchema = z.object({
  generatedAt: z.string(),
  tool: z.object({ name: z.literal("forge-drift"), version: z.string() }),
  durationMs: z.number(),
  summary: z.object({
    stacks: z.number(),
    clean: z.number(),
    drift: z.number(),
    error: z.number(),
    locked: z.number(),
    timeout: z.number(),
  }),
  stacks: z.array(
    z.object({
      stack: z.string(),
      project: z.string().optional(),
      workDir: z.string(),
      status: z.enum(["clean", "drift", "error", "locked", "timeout"]),
      durationMs: z.number(),
      drifted: z.array(driftedResourceSchema),
      message: z.string().optional(),
    }),
  ),
});

/** One object of the forge in the report. */
const objectSchema = z.object({
  /** The resource that declares it (`GroupLabel`). */
  kind: z.string(),
  /** Its type token on the plugin face (`forge:index:GroupLabel`). */
  type: z.string(),
  scope: z.enum(["group", "project", "instance", "user"]),
  /** The group's or project's full path; the token's user's username for `user`; empty for the instance. */
  path: z.string(),
  /** The object's own name (a label's name, a member's username, a message's text). */
  name: z.string(),
  importId: z.string(),
  /** The logical name forge-adopt gives it, as the import lines use it. */
  resourceName: z.string(),
  /** When the forge says it was made. */
  createdAt: z.string().optional(),
  /** Who made it, where the forge says. */
  createdBy: z.string().optional(),
  /** How to take it into a stack. */
  import: z.object({
    /** `pulumi import <type> <name> <id>`: a Pulumi YAML project, or any on the plugin face (it prints the declaration); absent when no shell word can hold the id. */
    command: z.string().optional(),
    /** The resource option in Pulumi YAML: `import: <id>` under `options:`. */
    yaml: z.string(),
    /** The resource option of a TypeScript declaration (the dynamic classes too): `{ import: "<id>" }`. */
    typescript: z.string(),
  }),
});

const holderSchema = z.object({ stack: z.string(), resource: z.string(), id: z.string(), type: z.string() });

/** The JSON report of `forge-drift --unmanaged`, for tools: `unmanagedReportSchema.parse(JSON.parse(text))`. */
export const unmanagedReportSchema = z.object({
  schemaVersion: z.literal(UNMANAGED_SCHEMA_VERSION),
  generatedAt: z.string(),
  tool: z.object({ name: z.literal("forge-drift"), version: z.string() }),
  durationMs: z.number(),
  /** The forge listed (its base URL). */
  forge: z.string(),
  /** What was listed. */
  scope: z.object({ groups: z.array(z.string()), projects: z.array(z.string()), instance: z.boolean(), snippets: z.boolean() }),
  /** False when a stack could not be read, or may hold more than its state shows: the objects it may hold are under `possiblyHeld`, never `unmanaged`. */
  complete: z.boolean(),
  summary: z.object({
    stacks: z.number(),
    /** Stacks whose state could not be read. */
    unread: z.number(),
    /** Stacks read that may hold more (a run held the lock, or creates were pending). */
    partial: z.number(),
    /** Stacks read whose resources all talk to another forge: they hold nothing here. */
    elsewhere: z.number(),
    /** Objects the listings showed, of them held by a stack, and listed but gone when read by import id (not reported). */
    listed: z.number(),
    held: z.number(),
    gone: z.number(),
    unmanaged: z.number(),
    settings: z.number(),
    heldTwice: z.number(),
    possiblyHeld: z.number(),
    forgeOwn: z.number(),
    ignored: z.number(),
    staleRules: z.number(),
  }),
  stacks: z.array(
    z.object({
      stack: z.string(),
      /** `<project>/<stack>`, as the lists below name it. */
      label: z.string(),
      workDir: z.string(),
      status: z.enum(["read", "partial", "unread", "elsewhere"]),
      /** How many objects of this forge its resources hold (a rotating resource holds two credentials). */
      resources: z.number(),
      /** How many objects of this forge it may hold (a resource whose forge may be this one, a pending import): no verdict on them. */
      possiblyHeld: z.number(),
      /** Its resources on another forge (read from each resource's own provider, never the stack's config), and those forges. */
      elsewhere: z.object({ resources: z.number(), forges: z.array(z.string()) }),
      message: z.string().optional(),
      durationMs: z.number(),
    }),
  ),
  /** Objects no stack holds. */
  unmanaged: z.array(objectSchema),
  /** Settings (group settings, job token scopes, error tracking settings, feature gates) no stack declares that differ from the forge's defaults. */
  settings: z.array(objectSchema),
  /** Import ids held by more than one resource of the fleet: a destroy of one deletes what the other holds. */
  heldTwice: z.array(z.object({ kind: z.string(), importId: z.string(), holders: z.array(holderSchema) })),
  /** What no stack that was read holds and a stack that was not (or was mid-run) may: no verdict. */
  possiblyHeld: z.array(objectSchema.extend({ possiblyHeldBy: z.array(z.string()) })),
  /** What the forge made by itself (a project creator's membership, settings at their defaults), with why. */
  forgeOwn: z.array(objectSchema.extend({ why: z.string() })),
  /** What the ignore file allows outside code: the entry (from 1) that matched first. */
  ignored: z.array(objectSchema.extend({ rule: z.number() })),
  /** The ignore file, and each of its entries with how many objects it matched (0: stale). */
  ignoreFile: z.string().optional(),
  ignoreRules: z.array(
    z.object({
      entry: z.number(),
      kind: z.array(z.string()).optional(),
      scope: z.array(z.string()).optional(),
      name: z.array(z.string()).optional(),
      reason: z.string(),
      matched: z.number(),
    }),
  ),
  /** Kinds a place could not be listed for, with the forge's answer (a tier without the feature, a role too low). */
  skipped: z.array(z.object({ what: z.string(), reason: z.string() })),
  /** With `--drift`: forge-drift's fleet report of the same stacks. */
  drift: fleetReportSchema.optional(),
});

/** The report `forge-drift --unmanaged --format json` writes. */
export type UnmanagedReport = z.infer<typeof unmanagedReportSchema>;
type ReportObject = z.infer<typeof objectSchema>;

/** What {@link buildUnmanagedReport} is made of. */
export interface UnmanagedRun {
  started: number;
  version: string;
  forge: string;
  scope: UnmanagedReport["scope"];
  states: StackState[];
  inventory: Inventory;
  rules: readonly IgnoreRule[];
  ignoreFile?: string | undefined;
  drift?: FleetReport | undefined;
}

export function buildUnmanagedReport(run: UnmanagedRun): UnmanagedReport {
  const { inventory, states } = run;
  const objects = inventory.unmanaged.filter((object) => !object.setting).map(reportObject);
  const settings = inventory.unmanaged.filter((object) => object.setting).map(reportObject);
  const count = (status: StackState["status"]) => states.filter((state) => state.status === status).length;
  const ignoreRules = run.rules.map((rule, index) => ({
    entry: index + 1,
    ...(rule.kind ? { kind: rule.kind } : {}),
    ...(rule.scope ? { scope: rule.scope } : {}),
    ...(rule.name ? { name: rule.name } : {}),
    reason: rule.reason,
    matched: inventory.ruleMatches[index] ?? 0,
  }));
  return {
    schemaVersion: UNMANAGED_SCHEMA_VERSION,
    generatedAt: new Date(run.started).toISOString(),
    tool: { name: "forge-drift", version: run.version },
    durationMs: Date.now() - run.started,
    forge: run.forge,
    scope: run.scope,
    complete: count("unread") === 0 && count("partial") === 0 && inventory.possiblyHeld.length === 0,
    summary: {
      stacks: states.length,
      unread: count("unread"),
      partial: count("partial"),
      elsewhere: count("elsewhere"),
      listed: inventory.counts.listed,
      held: inventory.counts.held,
      gone: inventory.counts.gone,
      unmanaged: objects.length,
      settings: settings.length,
      heldTwice: inventory.heldTwice.length,
      possiblyHeld: inventory.possiblyHeld.length,
      forgeOwn: inventory.forgeOwn.length,
      ignored: inventory.ignored.length,
      staleRules: ignoreRules.filter((rule) => rule.matched === 0).length,
    },
    stacks: states.map((state) => ({
      stack: state.stack,
      label: state.label,
      workDir: state.workDir,
      status: state.status,
      resources: state.resources.length,
      possiblyHeld: state.possibly.length,
      elsewhere: { resources: state.elsewhere.count, forges: state.elsewhere.forges },
      ...(state.message !== undefined ? { message: state.message } : {}),
      durationMs: state.durationMs,
    })),
    unmanaged: objects,
    settings,
    heldTwice: inventory.heldTwice,
    possiblyHeld: inventory.possiblyHeld.map((object) => ({ ...reportObject(object), possiblyHeldBy: object.by })),
    forgeOwn: inventory.forgeOwn.map((object) => ({ ...reportObject(object), why: object.why })),
    ignored: inventory.ignored.map((object) => ({ ...reportObject(object), rule: object.rule + 1 })),
    ...(run.ignoreFile !== undefined ? { ignoreFile: run.ignoreFile } : {}),
    ignoreRules,
    skipped: inventory.skipped.map(({ what, reason }) => ({ what, reason })),
    ...(run.drift ? { drift: run.drift } : {}),
  };
}

/** An object as the report gives it, with the lines that take it into a stack (every word from the forge escaped for where it goes). */
function reportObject(object: FoundObject): ReportObject {
  const type = pluginToken(object.kind);
  const name = shellWord(object.resourceName);
  const id = shellWord(object.importId);
  return {
    kind: object.kind,
    type,
    scope: object.scope,
    path: object.path,
    name: object.name,
    importId: object.importId,
    resourceName: object.resourceName,
    ...(object.createdAt !== undefined ? { createdAt: object.createdAt } : {}),
    ...(object.createdBy !== undefined ? { createdBy: object.createdBy } : {}),
    import: {
      ...(name !== undefined && id !== undefined ? { command: `pulumi import ${type} ${name} ${id}` } : {}),
      yaml: `import: ${yaml(object.importId, "value")}`,
      typescript: `{ import: ${typescript(object.importId, "string")} }`,
    },
  };
}

/**
 * The run's exit status: 1 when the report is incomplete because a stack could not be read (or
 * the drift check failed); else 2 for drift plus 4 for unmanaged objects, settings or objects held
 * twice (6 for both); else 3 when a stack was locked or mid-run, or objects are possibly held; else 0.
 */
export function unmanagedExit(report: UnmanagedReport): number {
  const drift = report.drift ? fleetExit(report.drift) : UNMANAGED_EXIT.clean;
  if (report.summary.unread > 0 || drift === UNMANAGED_EXIT.error) return UNMANAGED_EXIT.error;
  const found = report.summary.unmanaged + report.summary.settings + report.summary.heldTwice > 0;
  const drifted = drift === UNMANAGED_EXIT.drift;
  if (found || drifted) return (drifted ? UNMANAGED_EXIT.drift : 0) + (found ? UNMANAGED_EXIT.found : 0);
  if (report.summary.partial > 0 || report.summary.possiblyHeld > 0 || drift === UNMANAGED_EXIT.locked) return UNMANAGED_EXIT.locked;
  return UNMANAGED_EXIT.clean;
}

/** The report as JSON, markdown or text. Text from the forge is escaped for the terminal and for markdown. */
export function formatUnmanaged(report: UnmanagedReport, format: "text" | "markdown" | "json"): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  return format === "markdown" ? markdown(report) : text(report);
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function headline(report: UnmanagedReport): string {
  const { summary } = report;
  const found = [
    plural(summary.unmanaged, "unmanaged object"),
    plural(summary.settings, "unmanaged setting"),
    `${plural(summary.heldTwice, "object")} held twice`,
    ...(summary.possiblyHeld > 0 ? [`${summary.possiblyHeld} possibly held`] : []),
    `${summary.forgeOwn} the forge's own`,
    `${summary.ignored} ignored`,
  ];
  return `${found.join(", ")} (${plural(summary.stacks, "stack")}, ${plural(summary.listed, "object")} listed, ${(report.durationMs / 1000).toFixed(1)} s)`;
}

function where(object: { scope: string; path: string }): string {
  return object.scope === "instance" ? "instance" : object.scope === "user" ? `snippets of ${object.path}` : object.path;
}

function made(object: ReportObject): string {
  if (object.createdAt === undefined && object.createdBy === undefined) return "";
  return `made${object.createdAt ? ` ${object.createdAt}` : ""}${object.createdBy ? ` by ${object.createdBy}` : ""}`;
}

/** What a stack's line adds to its count: why it is not read in full, what it may hold, what it holds on other forges. */
function stackNote(stack: UnmanagedReport["stacks"][number]): string {
  const notes = [
    ...(stack.possiblyHeld > 0 ? [`${stack.possiblyHeld} possibly held`] : []),
    ...(stack.elsewhere.resources > 0 && stack.status !== "elsewhere"
      ? [`${plural(stack.elsewhere.resources, "resource")} on ${stack.elsewhere.forges.join(", ")}`]
      : []),
    ...(stack.message ? [stack.message.split("\n")[0]!] : []),
  ];
  return notes.join("; ");
}

/** Why a report is incomplete, one line per stack. */
function incompleteLines(report: UnmanagedReport): string[] {
  return report.stacks
    .filter((stack) => stack.status === "unread" || stack.status === "partial" || stack.possiblyHeld > 0)
    .map((stack) => `${stack.label}: ${(stack.message ?? "").split("\n")[0]}`);
}

/** What each ignore entry matched, stale ones said so. */
function ruleLine(rule: UnmanagedReport["ignoreRules"][number]): string {
  const what = [
    rule.kind?.join(", "),
    rule.scope?.map((scope) => `in ${scope}`).join(", "),
    rule.name?.map((name) => `named ${name}`).join(", "),
  ]
    .filter(Boolean)
    .join(" ");
  const matched =
    rule.matched === 0 ? "matched nothing: stale, remove it or fix its patterns" : `matched ${plural(rule.matched, "object")}`;
  return `entry ${rule.entry} (${what}: ${rule.reason}): ${matched}`;
}

function text(report: UnmanagedReport): string {
  const p = printable;
  const lines = [`Unmanaged on ${report.forge}: ${headline(report)}`];
  if (!report.complete) {
    lines.push(
      "INCOMPLETE: what these stacks may hold is listed as possibly held, never as unmanaged:",
      ...incompleteLines(report).map((line) => `  ${p(line)}`),
    );
  }
  const objectLines = (objects: ReportObject[]) =>
    objects.flatMap((object) => [
      `  ${object.kind}  ${p(where(object))}  ${p(object.name)}  ${p(object.importId)}${made(object) ? `  ${p(made(object))}` : ""}`,
      ...(object.import.command ? [`    ${p(object.import.command)}`] : []),
    ]);
  if (report.unmanaged.length > 0) lines.push("", "Unmanaged objects (no stack holds them):", ...objectLines(report.unmanaged));
  if (report.settings.length > 0)
    lines.push("", "Unmanaged settings (no stack declares them; they differ from the forge's defaults):", ...objectLines(report.settings));
  if (report.heldTwice.length > 0) {
    lines.push("", "Held by more than one stack (a destroy of one deletes what the other still holds):");
    for (const held of report.heldTwice)
      lines.push(
        `  ${held.kind}  ${p(held.importId)}: ${held.holders.map((holder) => `${p(holder.stack)} (${p(holder.resource)}, id ${p(holder.id)})`).join(", ")}`,
      );
  }
  if (report.possiblyHeld.length > 0) {
    lines.push(
      "",
      "Possibly held (no stack read holds them; a stack not read may):",
      ...report.possiblyHeld.map(
        (object) =>
          `  ${object.kind}  ${p(where(object))}  ${p(object.name)}  ${p(object.importId)}  (${object.possiblyHeldBy.map(p).join(", ")})`,
      ),
    );
  }
  if (report.forgeOwn.length > 0) {
    lines.push("", "The forge's own (made by the forge itself, not by a person):");
    for (const object of report.forgeOwn)
      lines.push(`  ${object.kind}  ${p(where(object))}  ${p(object.name)}  ${p(object.importId)}: ${p(object.why)}`);
  }
  if (report.ignoreRules.length > 0) {
    lines.push("", `Ignore file ${p(report.ignoreFile ?? "")}:`, ...report.ignoreRules.map((rule) => `  ${p(ruleLine(rule))}`));
    for (const object of report.ignored)
      lines.push(`    entry ${object.rule}: ${object.kind}  ${p(where(object))}  ${p(object.name)}  ${p(object.importId)}`);
  }
  if (report.skipped.length > 0)
    lines.push("", "Not listed (the forge refused):", ...report.skipped.map((skipped) => `  ${p(skipped.what)}: ${p(skipped.reason)}`));
  const width = Math.max(...report.stacks.map((stack) => stack.label.length), 5);
  lines.push("", "Stacks:");
  for (const stack of report.stacks) {
    lines.push(
      `  ${p(stack.label).padEnd(width)}  ${stack.status.padEnd(9)}  ${plural(stack.resources, "object").padStart(11)}${stackNote(stack) ? `  ${p(stackNote(stack))}` : ""}`,
    );
  }
  if (report.drift) lines.push("", formatFleet(report.drift, "text").trimEnd());
  return `${lines.join("\n")}\n`;
}

/** Text from outside (the forge, the states, the ignore file) in markdown: inline code, so that nothing in it is markup, a mention or a reference (provider/adopt/escape.ts). */
const cell = markdownCode;

function markdown(report: UnmanagedReport): string {
  const lines = [`## Unmanaged on ${cell(report.forge)}: ${headline(report)}`, ""];
  if (!report.complete) {
    lines.push(
      "> **Incomplete**: what these stacks may hold is listed as possibly held, never as unmanaged.",
      ...incompleteLines(report).map((line) => `> - ${cell(line)}`),
      "",
    );
  }
  const table = (title: string, objects: ReportObject[]) => {
    if (objects.length === 0) return;
    lines.push(`### ${title}`, "", "| Kind | Where | Name | Import id | Made | Import |", "|---|---|---|---|---|---|");
    for (const object of objects) {
      lines.push(
        `| ${object.kind} | ${cell(where(object))} | ${cell(object.name)} | ${cell(object.importId)} | ${cell(made(object))} | ${object.import.command ? cell(object.import.command) : ""} |`,
      );
    }
    lines.push("");
  };
  table("Unmanaged objects (no stack holds them)", report.unmanaged);
  table("Unmanaged settings (no stack declares them; they differ from the forge's defaults)", report.settings);
  if (report.heldTwice.length > 0) {
    lines.push(
      "### Held by more than one stack",
      "",
      "A destroy of one deletes what the other still holds.",
      "",
      "| Kind | Import id | Held by |",
      "|---|---|---|",
    );
    for (const held of report.heldTwice)
      lines.push(
        `| ${held.kind} | ${cell(held.importId)} | ${held.holders.map((holder) => `${cell(holder.stack)} (${cell(holder.resource)})`).join(", ")} |`,
      );
    lines.push("");
  }
  if (report.possiblyHeld.length > 0) {
    lines.push("### Possibly held", "", "| Kind | Where | Name | Import id | Stacks that may hold it |", "|---|---|---|---|---|");
    for (const object of report.possiblyHeld)
      lines.push(
        `| ${object.kind} | ${cell(where(object))} | ${cell(object.name)} | ${cell(object.importId)} | ${object.possiblyHeldBy.map(cell).join(", ")} |`,
      );
    lines.push("");
  }
  if (report.forgeOwn.length > 0) {
    lines.push(
      "<details><summary>The forge's own (made by the forge itself)</summary>",
      "",
      "| Kind | Where | Name | Import id | Why |",
      "|---|---|---|---|---|",
    );
    for (const object of report.forgeOwn)
      lines.push(`| ${object.kind} | ${cell(where(object))} | ${cell(object.name)} | ${cell(object.importId)} | ${object.why} |`);
    lines.push("", "</details>", "");
  }
  if (report.ignoreRules.length > 0) {
    lines.push(
      `### Ignore file ${cell(report.ignoreFile ?? "")}`,
      "",
      ...report.ignoreRules.map((rule) => `- ${cell(ruleLine(rule))}`),
      "",
    );
  }
  if (report.skipped.length > 0)
    lines.push(
      "### Not listed (the forge refused)",
      "",
      ...report.skipped.map((skipped) => `- ${cell(skipped.what)}: ${cell(skipped.reason)}`),
      "",
    );
  lines.push("### Stacks", "", "| Stack | Directory | Status | Objects held here | Note |", "|---|---|---|---|---|");
  for (const stack of report.stacks)
    lines.push(`| ${cell(stack.label)} | ${cell(stack.workDir)} | ${stack.status} | ${stack.resources} | ${cell(stackNote(stack))} |`);
  lines.push("");
  if (report.drift) lines.push(formatFleet(report.drift, "markdown").trimEnd(), "");
  lines.push(`_forge-drift ${report.tool.version}, ${report.generatedAt}_`);
  return `${lines.join("\n")}\n`;
}
