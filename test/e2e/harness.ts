/**
 * The end-to-end harness: the real Pulumi CLI (Automation API) on program directories from
 * test/e2e/programs, a local file backend and PULUMI_HOME in a temporary directory, and the
 * forge emulator in this process on a free port. FORGE_E2E_DEBUG=1 prints each operation's
 * steps, duration and output.
 *
 * Stacks of the generic program (`programs/resources`) are declared as data: `TestStack.declare`
 * writes the list of resources into the stack config, secret inputs as secret config.
 *
 * Each program is copied to the temporary directory with a `node_modules` link to the
 * repository's, so it resolves `pulumi-forge` as a user's program does, while the stack config
 * files Pulumi writes next to the program stay out of the repository.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type EngineEvent, type OpMap, type Stack } from "@pulumi/pulumi/automation";
import type { ForgeClient } from "../../provider/client";
import { inputKeys, declaredSecrets, type State } from "../../provider/engine/declaration";
import { declarationByName } from "../../provider/resources";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { worldOf, type World } from "../contract/world";

const execFileAsync = promisify(execFile);

import { PULUMI_ROOT, PULUMI_VERSION, REPO_ROOT } from "../support/pulumi-paths";
export { PULUMI_ROOT, PULUMI_SDK_VERSION, PULUMI_VERSION, REPO_ROOT } from "../support/pulumi-paths";
export const ROOT_TOKEN = "forge-root-token";
export const PASSPHRASE = "forge-e2e-passphrase";

/** True when the Pulumi CLI the suite needs is installed (scripts/setup.sh installs it). */
export function pulumiInstalled(): boolean {
  return existsSync(join(PULUMI_ROOT, "bin", "pulumi"));
}

/** Set to 1 to skip the engine layers (suites that drive the real Pulumi CLI) on purpose. */
export const SKIP_ENGINE_VARIABLE = "FORGE_SKIP_ENGINE_TESTS";

/**
 * Whether an engine suite runs: it does when the CLI is there; it is skipped only when the user
 * asked (`FORGE_SKIP_ENGINE_TESTS=1`); otherwise it fails, saying how to get the CLI, so that a
 * machine without it cannot pass the suite by quietly running less.
 */
export function engineTestDecision(env: NodeJS.ProcessEnv, installed: boolean): "run" | "skip" {
  if (env[SKIP_ENGINE_VARIABLE] === "1") return "skip";
  if (!installed) {
    throw new Error(
      `The Pulumi CLI ${PULUMI_VERSION} is not installed in ${PULUMI_ROOT}, and this suite drives it: run \`. scripts/setup.sh\` ` +
        `(or bash scripts/test.sh), or set ${SKIP_ENGINE_VARIABLE}=1 to skip the engine layers on purpose.`,
    );
  }
  return "run";
}

/** For `describe.skipIf(skipEngineTests())`: true only when the user asked to skip (see {@link engineTestDecision}). */
export function skipEngineTests(): boolean {
  return engineTestDecision(process.env, pulumiInstalled()) === "skip";
}

export type Kind = "up" | "preview" | "refresh" | "destroy";

/** What one operation did. */
export interface OpResult {
  /** The CLI's output (stdout and stderr). */
  output: string;
  /** Count per step kind (`same`, `create`, `update`, `replace`, `delete`, ...), from the summary. */
  changes: OpMap;
  /** Step kinds per logical resource name (stack and providers left out), from the engine events. */
  steps: Record<string, string[]>;
}

/** One resource of the generic program (programs/resources): its class name, logical name, inputs and options. */
export interface ListedResource {
  type: string;
  name: string;
  inputs: State;
  options?: { import?: string; deleteBeforeReplace?: boolean };
}

/** An input that is an output of a resource listed earlier in the same stack. */
export function ref(name: string, output: string): { $ref: string } {
  return { $ref: `${name}.${output}` };
}

/** A managed resource in the state, secrets decrypted and unwrapped. */
export interface StateResource {
  name: string;
  /** The declaration's name (`GroupLabel`). */
  type: string;
  id: string;
  inputs: State;
  outputs: State;
}

/** The resources whose steps in an operation were exactly `ops` (in any order), sorted. */
export function namesWith(result: OpResult, ...ops: string[]): string[] {
  return Object.entries(result.steps)
    .filter(([, steps]) => steps.length === ops.length && ops.every((op) => steps.includes(op)))
    .map(([name]) => name)
    .sort();
}

/** A stack of one program, with its operations wrapped to capture output and engine events. */
export class TestStack {
  constructor(
    readonly stack: Stack,
    readonly workDir: string,
    readonly env: Record<string, string>,
  ) {}

