/**
 * The optional `languages` layer (`npm run test:languages`): a Python and a Go program on the
 * generated SDKs (test/languages/programs) through their Pulumi language hosts, the real CLI and the
 * provider plugin installed as users install it (its executable through `pulumi plugin install`, no `plugins.providers`
 * path), against the emulator: up, a clean preview, a change made by hand caught by a refresh that
 * expects none, up --refresh repairing it, `pulumi import` of an object made by hand (the generated
 * code in the program's language), destroy deleting everything the program made; the agent's token
 * never in the state in plain text.
 *
 * The hosts (`pulumi-language-python` with `pulumi-language-python-exec` beside it,
 * `pulumi-language-go`) come from the folder in FORGE_LANGUAGE_HOSTS, else from PATH; without them
 * the language's tests are skipped, their names saying why. docs/guides/other-languages.md says how
 * to build them from Pulumi's source tag.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, rootApi, type CliProject } from "../e2e/cli-project";
import { engineTestDecision, pulumiInstalled, REPO_ROOT } from "../e2e/harness";
import { GO_ENV, goProgram, PROGRAMS, pythonEnvironment, VENV } from "../e2e/sdk-setup";
import { assertPluginBuilt, EXECUTABLE_DIR, PLUGIN_BUILD } from "../support/plugin-under-test";

/** The folder of the language hosts; PATH is searched without it. */
const HOSTS_VARIABLE = "FORGE_LANGUAGE_HOSTS";

/** The folder holding every named executable: FORGE_LANGUAGE_HOSTS's, else the first folder of PATH that has the first. */
function hostFolder(names: string[]): string | undefined {
  const folders = process.env[HOSTS_VARIABLE] ? [process.env[HOSTS_VARIABLE]!] : (process.env["PATH"] ?? "").split(delimiter);
  const folder = folders.find((candidate) => candidate !== "" && existsSync(join(candidate, names[0]!)));
  return folder && names.every((name) => existsSync(join(folder, name))) ? folder : undefined;
}

const GUIDE = "docs/guides/other-languages.md (Building the language hosts)";
const LANGUAGES = {
  python: { hosts: hostFolder(["pulumi-language-python", "pulumi-language-python-exec"]), host: "pulumi-language-python" },
  go: { hosts: hostFolder(["pulumi-language-go"]), host: "pulumi-language-go" },
} as const;
type Language = keyof typeof LANGUAGES;

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const DEPLOYER = encodeURIComponent("acme/platform/deployer");
let emulator: RunningEmulator;
let work: string;
let plugin: string;
const api = rootApi(() => emulator.url);

beforeAll(async () => {
  if (!Object.values(LANGUAGES).some((language) => language.hosts)) return;
  engineTestDecision(process.env, pulumiInstalled());
  if (!existsSync(join(REPO_ROOT, "dist", "provider", "plugin", "main.js"))) throw new Error("dist/ is missing: run `. scripts/setup.sh`");
  emulator = await startEmulator({ port: 0 });
  work = mkdtempSync(join(tmpdir(), "forge-languages-"));
  execFileSync("bash", [join(REPO_ROOT, "scripts", "gen-sdks.sh"), join(work, "sdks")], { stdio: "ignore" });
  // The plugin as `pulumi plugin install --file <folder>` takes it: the executable users of these
  // languages install (FORGE_TEST_PLUGIN=node: a folder whose pulumi-resource-forge runs this
  // checkout's build on Node).
  assertPluginBuilt();
  plugin = PLUGIN_BUILD === "executable" ? EXECUTABLE_DIR : join(work, "plugin");
  if (PLUGIN_BUILD === "node") {
    mkdirSync(plugin);
    writeFileSync(
      join(plugin, "pulumi-resource-forge"),
      `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, "dist", "provider", "plugin", "main.js")}" "$@"\n`,
    );
    chmodSync(join(plugin, "pulumi-resource-forge"), 0o755);
  }
}, 900_000);

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const labels = async () => await api<{ id: number; name: string; color: string }[]>("GET", "/groups/acme/labels");

