/**
 * From Terraform through the real Pulumi CLI: a forge that a Terraform configuration of the GitLab
 * provider made, and the state it left (test/cli/terraform-state.ts: 22 objects of 12 Terraform
 * types, written by hand from the provider's documented attributes). The built `forge-adopt
 * --from-terraform` writes the program without a request that writes; the secret it reads is set
 * from the state attribute its config listing names; the first `pulumi up` adopts every object
 * with no request that writes, and the next preview shows nothing but the write-only values the
 * import could not compare (the update that writes them). One stack, two CLI operations.
 * Then the same in Pulumi YAML through the provider plugin (`--language yaml`). In each language,
 * one preview more: of the program made from hostile text (test/cli/hostile-forge.ts), which
 * shows nothing but its imports, no injected resource, and no canary file written.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pendingWriteOnly, previewChanges, runAdopt } from "../cli/adopt-forge";
import { seedHostileForge } from "../cli/hostile-forge";
import { seedTerraformForge, type TerraformForge } from "../cli/terraform-state";
import { startWorld } from "../contract/world";
import { cliProject, PLUGIN_DIR } from "./cli-project";
import {
  engineTestDecision,
  namesWith,
  pulumiInstalled,
  REPO_ROOT,
  ROOT_TOKEN,
  startE2eWorld,
  type E2eWorld,
  type TestStack,
} from "./harness";

const OP_TIMEOUT = 300_000;
const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const run = promisify(execFile);

let world: E2eWorld;
let forge: TerraformForge;
let stack: TestStack;
let program: string;
let before: number;

const writes = async (since: number) =>
  (await world.requests(since)).filter((request) => request.method !== "GET").map((r) => `${r.method} ${r.path}`);
const lastSeq = async () => Math.max(0, ...(await world.requests()).map((request) => request.seq));

/** The value of `attribute` of the instance at `address` in the state. */
function stateValue(forge: TerraformForge, address: string, attribute: string): unknown {
  for (const resource of forge.state.resources) {
    for (const instance of resource.instances) {
      const key = instance.index_key === undefined ? "" : `[${JSON.stringify(instance.index_key)}]`;
      if (`${resource.module ? `${resource.module}.` : ""}${resource.type}.${resource.name}${key}` === address)
        return instance.attributes[attribute];
    }
  }
  return undefined;
}

/** The logical names of what forge-adopt adopts from a state, by `--format pulumi-import` (in this process), sorted. */
async function listedNames(forgeUrl: string, stateFile: string): Promise<string[]> {
  const { stdout } = await runAdopt(forgeUrl, ["--from-terraform", stateFile, "--format", "pulumi-import"]);
  return (JSON.parse(stdout) as { resources: { name: string }[] }).resources.map((resource) => resource.name).sort();
}

