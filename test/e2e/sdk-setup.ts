/**
 * The generated SDKs as a user sets them up, shared by the SDK test (test/e2e/sdks.test.ts) and the
 * language programs (test/languages/programs.test.ts):
 * - Python: a virtual environment under ~/.cache/forge-pulumi holding `pulumi` and mypy from PyPI,
 *   with the generated package installed by pip from its folder;
 * - Go: a program's module made by the recipe of docs/guides/other-languages.md, verbatim: its
 *   `go.mod` lines and its shell commands, run in the program's directory with the SDKs where the
 *   recipe says (`dist/sdks`).
 */
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PULUMI_SDK_VERSION, REPO_ROOT } from "../support/pulumi-paths";

const run = promisify(execFile);
const CACHE = join(homedir(), ".cache", "forge-pulumi");
const BUFFER = { maxBuffer: 64 * 1024 * 1024 };
/** mypy, for the type check of the sample program (pinned: its verdicts change between releases). */
const MYPY = "mypy==2.4.1";

/** The sample programs, one folder per language: what the suite type-checks and the languages layer runs. */
export const PROGRAMS = join(REPO_ROOT, "test", "languages", "programs");
const GUIDE = join(REPO_ROOT, "docs", "guides", "other-languages.md");

/** The virtual environment of the SDK tests: pulumi of the tested release and mypy, from PyPI. */
export const VENV = join(CACHE, `python-pulumi-${PULUMI_SDK_VERSION}`);
/** mypy's cache, kept between runs (a cold check of the SDK takes seconds). */
export const MYPY_CACHE = join(CACHE, "mypy-cache");

const pip = (args: string[]) => run(join(VENV, "bin", "python"), ["-m", "pip", "--disable-pip-version-check", ...args], BUFFER);

/** Makes the virtual environment when missing, and installs the generated package into it (its requirements from PyPI). */
export async function pythonEnvironment(sdk: string): Promise<string> {
  const python = join(VENV, "bin", "python");
  if (!existsSync(python)) await run("python3", ["-m", "venv", VENV]);
  const ready = join(VENV, "forge-ready");
  if (!existsSync(ready)) {
    // pulumi, mypy, and the SDK's other requirements (its setup.py's: parver, semver), once.
    await pip(["install", "--quiet", `pulumi==${PULUMI_SDK_VERSION}`, MYPY]);
    await pip(["install", "--quiet", sdk]);
    writeFileSync(ready, "");
  }
  await pip(["install", "--quiet", "--force-reinstall", "--no-deps", sdk]);
  return python;
}

/** The guide's Go recipe: its `go.mod` lines (the block that requires the SDK's module) and its commands. */
export function goRecipe(): { goMod: string; commands: string[] } {
  const text = readFileSync(GUIDE, "utf8");
  const go = text.slice(text.indexOf("\n## Go\n"), text.indexOf("\n## ", text.indexOf("\n## Go\n") + 1));
  const blocks = [...go.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({ lang: lang!, body: body! }));
  const goMod = blocks.find((block) => block.body.startsWith("require "));
  const shell = blocks.find((block) => block.lang === "sh" && block.body.includes("go mod tidy"));
  if (!goMod || !shell) throw new Error(`${GUIDE}: its Go section has no go.mod block or no shell block with go mod tidy`);
  const commands = shell.body
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
  return { goMod: goMod.body, commands };
}

/**
 * The environment of the Go commands: the local toolchain, no workspace, modules from the proxy as
 * the user's are; -trimpath keeps the build cache's keys free of the temporary directory, so a warm
 * run reuses the SDK's compiled package (go vet: 1.6 s instead of 2 min 18 s on two cores).
 */
export const GO_ENV = { ...process.env, GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "-mod=mod -trimpath" };

/**
 * A Go program's directory made by the guide's recipe: the sample program, the SDKs at `dist/sdks`
 * (a link to `sdks`), `go.mod` with the recipe's lines, then the recipe's commands.
 */
export async function goProgram(sdks: string, dir: string): Promise<void> {
  mkdirSync(join(dir, "dist"), { recursive: true });
  symlinkSync(sdks, join(dir, "dist", "sdks"), "dir");
  cpSync(join(PROGRAMS, "go"), dir, { recursive: true });
  const { goMod, commands } = goRecipe();
  writeFileSync(join(dir, "go.mod"), `module forge-go-program\n\ngo 1.25\n\n${goMod}`);
  // The CLI's build resolved the same Pulumi SDK: its sums spare trips to the checksum database.
  const cliSums = join(CACHE, `build-${PULUMI_SDK_VERSION}`, "cli", "go.sum");
  if (existsSync(cliSums)) copyFileSync(cliSums, join(dir, "go.sum"));
  for (const command of commands) await run("bash", ["-c", command], { cwd: dir, env: GO_ENV, ...BUFFER });
}
