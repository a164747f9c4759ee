/**
 * From Terraform through the real Pulumi CLI: a forge that a Terraform configuration of the GitLab
 * provider made, and the state it left (test/cli/terraform-state.ts: 22 objects of 12 Terraform
 * types, written by hand from the provider's documented attributes). The built `forge-adopt
 * --from-terraform` writes the program without a request that writes; the secret it reads is set
 * from the state attribute its config listing names; the first `pulumi up` adopts every object
 * with no request that writes, and the next preview shows nothing but the write-only values the
 * import could not compare (the update that writes them). One stack, two CLI operations.
 * Then the same in Pulumi YAML through the provider plugin (`--language yaml`).
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pendingWriteOnly, previewChanges } from "../cli/adopt-forge";
import { seedTerraformForge, type TerraformForge } from "../cli/terraform-state";
import { startWorld } from "../contract/world";
import { cliProject, PLUGIN_DIR } from "./cli-project";
import { engineTestDecision, namesWith, pulumiInstalled, REPO_ROOT, ROOT_TOKEN, startE2eWorld, type E2eWorld, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;
const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const run = promisify(execFile);

let world: E2eWorld;
let forge: TerraformForge;
let stack: TestStack;
let program: string;
let before: number;

const writes = async (since: number) => (await world.requests(since)).filter((request) => request.method !== "GET").map((r) => `${r.method} ${r.path}`);
const lastSeq = async () => Math.max(0, ...(await world.requests()).map((request) => request.seq));

/** The value of `attribute` of the instance at `address` in the state. */
function stateValue(forge: TerraformForge, address: string, attribute: string): unknown {
  for (const resource of forge.state.resources) {
    for (const instance of resource.instances) {
      const key = instance.index_key === undefined ? "" : `[${JSON.stringify(instance.index_key)}]`;
      if (`${resource.module ? `${resource.module}.` : ""}${resource.type}.${resource.name}${key}` === address) return instance.attributes[attribute];
    }
  }
  return undefined;
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
    await run(process.execPath, [ADOPT_BIN, "--from-terraform", stateFile, "--out", join(dir, "index.ts")], {
      env: { ...process.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
    });
    expect(await writes(seq), "forge-adopt only reads").toEqual([]);
    stack = await world.stack("from-terraform", "adopt", dir);
    program = readFileSync(join(stack.workDir, "index.ts"), "utf8");
    // Each secret the program reads, from the Terraform state attribute its config line names.
    const secrets = [...program.matchAll(/pulumi config set --secret (\S+) <value> .*in the Terraform state: (\S+) of (\S+)\)$/gm)];
    expect(secrets.map(([, key]) => key)).toEqual(["clusterMainToken"]);
    await stack.setConfig(Object.fromEntries(secrets.map(([, key, attribute, address]) => [`adopted:${key}`, { value: String(stateValue(forge, address!, attribute!)), secret: true }])));
    before = await lastSeq();
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it("declares the state's objects, each after its Terraform address", () => {
    const declared = [...program.matchAll(/^\/\/ terraform: (.+)\n(?:const \w+ = )?new forge\.(\w+)\(\s*"[^"]+",[\s\S]*?\{ import: "([^"]+)" \}/gm)].map(([, address, type, id]) => `${type}\t${id}\t${address}`).sort();
    expect(declared).toEqual(forge.expected);
    expect(declared.length).toBeGreaterThanOrEqual(20);
    for (const token of forge.tokens) expect(program).not.toContain(token);
  });

  it("the first up adopts every object and writes nothing to the forge", async () => {
    const up = await stack.up();
    const declared = [...program.matchAll(/new forge\.\w+\(\s*"([^"]+)"/g)].map(([, name]) => name as string).sort();
    expect(declared).toHaveLength(forge.expected.length);
    expect(namesWith(up, "create")).toEqual(declared);
    expect(await writes(before)).toEqual([]);
    expect((await stack.resources()).length).toBe(declared.length);
  }, OP_TIMEOUT);

  it("the next preview shows nothing to do but write the write-only values the import could not compare", async () => {
    const preview = await stack.preview();
    expect(namesWith(preview, "update")).toEqual(pendingWriteOnly(program));
    expect(Object.keys(preview.changes).sort()).toEqual(pendingWriteOnly(program).length > 0 ? ["same", "update"] : ["same"]);
    expect(await writes(before)).toEqual([]);
  }, OP_TIMEOUT);
});

describe("e2e: forge-adopt --from-terraform --language yaml, through the provider plugin", () => {
  it("the first up imports every object and writes nothing to the forge; the next preview shows only the write-only values to write", async () => {
    engineTestDecision(process.env, pulumiInstalled());
    const yamlWorld = await startWorld();
    const yamlForge = await seedTerraformForge(yamlWorld);
    const project = await cliProject({
      name: "adopt-terraform-yaml",
      from: { "Pulumi.yaml": "name: forge-adopted\nruntime: yaml\n" },
      config: { "forge:baseUrl": { value: yamlWorld.emulator.url }, "forge:token": { value: ROOT_TOKEN, secret: true } },
    });
    try {
      const requests = async () => (await (await yamlWorld.emulator.admin("/requests")).json()) as { seq: number; method: string; path: string }[];
      const yamlWrites = async (since: number) => (await requests()).filter((request) => request.seq > since && request.method !== "GET").map((request) => `${request.method} ${request.path}`);
      const stateFile = join(project.work, "terraform.tfstate");
      writeFileSync(stateFile, JSON.stringify(yamlForge.state));
      let seq = Math.max(0, ...(await requests()).map((request) => request.seq));
      await run(process.execPath, [ADOPT_BIN, "--from-terraform", stateFile, "--language", "yaml", "--plugin-path", PLUGIN_DIR, "--out", join(project.dir, "Pulumi.yaml"), "--force"], {
        env: { ...process.env, FORGE_BASE_URL: yamlWorld.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
      });
      const yaml = readFileSync(join(project.dir, "Pulumi.yaml"), "utf8");
      const resources = (parse(yaml) as { resources: Record<string, { type: string; options: { import: string } }> }).resources;
      expect(Object.keys(resources)).toHaveLength(yamlForge.expected.length);
      const secrets = [...yaml.matchAll(/pulumi config set --secret (\S+) <value> .*in the Terraform state: (\S+) of (\S+)\)$/gm)];
      if (secrets.length > 0) await project.ok(["config", "set-all", ...secrets.flatMap(([, key, attribute, address]) => ["--secret", `${key!}=${String(stateValue(yamlForge, address!, attribute!))}`])]);
      seq = Math.max(0, ...(await requests()).map((request) => request.seq));
      expect(await project.ok(["up", "--yes"])).toContain(`= ${yamlForge.expected.length} imported`);
      expect(await yamlWrites(seq)).toEqual([]);
      const pending = pendingWriteOnly(yaml);
      expect(previewChanges((await project.run(["preview", "--json"])).stdout)).toEqual(pending.length > 0 ? { update: pending } : {});
      expect(await yamlWrites(seq)).toEqual([]);
    } finally {
      project.close();
      await yamlWorld.close();
    }
  }, OP_TIMEOUT);
});