  /** Runs the Pulumi CLI itself on this stack (what the Automation API does not offer). */
  async cli(...args: string[]): Promise<string> {
    const { stdout } = await execFileAsync(join(PULUMI_ROOT, "bin", "pulumi"), [...args, "--stack", this.stack.name, "--non-interactive"], {
      cwd: this.workDir,
      env: { ...process.env, ...this.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  }

  up(): Promise<OpResult> {
    return this.run("up");
  }
  /**
   * `pulumi preview`; with `refresh`, `pulumi preview --refresh`: every resource is read first
   * (its steps then begin with `refresh`), so one run shows both drift and the program's changes.
   */
  preview(options: { refresh?: boolean } = {}): Promise<OpResult> {
    return this.run("preview", options.refresh === true);
  }
  refresh(): Promise<OpResult> {
    return this.run("refresh");
  }
  destroy(): Promise<OpResult> {
    return this.run("destroy");
  }

  /** Runs an operation that must fail; returns its output (the error text included). */
  async fails(kind: Kind): Promise<string> {
    try {
      const result = await this.run(kind);
      throw new Error(`pulumi ${kind} succeeded but was expected to fail:\n${result.output}`);
    } catch (error) {
      if (error instanceof PulumiFailure) return error.output;
      throw error;
    }
  }

  async setConfig(values: Record<string, string | { value: string; secret: boolean }>): Promise<void> {
    const config = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, typeof value === "string" ? { value, secret: false } : value]),
    );
    await this.stack.setAllConfig(config);
  }

  /** Makes `resources` the generic program's whole content; inputs the library treats as secret go in as secret config. */
  async declare(resources: ListedResource[]): Promise<void> {
    const secretInputs: Record<string, State> = {};
    const listed = resources.map((resource) => {
      const declaration = declarationByName(resource.type);
      const secret = new Set(declaredSecrets(declaration).filter((key) => inputKeys(declaration).includes(key)));
      const entries = Object.entries(resource.inputs);
      const secrets = entries.filter(([key]) => secret.has(key));
      if (secrets.length > 0) secretInputs[resource.name] = Object.fromEntries(secrets);
      return { ...resource, inputs: Object.fromEntries(entries.filter(([key]) => !secret.has(key))) };
    });
    await this.setConfig({
      resources: JSON.stringify(listed),
      secretInputs: { value: JSON.stringify(secretInputs), secret: true },
    });
  }

  /** `stack.exportStack()`: the Automation API exports with `--show-secrets` (secrets decrypted, in their envelopes). */
  async exportedState(): Promise<unknown> {
    return this.stack.exportStack();
  }

  /** `pulumi stack export` as a user runs it: secrets stay encrypted. */
  async exportedStateEncrypted(): Promise<string> {
    return this.cli("stack", "export");
  }

  /** The managed resources in the state (stack and providers left out), secrets decrypted. */
  async resources(): Promise<StateResource[]> {
    const deployment = (await this.stack.exportStack()).deployment as {
      resources?: { urn: string; type: string; id: string; inputs?: State; outputs?: State }[];
    };
    return (deployment.resources ?? [])
      .filter((r) => isManaged(r.type))
      .map((r) => ({
        name: nameOf(r.urn),
        type: r.type.slice(r.type.lastIndexOf(":") + 1),
        id: r.id,
        inputs: revealed(r.inputs ?? {}) as State,
        outputs: revealed(r.outputs ?? {}) as State,
      }));
  }

  /** Logical names of the resources in the state (stack and providers left out). */
  async resourceNames(): Promise<string[]> {
    return (await this.resources()).map((r) => r.name);
  }

  private async run(kind: Kind, refresh = false): Promise<OpResult> {
    const started = Date.now();
    const chunks: string[] = [];
    const steps: Record<string, string[]> = {};
    const common = {
      color: "never" as const,
      onOutput: (text: string) => chunks.push(text),
      onError: (text: string) => chunks.push(text),
      onEvent: (event: EngineEvent) => {
        const metadata = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
        if (!metadata || !isManaged(metadata.type)) return;
        const list = (steps[nameOf(metadata.urn)] ??= []);
        if (!list.includes(metadata.op)) list.push(metadata.op);
      },
    };
    let changes: OpMap;
    try {
      switch (kind) {
        case "up":
          changes = (await this.stack.up(common)).summary.resourceChanges ?? {};
          break;
        case "preview":
          changes = (await this.stack.preview({ ...common, refresh })).changeSummary;
          break;
        case "refresh":
          changes = (await this.stack.refresh(common)).summary.resourceChanges ?? {};
          break;
        case "destroy":
          changes = (await this.stack.destroy(common)).summary.resourceChanges ?? {};
          break;
      }
    } catch (error) {
      // The output callbacks saw stdout and stderr; the error repeats them, so only its first line is added.
      const message = error instanceof Error ? error.message : String(error);
      throw new PulumiFailure(kind, `${chunks.join("")}\n${chunks.length > 0 ? message.split("\n")[0] : message}`, error);
    }
    if (process.env["FORGE_E2E_DEBUG"]) {
      console.log(`pulumi ${kind} (${Date.now() - started} ms)`, JSON.stringify(changes), JSON.stringify(steps));
      console.log(chunks.join(""));
    }
    return { output: chunks.join(""), changes, steps };
  }
}