/** One language's program through the whole life cycle; skipped, saying why, without its host. */
function lifeCycle(language: Language, prepare: (dir: string) => Promise<void>, imported: RegExp): void {
  const { hosts, host } = LANGUAGES[language];
  if (!hosts) {
    // A skip, not a failure: this layer is optional (left out of the default run) and its hosts are
    // built outside the repository; the skipped test's name puts the reason and the guide in the report.
    it.skip(`${language}: no ${host} in ${HOSTS_VARIABLE} or on PATH, so this program is not run (${GUIDE})`, () => {});
    return;
  }
  describe(`a ${language} program through ${host}`, () => {
    let project: CliProject;
    let env: Record<string, string>;
    const ok = (args: string[]) => project.ok(args, env);

    beforeAll(async () => {
      project = await cliProject({
        name: `languages-${language}`,
        from: join(PROGRAMS, language),
        config: { "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
      });
      // The hosts first on PATH, where the engine looks for them; the Go host builds the program with GO_ENV.
      env = {
        GOTOOLCHAIN: GO_ENV.GOTOOLCHAIN,
        GOWORK: GO_ENV.GOWORK,
        GOFLAGS: GO_ENV.GOFLAGS,
        PATH: [hosts, project.env["PATH"]].join(delimiter),
      };
      await prepare(project.dir);
      // Installed as users install it: the SDK asks the engine for forge v<version>, found here.
      await ok(["plugin", "install", "resource", "forge", version, "--file", plugin]);
    }, 900_000);

    afterAll(() => project?.close());

    it("up creates the label, the agent, its token and the member; the lookup answers; a preview then changes nothing", async () => {
      const up = await ok(["up", "--yes", "--skip-preview"]);
      expect(up).toContain("created");
      const types = (await project.resources()).map((resource) => resource.type).filter((type) => type.startsWith("forge:"));
      expect(types.sort()).toEqual([
        "forge:index:ClusterAgent",
        "forge:index:ClusterAgentToken",
        "forge:index:GroupLabel",
        "forge:index:ProjectMember",
      ]);
      expect((await labels()).map((label) => label.name)).toEqual(["type::bug"]);
      const outputs = JSON.parse(await ok(["stack", "output", "--json", "--show-secrets"])) as Record<string, unknown>;
      expect(outputs).toMatchObject({ acmeId: 1, memberLevel: 30 });
      expect(outputs["labelId"]).toBe((await labels())[0]!.id);
      const token = outputs["agentToken"] as string;
      expect(token.length).toBeGreaterThan(10);
      const state = await project.exportText();
      for (const secret of [token, seedToken("root")]) expect(state).not.toContain(secret);
      expect(await ok(["stack", "output", "agentToken"])).toContain("[secret]");
      await ok(["preview", "--expect-no-changes"]);
    }, 900_000);

    it("a refresh expecting no change catches a colour changed by hand; up --refresh repairs it", async () => {
      const bug = (await labels())[0]!;
      await api("PUT", `/groups/acme/labels/${bug.id}`, { color: "#00FF00" });
      const refreshed = await project.run(["refresh", "--preview-only", "--expect-no-changes"], env);
      expect(refreshed.code, refreshed.output).not.toBe(0);
      expect(refreshed.output).toMatch(/color/);
      await ok(["up", "--refresh", "--yes", "--skip-preview"]);
      expect((await labels())[0]!.color.toUpperCase()).toBe("#D9534F");
      await ok(["preview", "--refresh", "--expect-no-changes"]);
    }, 900_000);

    it("pulumi import adopts a label made by hand and prints its declaration in the program's language", async () => {
      const made = await api<{ id: number }>("POST", "/groups/acme/labels", { name: `import::${language}`, color: "#123456" });
      const result = await project.run(["import", "forge:index:GroupLabel", "adopted", `acme:${made.id}`, "--yes", "--protect=false"], env);
      expect(result.code, result.output).toBe(0);
      expect(result.stdout).toMatch(imported);
    }, 900_000);

    // The imported label was never declared in the program: still marked as imported, destroy only
    // drops it from the stack (the import rule, provider/engine/imports.ts).
    it("destroy deletes what the program made, and lets go of the label imported but never declared", async () => {
      await ok(["destroy", "--yes", "--skip-preview"]);
      const left = await labels();
      expect(left.map((label) => label.name)).toEqual([`import::${language}`]);
      await api("DELETE", `/groups/acme/labels/${left[0]!.id}`);
      expect(await api<unknown[]>("GET", `/projects/${DEPLOYER}/cluster_agents`)).toEqual([]);
      const members = await api<{ username: string }[]>("GET", `/projects/${DEPLOYER}/members`);
      expect(members.map((member) => member.username)).not.toContain("nomad");
    }, 900_000);
  });
}

lifeCycle(
  "python",
  async (dir) => {
    await pythonEnvironment(join(work, "sdks", "python"));
    // The project's `virtualenv: venv`: the suite's environment, with pulumi and the SDK.
    symlinkSync(VENV, join(dir, "venv"), "dir");
  },
  /forge\.GroupLabel\("adopted"/,
);

lifeCycle("go", (dir) => goProgram(join(work, "sdks"), dir), /forge\.NewGroupLabel\(ctx, "adopted"/);

// A run of the layer with no host at all says so once (each skipped test also names the reason).
if (!LANGUAGES.python.hosts && !LANGUAGES.go.hosts)
  console.warn(`languages: no language host in ${HOSTS_VARIABLE} or on PATH: nothing to run. See ${GUIDE}.`);
