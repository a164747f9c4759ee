/**
 * The adoption round trip in Pulumi YAML, through the provider plugin and the real CLI: a forge
 * filled out of band with objects of every type forge-adopt covers, `forge-adopt --language yaml`
 * writes the whole Pulumi.yaml, `pulumi up` adopts every object with no request that writes, and
 * a second preview shows nothing but the write-only values the import could not compare. Then the list of `--format pulumi-import` taken in by `pulumi
 * import --file`, which prints the YAML declaration of every object it imported (the YAML host
 * generates it since it is v1.25).
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { adoptEntries } from "../../provider/adopt/entries";
import { declarations } from "../../provider/resources";
import { ENGINE_EXTRA_LABELS, fillForge, pendingWriteOnly, previewChanges, secretValue } from "../cli/adopt-forge";
import { startWorld, type World } from "../contract/world";
import { cliProject, PLUGIN_DIR, type CliProject } from "./cli-project";
import { engineTestDecision, pulumiInstalled, REPO_ROOT, ROOT_TOKEN } from "./harness";

const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const run = promisify(execFile);

let world: World;
let project: CliProject;
let program: string;
let before: number;

const requests = async (since = 0) =>
  ((await (await world.emulator.admin("/requests")).json()) as { seq: number; method: string; path: string }[]).filter(
    (request) => request.seq > since,
  );
const lastSeq = async () => Math.max(0, ...(await requests()).map((request) => request.seq));
const writes = async (since: number) =>
  (await requests(since)).filter((request) => request.method !== "GET").map((request) => `${request.method} ${request.path}`);
const adopt = (args: string[]) =>
  run(process.execPath, [ADOPT_BIN, ...args], {
    env: { ...process.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
    maxBuffer: 16 * 1024 * 1024,
  });
const connection = () => ({ "forge:baseUrl": { value: world.emulator.url }, "forge:token": { value: ROOT_TOKEN, secret: true } });

describe("e2e: forge-adopt's YAML program adopts a whole forge through the plugin", () => {
  beforeAll(async () => {
    engineTestDecision(process.env, pulumiInstalled());
    world = await startWorld();
    await fillForge(world, ENGINE_EXTRA_LABELS);
    project = await cliProject({
      name: "adopt-yaml",
      from: { "Pulumi.yaml": "name: forge-adopted\nruntime: yaml\n" },
      config: connection(),
    });
    const seq = await lastSeq();
    await adopt([
      "--group",
      "acme",
      "--instance",
      "--snippets",
      "--language",
      "yaml",
      "--plugin-path",
      PLUGIN_DIR,
      "--out",
      join(project.dir, "Pulumi.yaml"),
      "--force",
    ]);
    expect(await writes(seq), "forge-adopt only reads").toEqual([]);
    program = readFileSync(join(project.dir, "Pulumi.yaml"), "utf8");
    const secrets = [...program.matchAll(/pulumi config set --secret (\S+) <value> +# (\S+) \S+: (\S+) /g)];
    expect(secrets.length).toBeGreaterThan(0);
    await project.ok([
      "config",
      "set-all",
      ...secrets.flatMap(([, key, type, path]) => ["--secret", `${key!}=${secretValue(type!, path!) ?? `unknown ${path}`}`]),
    ]);
    before = await lastSeq();
  }, 600_000);

  afterAll(async () => {
    project?.close();
    await world?.close();
  });

  it("declares every adoptable type by its plugin token, and the labels past the first page", () => {
    const resources = (parse(program) as { resources: Record<string, { type: string; options: { import: string } }> }).resources;
    const types = new Set(Object.values(resources).map((resource) => resource.type));
    const covered = Object.entries(adoptEntries)
      .filter(([, entry]) => entry && "find" in entry)
      .map(([key]) => declarations[key as keyof typeof declarations].name);
    for (const name of covered) expect(types, name).toContain(`forge:index:${name}`);
    expect(Object.values(resources).filter((resource) => resource.type === "forge:index:GroupLabel").length).toBeGreaterThan(
      ENGINE_EXTRA_LABELS,
    );
    for (const resource of Object.values(resources)) expect(resource.options.import).toEqual(expect.any(String));
  });

  it("up adopts every object and writes nothing to the forge; a second preview shows nothing to do but write the write-only values the import could not compare", async () => {
    const up = await project.ok(["up", "--yes", "--skip-preview"]);
    expect(up).toMatch(/= \d+ imported/);
    expect(up).not.toMatch(/updated/);
    expect(await writes(before)).toEqual([]);
    const declared = Object.keys((parse(program) as { resources: object }).resources).length;
    expect((await project.resources()).filter((resource) => resource.type.startsWith("forge:index:")).length).toBe(declared);
    expect(previewChanges((await project.run(["preview", "--json"])).stdout)).toEqual({ update: pendingWriteOnly(program) });
  }, 600_000);

  it("pulumi import --file takes in the list of --format pulumi-import", async () => {
    const empty = await cliProject({
      name: "adopt-import",
      from: {
        "Pulumi.yaml": `name: forge-imported\nruntime: yaml\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
      },
      config: connection(),
    });
    try {
      const { stdout } = await adopt(["--project", "acme/web", "--format", "pulumi-import"]);
      const list = JSON.parse(stdout) as { resources: { type: string; name: string; id: string }[] };
      expect(list.resources.length).toBeGreaterThan(3);
      writeFileSync(join(empty.work, "import.json"), stdout);
      const seq = await lastSeq();
      const imported = await empty.run(["import", "--file", join(empty.work, "import.json"), "--yes", "--skip-preview", "--protect=false"]);
      expect(imported.code, imported.output).toBe(0);
      expect(await writes(seq)).toEqual([]);
      const inState = (await empty.resources()).filter((resource) => resource.type.startsWith("forge:index:"));
      expect(inState.map((resource) => resource.id).sort()).toEqual(list.resources.map((resource) => resource.id).sort());
      // The code to paste: one declaration per object, by name, in Pulumi YAML's short type form.
      const code = parse(imported.stdout.slice(imported.stdout.indexOf("\nresources:\n") + 1)) as {
        resources: Record<string, { type: string }>;
      };
      const declared = Object.entries(code.resources).map(([name, resource]) => [name, resource.type]);
      expect(declared.sort()).toEqual(list.resources.map((resource) => [resource.name, resource.type.replace(":index:", ":")]).sort());
    } finally {
      empty.close();
    }
  }, 600_000);
});
