/**
 * A Pulumi project driven through the `pulumi` command itself (not the Automation API), for the
 * provider plugin's programs in any runtime (TypeScript, YAML) and for the commands only the CLI
 * has (`pulumi import`, `pulumi plugin install`). Local file backend and PULUMI_HOME in a
 * temporary directory; the connection comes from stack config alone (FORGE_* cleared), as the
 * plugin's Configure must carry it.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { seedToken } from "../../emulator";
import { assertPluginBuilt, NODE_PLUGIN_DIR, PLUGIN_DIR_UNDER_TEST } from "../support/plugin-under-test";
import { PULUMI_ROOT, REPO_ROOT } from "../support/pulumi-paths";

/** The plugin the engine layers run (test/support/plugin-under-test.ts): the executable of this
 *  platform, or the Node launcher with FORGE_TEST_PLUGIN=node. */
export const PLUGIN_DIR = PLUGIN_DIR_UNDER_TEST;
/** The repository's Node launcher: what `plugins.providers` names in an npm install. */
export { NODE_PLUGIN_DIR };

export interface CliResult {
  code: number;
  stdout: string;
  /** stdout and stderr. */
  output: string;
}

export interface CliProject {
  /** The program's directory. */
  readonly dir: string;
  /** The temporary directory holding the program, the backend and PULUMI_HOME. */
  readonly work: string;
  /** The environment every command runs with (backend, PULUMI_HOME, passphrase, PATH). */
  readonly env: NodeJS.ProcessEnv;
  /** `pulumi <args>` (the global flags go first, so that `--` may end a command's own). */
  run(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Runs and throws with the output when the command fails. */
  ok(args: string[], env?: Record<string, string>): Promise<string>;
  /** The stack's state as `pulumi stack export` prints it (secrets encrypted). */
  exportText(): Promise<string>;
  /** The resources of the state. */
  resources(): Promise<{ type: string; id?: string; urn: string; outputs?: Record<string, unknown> }[]>;
  close(): void;
}

export interface CliProjectOptions {
  /** Prefix of the temporary directory. */
  name: string;
  /** A directory to copy as the program (an example), or the program's files. */
  from: string | Record<string, string>;
  /** Link the repository's node_modules into the program (Node programs; never YAML ones, whose host walks the tree). */
  nodeModules?: boolean;
  /** Stack config, set before the first command (`secret: true` values with --secret). */
  config?: Record<string, { value: string; secret?: boolean }>;
  /** The state backend (default a file backend in the temporary directory), and environment it needs (`PGPASSWORD`). */
  backend?: { url: string; env?: Record<string, string> };
}

/** Makes the project and its stack `test`, with the given config. */
export async function cliProject(options: CliProjectOptions): Promise<CliProject> {
  assertPluginBuilt();
  const work = mkdtempSync(join(tmpdir(), `forge-${options.name}-`));
  const dir = join(work, "program");
  for (const sub of ["backend", "home"]) mkdirSync(join(work, sub));
  if (typeof options.from === "string") cpSync(options.from, dir, { recursive: true });
  else {
    mkdirSync(dir);
    for (const [file, text] of Object.entries(options.from)) writeFileSync(join(dir, file), text);
  }
  if (options.nodeModules) symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");

  const baseEnv = {
    ...process.env,
    // This process's Node (>= 22.19) first: the plugin's launcher runs on the `node` of PATH.
    PATH: [join(PULUMI_ROOT, "bin"), dirname(process.execPath), process.env["PATH"] ?? ""].join(delimiter),
    PULUMI_BACKEND_URL: options.backend?.url ?? `file://${join(work, "backend")}`,
    ...options.backend?.env,
    PULUMI_CONFIG_PASSPHRASE: "cli-project",
    PULUMI_HOME: join(work, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    FORGE_BASE_URL: "",
    FORGE_TOKEN: "",
  };
  const run = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    new Promise((resolve) => {
      execFile(
        "pulumi",
        ["--non-interactive", "--color", "never", ...args],
        { cwd: dir, env: { ...baseEnv, ...env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, output: `${stdout}\n${stderr}` });
        },
      );
    });
  const ok = async (args: string[], env?: Record<string, string>): Promise<string> => {
    const result = await run(args, env);
    if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${result.code}):\n${result.output}`);
    return result.output;
  };
  const exportText = async () => {
    const result = await run(["stack", "export"]);
    if (result.code !== 0) throw new Error(`pulumi stack export failed:\n${result.output}`);
    return result.stdout;
  };

  await ok(["stack", "init", "test"]);
  // One CLI call for all the settings: each call of the CLI costs about a second.
  const settings = Object.entries(options.config ?? {}).flatMap(([key, { value, secret }]) => [
    secret ? "--secret" : "--plaintext",
    `${key}=${value}`,
  ]);
  if (settings.length > 0) await ok(["config", "set-all", ...settings]);
  return {
    dir,
    work,
    env: baseEnv,
    run,
    ok,
    exportText,
    async resources() {
      const text = await exportText();
      const state = JSON.parse(text) as {
        deployment: { resources?: { type: string; id?: string; urn: string; outputs?: Record<string, unknown> }[] };
      };
      return state.deployment.resources ?? [];
    },
    close: () => rmSync(work, { recursive: true, force: true }),
  };
}

/**
 * A request to the forge at `baseUrl` as the seed's administrator, for what a test changes behind
 * a stack's back: its JSON answer, or an error with the status and the forge's message.
 */
export function rootApi(baseUrl: () => string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl()}/api/v4${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": seedToken("root"), "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
}
