/**
 * examples/gitops: both pipeline files parse as YAML, run what the issue asks (preview with the
 * policy pack on merge requests, up on the default branch, a scheduled forge-drift), take the
 * backend and passphrase from CI variables, and every command they run exists: npm scripts of
 * the example's package.json, bins of this package, and each `pulumi` subcommand and flag,
 * checked against the real CLI's help.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { skipEngineTests, PULUMI_ROOT, REPO_ROOT } from "../e2e/harness";

const EXAMPLE = join(REPO_ROOT, "examples", "gitops");
const example = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8")) as { scripts: Record<string, string> };
const library = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; files: string[] };

/** Tools of the CI images (node, POSIX shell) the pipelines may call besides npm and pulumi. */
const SHELL_TOOLS = new Set(["curl", "sh", "echo", "cat", "export"]);

interface Pipeline {
  file: string;
  /** Shell lines per job (GitLab job, GitHub step), with the condition that runs it. */
  jobs: { name: string; when: string; lines: string[] }[];
  text: string;
}

function gitlab(): Pipeline {
  const file = ".gitlab-ci.yml";
  const text = readFileSync(join(EXAMPLE, file), "utf8");
  const doc = parse(text) as Record<
    string,
    { script?: string[]; rules?: { if: string }[]; before_script?: string[]; after_script?: string[] }
  >;
  const before = (doc["default"] as { before_script?: string[] } | undefined)?.before_script ?? [];
  const jobs = Object.entries(doc)
    .filter(([name, job]) => !["default", "variables", "stages", "image"].includes(name) && Array.isArray(job?.script))
    .map(([name, job]) => ({
      name,
      when: (job.rules ?? []).map((rule) => rule.if).join(" "),
      lines: [...before, ...job.script!, ...(job.after_script ?? [])],
    }));
  return { file, jobs, text };
}

function github(): Pipeline {
  const file = ".github/workflows/forge.yml";
  const text = readFileSync(join(EXAMPLE, file), "utf8");
  const doc = parse(text) as { jobs: Record<string, { steps: { name?: string; run?: string; if?: string; uses?: string }[] }> };
  const jobs = Object.values(doc.jobs).flatMap((job) =>
    job.steps
      .filter((step) => step.run !== undefined)
      .map((step) => ({ name: step.name ?? step.run!, when: step.if ?? "", lines: step.run!.split("\n").filter(Boolean) })),
  );
  return { file, jobs, text };
}

/** The commands of a shell line: split on pipes and `&&`, without redirections. */
function commands(line: string): string[][] {
  return line
    .split(/\|\||&&|\|/)
    .map((part) =>
      part
        .replace(/>>?\s*\S+/g, "")
        .trim()
        .split(/\s+/)
        .filter(Boolean),
    )
    .filter((words) => words.length > 0);
}

/** `pulumi <subcommand>` and its flags exist in the CLI this project pins. */
function checkPulumi(words: string[]): void {
  const sub = words[1]!;
  const help = execFileSync(join(PULUMI_ROOT, "bin", "pulumi"), [sub, "--help"], { encoding: "utf8" });
  for (const flag of words.filter((word) => word.startsWith("--"))) expect(help, `pulumi ${sub} ${flag}`).toContain(flag.split("=")[0]);
}

function checkCommand(words: string[], where: string): void {
  const [tool, ...args] = words;
  if (tool === "npm") {
    if (args[0] === "ci") return;
    expect(args[0], where).toBe("run");
    const script = args.find((arg, index) => index > 0 && !arg.startsWith("-"))!;
    expect(Object.keys(example.scripts), `${where}: npm run ${script}`).toContain(script);
    return;
  }
  if (tool === "npx") {
    expect(Object.keys(library.bin), where).toContain(args[0]);
    return;
  }
  expect(SHELL_TOOLS.has(tool!), `${where}: ${tool} is not a known command`).toBe(true);
}

describe("examples/gitops", () => {
  const pipelines = [gitlab(), github()];

  it.each(pipelines.map((pipeline) => [pipeline.file, pipeline] as const))(
    "%s runs preview on merge requests, up on the default branch, forge-drift on a schedule",
    (_file, pipeline) => {
      const jobRunning = (script: string) =>
        pipeline.jobs.find((job) =>
          job.lines.some((line) => line.includes(`npm run ${script}`) || line.includes(`npm run --silent ${script}`)),
        );
      expect(jobRunning("preview")?.when).toMatch(/merge_request_event|pull_request/);
      expect(jobRunning("up")?.when).toMatch(/CI_DEFAULT_BRANCH|push/);
      expect(jobRunning("drift")?.when).toMatch(/schedule/);
      for (const variable of ["PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE", "FORGE_TOKEN"]) expect(pipeline.text).toContain(variable);
      for (const job of pipeline.jobs)
        for (const line of job.lines) for (const words of commands(line)) checkCommand(words, `${pipeline.file} ${job.name}`);
    },
  );

  it("the drift check and the deploy take turns on one lock (GitLab: one resource_group; GitHub: the workflow's concurrency group)", () => {
    const lab = parse(readFileSync(join(EXAMPLE, ".gitlab-ci.yml"), "utf8")) as Record<string, { resource_group?: string }>;
    expect(lab["drift"]?.resource_group).toBeDefined();
    expect(lab["drift"]?.resource_group).toBe(lab["up"]?.resource_group);
    const hub = parse(readFileSync(join(EXAMPLE, ".github/workflows/forge.yml"), "utf8")) as {
      concurrency?: { group?: string; "cancel-in-progress"?: boolean };
      jobs: Record<string, { concurrency?: unknown }>;
    };
    // One job runs every step, under the workflow's group: a nightly drift waits for a running deploy.
    expect(hub.concurrency?.group).toBeTruthy();
    expect(hub.concurrency?.["cancel-in-progress"]).toBe(false);
    expect(Object.values(hub.jobs).every((job) => job.concurrency === undefined)).toBe(true);
  });

  it("the npm scripts run the installed policy pack, `pulumi` commands that exist, and forge-drift", () => {
    expect(library.files).toContain("policies/PulumiPolicy.yaml");
    expect(example.scripts["preview"]).toContain("--policy-pack node_modules/pulumi-forge/policies");
    expect(example.scripts["up"]).toContain("--policy-pack node_modules/pulumi-forge/policies");
    const drift = commands(example.scripts["drift"]!)[0]!;
    expect(Object.keys(library.bin)).toContain(drift[0]);
    const usage = execFileSync(process.execPath, [join(REPO_ROOT, library.bin[drift[0]!]!), "--help"], { encoding: "utf8" });
    for (const flag of drift.filter((word) => word.startsWith("--"))) expect(usage, flag).toContain(flag);
    for (const name of ["preview", "up"]) {
      const words = commands(example.scripts[name]!).find((command) => command[0] === "pulumi")!;
      expect(words[0]).toBe("pulumi");
      if (!skipEngineTests()) checkPulumi(words);
    }
    // A killed run is recovered before each up (it does nothing when nothing is pending).
    const recover = commands(example.scripts["up"]!)[0]!;
    expect(recover[0]).toBe("forge-recover");
    const recoverUsage = execFileSync(process.execPath, [join(REPO_ROOT, library.bin["forge-recover"]!), "--help"], { encoding: "utf8" });
    for (const flag of recover.filter((word) => word.startsWith("--"))) expect(recoverUsage, flag).toContain(flag);
    expect(existsSync(join(EXAMPLE, "Pulumi.yaml"))).toBe(true);
  });
});
