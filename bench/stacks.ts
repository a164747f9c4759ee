/**
 * What the scale benchmark and the soak run share: the real Pulumi CLI (Automation API) on
 * small JavaScript programs written to a temporary directory, a local file backend, and the
 * emulator in this process on loopback. Each program has a `node_modules` folder of links to the
 * repository's packages, and `pulumi-forge` linked to this checkout: it resolves the package as
 * the examples and the e2e programs do, and always this checkout's build (a worktree whose
 * `node_modules` is a link to another checkout's would otherwise run that checkout's `dist/`).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { ForgeClient } from "../provider/client";
import { routes } from "../api/routes";
import { seedToken, startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator";
import { PULUMI_ROOT, PULUMI_VERSION } from "../test/support/pulumi-paths";

export { PULUMI_VERSION };
/** The repository root, from bench/ (ts) or dist/bench/ (compiled). */
const REPO_ROOT = [resolve(__dirname, ".."), resolve(__dirname, "..", "..")].find((dir) => !dir.endsWith("dist"))!;

/** The provider plugin's launcher directory, for `plugins.providers` in a program's Pulumi.yaml. */
export const PLUGIN_DIR = join(REPO_ROOT, "plugin");

/** The four resource types of the mix, in rotation; none depends on another. */
export const MIX = ["GroupLabel", "BroadcastMessage", "ClusterAgent", "FeatureFlagUserList"] as const;

/**
 * The forge program: config `n` resources of the mix (config `types` narrows it, e.g.
 * `GroupLabel`), each with a name unique in the run (config `prefix`, `bench-` by default, keeps
 * two stacks that exist together apart). Config `imports` (JSON, resource name to import id)
 * imports those objects, as an error that names one advises.
 */