/** A failed Pulumi operation; its message carries the CLI's output. */
export class PulumiFailure extends Error {
  constructor(
    readonly kind: Kind,
    readonly output: string,
    cause: unknown,
  ) {
    super(`pulumi ${kind} failed:\n${output}`, { cause });
  }
}

export interface E2eWorld {
  emulator: RunningEmulator;
  /** The seed's administrator, for out-of-band changes and assertions. */
  api: ForgeClient;
  /** The contract suite's view of the same emulator: seed lookups, the fixtures' inputs. */
  fixtureWorld: World;
  /** Temporary directory holding the backend, PULUMI_HOME and the program copies. */
  tmp: string;
  backendDir: string;
  /** A stack of a program under test/e2e/programs, or in `source` (created or selected). */
  stack(program: string, stackName: string, source?: string): Promise<TestStack>;
  /** Requests the emulator has logged since `since` (a seq), oldest first. */
  requests(since?: number): Promise<{ seq: number; method: string; path: string; status: number }[]>;
  close(): Promise<void>;
}

export async function startE2eWorld(): Promise<E2eWorld> {
  engineTestDecision(process.env, pulumiInstalled());
  if (!existsSync(join(REPO_ROOT, "dist", "provider", "runtime.js"))) {
    throw new Error("pulumi-forge is not built (dist/ is missing): run `. scripts/setup.sh` (or bash scripts/test.sh).");
  }
  const pulumiCommand = await PulumiCommand.get({ root: PULUMI_ROOT });
  const emulator = await startEmulator({ port: 0 });
  const tmp = mkdtempSync(join(tmpdir(), "forge-e2e-"));
  const backendDir = join(tmp, "backend");
  const pulumiHome = join(tmp, "pulumi-home");
  const bin = join(PULUMI_ROOT, "bin");
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The programs are type-checked by the repository's tsc build; ts-node only transpiles.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // The CLI's plugins (language host, dynamic provider) and this Node first on PATH.
    PATH: [bin, dirname(process.execPath), process.env["PATH"] ?? ""].join(":"),
    FORGE_BASE_URL: emulator.url,
    FORGE_TOKEN: ROOT_TOKEN,
  };
  for (const dir of [backendDir, pulumiHome]) mkdirSync(dir, { recursive: true });
  const fixtureWorld = worldOf(emulator);
  // The engine's reads in this process (assertions) go to the same emulator as the CLI's.
  fixtureWorld.actAs("root");

  return {
    emulator,
    api: fixtureWorld.api,
    fixtureWorld,
    tmp,
    backendDir,
    async stack(program, stackName, source = join(REPO_ROOT, "test", "e2e", "programs", program)) {
      const workDir = join(tmp, "programs", `${program}-${stackName}`);
      if (!existsSync(workDir)) {
        cpSync(source, workDir, { recursive: true });
        symlinkSync(join(REPO_ROOT, "node_modules"), join(workDir, "node_modules"));
        // A package root of its own, as a user's project has (and no warning about a missing one).
        writeFileSync(join(workDir, "package.json"), JSON.stringify({ name: `forge-e2e-${program}`, private: true }, null, 2));
      }
      const stack = await LocalWorkspace.createOrSelectStack({ stackName, workDir }, { envVars, pulumiHome, pulumiCommand });
      return new TestStack(stack, workDir, { ...envVars, PULUMI_HOME: pulumiHome });
    },
    async requests(since = 0) {
      const response = await emulator.admin(`/requests?since=${since}`);
      return (await response.json()) as { seq: number; method: string; path: string; status: number }[];
    },
    async close() {
      await emulator.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Files under `dir` (recursively) whose content contains any of `needles`, with the needle found. */
export function filesContaining(dir: string, needles: string[]): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) walk(join(path, entry));
      return;
    }
    const text = readFileSync(path, "latin1");
    for (const needle of needles) if (text.includes(needle)) found.push(`${path}: ${needle.slice(0, 12)}...`);
  };
  walk(dir);
  return found;
}

function isManaged(type: string): boolean {
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}

function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The signature Pulumi puts on a secret value in a state file. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

/** A secret in a state: the signature, and `ciphertext` (encrypted) or `plaintext` (an export with --show-secrets). */
export function isSecretEnvelope(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_SIG.key] === SECRET_SIG.value;
}

/** `value` with each secret envelope of an export with --show-secrets replaced by its value. */
function revealed(value: unknown): unknown {
  if (isSecretEnvelope(value)) return typeof value["plaintext"] === "string" ? JSON.parse(value["plaintext"]) : value;
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, revealed(item)]));
  return value;
}

/** JSON paths in `value` where a string contains one of `needles` outside a secret envelope. */
export function bareOccurrences(value: unknown, needles: string[], path = "$"): string[] {
  if (typeof value === "string") return needles.some((needle) => value.includes(needle)) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => bareOccurrences(item, needles, `${path}[${index}]`));
  if (typeof value === "object" && value !== null) {
    if (isSecretEnvelope(value)) return [];
    return Object.entries(value).flatMap(([key, item]) => bareOccurrences(item, needles, `${path}.${key}`));
  }
  return [];
}