describe("e2e: forge-adopt --from-terraform's program adopts what a Terraform state manages", () => {
  beforeAll(async () => {
    world = await startE2eWorld();
    forge = await seedTerraformForge(world.fixtureWorld);
    const dir = join(world.tmp, "from-terraform");
    mkdirSync(dir, { recursive: true });
    const stateFile = join(world.tmp, "terraform.tfstate");
    writeFileSync(stateFile, JSON.stringify(forge.state, null, 2));
    writeFileSync(join(dir, "Pulumi.yaml"), "name: adopted\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n");
    const seq = await lastSeq();
    await run(process.execPath, [ADOPT_BIN, "--from-terraform", stateFile, "--face", "dynamic", "--out", join(dir, "index.ts")], {
      env: { ...process.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
    });
    expect(await writes(seq), "forge-adopt only reads").toEqual([]);
    stack = await world.stack("from-terraform", "adopt", dir);
    program = readFileSync(join(stack.workDir, "index.ts"), "utf8");
    // Each secret the program reads, from the Terraform state attribute its config line names.
    const secrets = [...program.matchAll(/pulumi config set --secret (\S+) <value> .*in the Terraform state: (\S+) of (\S+)\)$/gm)];
    expect(secrets.map(([, key]) => key)).toEqual(["clusterMainToken"]);
    await stack.setConfig(
      Object.fromEntries(
        secrets.map(([, key, attribute, address]) => [
          `adopted:${key}`,
          { value: String(stateValue(forge, address!, attribute!)), secret: true },
        ]),
      ),
    );
    before = await lastSeq();
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it("declares the state's objects, each after its Terraform address", () => {
    const declared = [
      ...program.matchAll(/^\/\/ terraform: (.+)\n(?:const \w+ = )?new forge\.(\w+)\(\s*"[^"]+",[\s\S]*?\{ import: "([^"]+)" \}/gm),
    ]
      .map(([, address, type, id]) => `${type}\t${id}\t${address}`)
      .sort();
    expect(declared).toEqual(forge.expected);
    expect(declared.length).toBeGreaterThanOrEqual(20);
    for (const token of forge.tokens) expect(program).not.toContain(token);
  });

  it(
    "the first up adopts every object and writes nothing to the forge",
    async () => {
      const up = await stack.up();
      const declared = [...program.matchAll(/new forge\.\w+\(\s*"([^"]+)"/g)].map(([, name]) => name as string).sort();
      expect(declared).toHaveLength(forge.expected.length);
      expect(namesWith(up, "create")).toEqual(declared);
      expect(await writes(before)).toEqual([]);
      expect((await stack.resources()).length).toBe(declared.length);
    },
    OP_TIMEOUT,
  );

  it(
    "the next preview shows nothing to do but write the write-only values the import could not compare",
    async () => {
      const preview = await stack.preview();
      expect(namesWith(preview, "update")).toEqual(pendingWriteOnly(program));
      expect(Object.keys(preview.changes).sort()).toEqual(pendingWriteOnly(program).length > 0 ? ["same", "update"] : ["same"]);
      expect(await writes(before)).toEqual([]);
    },
    OP_TIMEOUT,
  );

  // Hostile text from the forge and from a state (test/cli/hostile-forge.ts): code in an address
  // would write the canary file and end the program; the preview shows nothing but the imports.
  it(
    "a program from a hostile state and forge previews exactly its imports, and runs nothing of their text",
    async () => {
      const canary = join(world.tmp, "canary-typescript");
      const hostile = await seedHostileForge(world.fixtureWorld, canary);
      const dir = join(world.tmp, "hostile");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "Pulumi.yaml"),
        "name: hostile\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n",
      );
      const stateFile = join(world.tmp, "hostile.tfstate");
      writeFileSync(stateFile, JSON.stringify(hostile.state));
      const seq = await lastSeq();
      await run(process.execPath, [ADOPT_BIN, "--from-terraform", stateFile, "--face", "dynamic", "--out", join(dir, "index.ts")], {
        env: { ...process.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
      });
      const hostileStack = await world.stack("hostile", "hostile", dir);
      // What the program must declare, from the list (no program text): the names the engine must see.
      const declared = await listedNames(world.emulator.url, stateFile);
      expect(declared).toHaveLength(hostile.expected.length);
      const preview = await hostileStack.preview();
      // Every declaration reached the engine (none cut short by an exit), and nothing else did; the
      // dynamic face's `import` is the library's own, so an adoption shows as a create (as above).
      expect(Object.keys(preview.steps).sort()).toEqual(declared);
      expect(namesWith(preview, "create")).toEqual(declared);
      expect(existsSync(canary), "injected code ran").toBe(false);
      expect(await writes(seq)).toEqual([]);
    },
    OP_TIMEOUT,
  );
});

describe("e2e: forge-adopt --from-terraform --language yaml, through the provider plugin", () => {
  it(
    "the first up imports every object and writes nothing to the forge; the next preview shows only the write-only values to write",
    async () => {
      engineTestDecision(process.env, pulumiInstalled());
      const yamlWorld = await startWorld();
      const yamlForge = await seedTerraformForge(yamlWorld);
      const project = await cliProject({
        name: "adopt-terraform-yaml",
        from: { "Pulumi.yaml": "name: forge-adopted\nruntime: yaml\n" },
        config: { "forge:baseUrl": { value: yamlWorld.emulator.url }, "forge:token": { value: ROOT_TOKEN, secret: true } },
      });
      try {
        const requests = async () =>
          (await (await yamlWorld.emulator.admin("/requests")).json()) as { seq: number; method: string; path: string }[];
        const yamlWrites = async (since: number) =>
          (await requests())
            .filter((request) => request.seq > since && request.method !== "GET")
            .map((request) => `${request.method} ${request.path}`);
        const stateFile = join(project.work, "terraform.tfstate");
        writeFileSync(stateFile, JSON.stringify(yamlForge.state));
        let seq = Math.max(0, ...(await requests()).map((request) => request.seq));
        await run(
          process.execPath,
          [
            ADOPT_BIN,
            "--from-terraform",
            stateFile,
            "--language",
            "yaml",
            "--plugin-path",
            PLUGIN_DIR,
            "--out",
            join(project.dir, "Pulumi.yaml"),
            "--force",
          ],
          {
            env: { ...process.env, FORGE_BASE_URL: yamlWorld.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
          },
        );
        const yaml = readFileSync(join(project.dir, "Pulumi.yaml"), "utf8");
        const resources = (parse(yaml) as { resources: Record<string, { type: string; options: { import: string } }> }).resources;
        expect(Object.keys(resources)).toHaveLength(yamlForge.expected.length);
        const secrets = [...yaml.matchAll(/pulumi config set --secret (\S+) <value> .*in the Terraform state: (\S+) of (\S+)\)$/gm)];
        if (secrets.length > 0)
          await project.ok([
            "config",
            "set-all",
            ...secrets.flatMap(([, key, attribute, address]) => [
              "--secret",
              `${key!}=${String(stateValue(yamlForge, address!, attribute!))}`,
            ]),
          ]);
        seq = Math.max(0, ...(await requests()).map((request) => request.seq));
        expect(await project.ok(["up", "--yes"])).toContain(`= ${yamlForge.expected.length} imported`);
        expect(await yamlWrites(seq)).toEqual([]);
        const pending = pendingWriteOnly(yaml);
        expect(previewChanges((await project.run(["preview", "--json"])).stdout)).toEqual(pending.length > 0 ? { update: pending } : {});
        expect(await yamlWrites(seq)).toEqual([]);

        // Hostile text from the forge and from a state: a YAML structure in an address would add a
        // resource, a `${...}` an expression; the preview shows nothing but the imports.
        const canary = join(project.work, "canary-yaml");
        const hostile = await seedHostileForge(yamlWorld, canary);
        const hostileState = join(project.work, "hostile.tfstate");
        writeFileSync(hostileState, JSON.stringify(hostile.state));
        const adopted = await run(
          process.execPath,
          [ADOPT_BIN, "--from-terraform", hostileState, "--language", "yaml", "--plugin-path", PLUGIN_DIR],
          {
            env: { ...process.env, FORGE_BASE_URL: yamlWorld.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
            maxBuffer: 16 * 1024 * 1024,
          },
        );
        const declared = await listedNames(yamlWorld.emulator.url, hostileState);
        expect(declared).toHaveLength(hostile.expected.length);
        const hostileProject = await cliProject({
          name: "adopt-hostile-yaml",
          from: { "Pulumi.yaml": adopted.stdout },
          config: { "forge:baseUrl": { value: yamlWorld.emulator.url }, "forge:token": { value: ROOT_TOKEN, secret: true } },
        });
        try {
          seq = Math.max(0, ...(await requests()).map((request) => request.seq));
          const preview = await hostileProject.run(["preview", "--json"]);
          expect(preview.code, preview.output).toBe(0);
          const steps = (JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] }).steps.filter((step) =>
            step.urn.includes("::forge:"),
          );
          expect(steps.map((step) => step.urn.slice(step.urn.lastIndexOf("::") + 2)).sort()).toEqual(declared);
          expect(new Set(steps.map((step) => step.op))).toEqual(new Set(["import"]));
          expect(existsSync(canary)).toBe(false);
          expect(await yamlWrites(seq)).toEqual([]);
        } finally {
          hostileProject.close();
        }
      } finally {
        project.close();
        await yamlWorld.close();
      }
    },
    OP_TIMEOUT,
  );
});