export const FORGE_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const forge = require("pulumi-forge");
const config = new pulumi.Config();
const n = Number(config.require("n"));
const types = (config.get("types") || ${JSON.stringify(MIX.join(","))}).split(",");
const prefix = config.get("prefix") || "bench-";
const imports = JSON.parse(config.get("imports") || "{}");
const options = (name) => (imports[name] ? { import: imports[name] } : {});
for (let i = 0; i < n; i += 1) {
  switch (types[i % types.length]) {
    case "GroupLabel": new forge.GroupLabel("label-" + i, { group: "acme", name: prefix + i, color: "#aa0000" }, options("label-" + i)); break;
    case "BroadcastMessage": new forge.BroadcastMessage("message-" + i, { message: prefix.replace("-", " ") + i }, options("message-" + i)); break;
    case "ClusterAgent": new forge.ClusterAgent("agent-" + i, { project: "acme/web", name: prefix + i }, options("agent-" + i)); break;
    case "FeatureFlagUserList": new forge.FeatureFlagUserList("list-" + i, { project: "acme/web", name: prefix + i, userXids: ["user-1"] }, options("list-" + i)); break;
    default: throw new Error("unknown type " + types[i % types.length]);
  }
}
`;

export interface BenchWorld {
  emulator: RunningEmulator;
  /** The seed's administrator, for looking at what the forge holds. */
  api: ForgeClient;
  /** The environment every CLI of this world runs with: its PULUMI_HOME, backend, passphrase, PATH. */
  env: Readonly<Record<string, string>>;
  /**
   * A stack named `bench` of `program` in a directory of its own. `packageRoot` is the checkout
   * its `pulumi-forge` links to: this one by default, another (built) one to compare builds.
   */
  stack(name: string, program: string, config: Record<string, string>, env?: Record<string, string>, packageRoot?: string): Promise<Stack>;
  /**
   * A stack of a project given as files (its Pulumi.yaml among them): a YAML program, or a Node
   * one with `nodeModules` (linked as for `stack`). Programs of the provider plugin name
   * {@link PLUGIN_DIR} in their Pulumi.yaml.
   */
  project(name: string, files: Record<string, string>, config: Record<string, string>, options?: { nodeModules?: boolean }): Promise<Stack>;
  close(): Promise<void>;
}

export async function startBenchWorld(options: EmulatorOptions = {}): Promise<BenchWorld> {
  const tmp = mkdtempSync(join(tmpdir(), "forge-bench-"));
  const emulator = await startEmulator({ port: 0, ...options });
  const pulumiCommand = await PulumiCommand.get({ root: PULUMI_ROOT });
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`,
    PULUMI_HOME: join(tmp, "home"),
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [join(PULUMI_ROOT, "bin"), dirname(process.execPath), process.env["PATH"] ?? ""].join(":"),
    FORGE_BASE_URL: emulator.url,
    FORGE_TOKEN: seedToken("root"),
  };
  for (const dir of ["backend", "home"]) mkdirSync(join(tmp, dir), { recursive: true });
  const api = new ForgeClient({ baseUrl: emulator.url, token: seedToken("root") });
  const open = async (
    name: string,
    files: Record<string, string>,
    config: Record<string, string>,
    env: Record<string, string>,
    packageRoot?: string,
  ) => {
    const workDir = join(tmp, name);
    mkdirSync(workDir);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(workDir, file), text);
    if (packageRoot) linkNodeModules(workDir, packageRoot);
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "bench", workDir },
      { envVars: { ...envVars, ...env }, pulumiCommand },
    );
    for (const [key, value] of Object.entries(config)) await stack.setConfig(key, { value });
    return stack;
  };
  return {
    emulator,
    api,
    env: envVars,
    async stack(name, program, config, env = {}, packageRoot = REPO_ROOT) {
      const files = {
        "Pulumi.yaml": `name: ${name}\nruntime: nodejs\nmain: index.js\n`,
        "package.json": JSON.stringify({ name, private: true }),
        "index.js": program,
      };
      return open(name, files, config, env, packageRoot);
    },
    project: (name, files, config, options = {}) => open(name, files, config, {}, options.nodeModules ? REPO_ROOT : undefined),
    async close() {
      await api.close();
      await emulator.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** `<workDir>/node_modules`: a link to each of the repository's packages, `pulumi-forge` to `packageRoot`. */
function linkNodeModules(workDir: string, packageRoot: string): void {
  const target = join(workDir, "node_modules");
  mkdirSync(target);
  const source = join(REPO_ROOT, "node_modules");
  for (const entry of readdirSync(source)) {
    if (entry !== "pulumi-forge") symlinkSync(join(source, entry), join(target, entry));
  }
  symlinkSync(packageRoot, join(target, "pulumi-forge"));
}

/** The last sequence number of the emulator's request log. */
export async function lastSeq(emulator: RunningEmulator): Promise<number> {
  const response = await emulator.admin("/requests/last");
  return ((await response.json()) as { seq: number }).seq;
}

/** The requests logged after `since`. */
export async function requestsSince(
  emulator: RunningEmulator,
  since: number,
): Promise<{ method: string; path: string; status: number; user: string | null }[]> {
  const response = await emulator.admin(`/requests?since=${since}`);
  return (await response.json()) as { method: string; path: string; status: number; user: string | null }[];
}

/** The names of the mix's resources the forge holds, `bench-` ones only, one entry per record (duplicates show). */
export async function benchRecordsInForge(api: ForgeClient): Promise<string[]> {
  const labels = await api.list<{ name: string }>(routes.groupLabels.list, { group: "acme" });
  const messages = await api.list<{ message: string }>(routes.broadcastMessages.list);
  const agents = await api.list<{ name: string }>(routes.clusterAgents.list, { project: "acme/web" });
  const lists = await api.list<{ name: string }>(routes.featureFlagUserLists.list, { project: "acme/web" });
  return [
    ...labels.map((label) => `GroupLabel ${label.name}`),
    ...messages.map((message) => `BroadcastMessage ${message.message.replace(" ", "-")}`),
    ...agents.map((agent) => `ClusterAgent ${agent.name}`),
    ...lists.map((list) => `FeatureFlagUserList ${list.name}`),
  ]
    .filter((entry) => entry.includes(" bench-"))
    .sort();
}

/** The same names for the resources in a stack's state. */
export async function benchRecordsInState(stack: Stack): Promise<string[]> {
  const deployment = (await stack.exportStack()).deployment as { resources?: { type: string; outputs?: Record<string, unknown> }[] };
  return (deployment.resources ?? [])
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/forge:"))
    .map((r) => {
      const type = r.type.slice(r.type.lastIndexOf(":") + 1);
      const name = type === "BroadcastMessage" ? String(r.outputs?.["message"]).replace(" ", "-") : String(r.outputs?.["name"]);
      return `${type} ${name}`;
    })
    .sort();
}

/**
 * Faults on every API path (or those of `where`: a path pattern, a method) that together fail
 * `rate` of the requests, in four kinds of equal weight, seeded: answers lost after the work was
 * done (a gateway timing out), dropped connections, 429 and 503. Each is tried in turn
 * (POST /__emulator/faults, first match wins).
 */
export function faultMix(rate: number, seed = 1000, where: { path?: string; method?: string } = {}): Record<string, unknown>[] {
  const each = 1 - Math.pow(1 - rate, 1 / 4);
  return [{ after: true, status: 502 }, { drop: true }, { status: 429, retryAfter: 1 }, { status: 503 }].map((fault, index) => ({
    path: ".*",
    probability: each,
    seed: seed + index,
    ...where,
    ...fault,
  }));
}

/**
 * The import ids an error of a create whose answer was lost names (`import id "acme:17"`,
 * `import ids "6", "7"`, recovery.ts's UnprovenCreateError); none for any other error.
 */
export function lostAnswerNames(message: string): string[] {
  const match = /the answer to the create was lost .*?\(import ids? ((?:"[^"]+"(?:, )?)+)\)/.exec(message);
  return match ? [...match[1]!.matchAll(/"([^"]+)"/g)].map((id) => id[1]!) : [];
}
