/**
 * `forge-adopt --from-terraform` against the emulator over HTTP (no Pulumi: the round trip through
 * the CLI is test/e2e/adopt-terraform.test.ts). A forge made as a Terraform configuration of the
 * GitLab provider would have made it, and the state that configuration left, written by hand from
 * the provider's documented attributes (test/cli/terraform-state.ts): only GETs reach the forge,
 * the program and the import list declare the same objects with the forge's import ids, each named
 * by its Terraform address; what cannot move, what no forge resource declares and what the forge
 * no longer has are listed; the state's secrets never reach the output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { closeClients } from "../../provider/client";
import { parseTerraformState, TERRAFORM_TYPES, terraformAddress } from "../../provider/adopt/terraform";
import { startWorld, type World } from "../contract/world";
import { KUBERNETES_TOKEN, oldestProviderState, seedTerraformForge, type TerraformForge } from "./terraform-state";
import { runAdopt, typeCheckProgram, type AdoptRun } from "./adopt-forge";

const REPO_ROOT = join(__dirname, "..", "..");

let world: World;
let tmp: string;
let forge: TerraformForge;
let stateFile: string;

const adopt = (args: string[], env: Record<string, string | undefined> = {}): Promise<AdoptRun> => runAdopt(world.emulator.url, args, env);

const requests = async () => (await (await world.emulator.admin("/requests")).json()) as { seq: number; method: string; path: string }[];
const lastSeq = async () => Math.max(0, ...(await requests()).map((request) => request.seq));

/** Values of the state the output must never show. */
const secrets = () => [...forge.tokens, KUBERNETES_TOKEN, "secret-value", "p4ssw0rd", "GR1348941runners-token-of-the-group"];

describe("forge-adopt --from-terraform", () => {
  let program: string;
  let listing: string[];
  let listRun: AdoptRun;

  beforeAll(async () => {
    world = await startWorld();
    forge = await seedTerraformForge(world);
    tmp = mkdtempSync(join(tmpdir(), "forge-adopt-terraform-"));
    stateFile = join(tmp, "terraform.tfstate");
    writeFileSync(stateFile, JSON.stringify(forge.state, null, 2));
  }, 120_000);

  afterAll(async () => {
    await closeClients();
    await world?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("lists the state's objects with the forge's import ids and their addresses, sending only GETs", async () => {
    const seq = await lastSeq();
    listRun = await adopt(["--from-terraform", stateFile, "--list"]);
    expect(listRun.code).toBe(0);
    const sent = (await requests()).filter((request) => request.seq > seq);
    expect(sent.length).toBeGreaterThan(20);
    expect(sent.filter((request) => request.method !== "GET").map((request) => `${request.method} ${request.path}`)).toEqual([]);
    const rows = listRun.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(rows.every((row) => row.length === 4)).toBe(true);
    listing = rows.map(([type, , id, address]) => `${type}\t${id}\t${address}`).sort();
    expect(listing).toEqual(forge.expected);
    expect(forge.expected.length).toBeGreaterThanOrEqual(20);
    // Names as forge-adopt gives them.
    expect(rows.find(([, , , address]) => address === 'gitlab_group_label.area["bug"]')?.[1]).toBe("acme-label-bug");
  });

  it("notes, on stderr, what is not adopted and what cannot move, by address", () => {
    const lines = listRun.stderr.trim().split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^forge-adopt: not adopted: gitlab_group_label\.gone: GroupLabel acme:999999 is not on the forge/),
        expect.stringMatching(/^forge-adopt: not adopted: gitlab_group\.platform: GroupSettings acme\/platform would declare nothing/),
        "forge-adopt: not adopted: gitlab_project_variable.deploy_key: no forge resource manages CI/CD variables",
        "forge-adopt: not adopted: gitlab_group_badge.docs: no forge resource manages badges",
        "forge-adopt: not adopted: random_password.webhook: not a resource of the GitLab provider",
        expect.stringMatching(
          /^forge-adopt: cannot move: module\.agents\.gitlab_cluster_agent_token\.this\["production"\]: the token's value\. The token stays valid/,
        ),
        expect.stringMatching(/^forge-adopt: cannot move: module\.agents\.gitlab_cluster_agent_token\.this\["edge"\]: /),
      ]),
    );
    // A data source reads: nothing to adopt, nothing to say.
    expect(listRun.stderr).not.toContain("data.gitlab_project");
    expect(lines).toHaveLength(7);
  });

  it("writes a TypeScript program that declares each object once, names its address, and keeps the state's secrets out", async () => {
    const seq = await lastSeq();
    const run = await adopt(["--from-terraform", stateFile]);
    expect(run.code).toBe(0);
    expect((await requests()).filter((request) => request.seq > seq && request.method !== "GET")).toEqual([]);
    program = run.stdout;
    expect(program.split("\n").slice(0, 2)).toEqual([
      `// Generated by forge-adopt (pulumi-forge ${JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version}) from ${world.emulator.url}:`,
      `//   npx forge-adopt --from-terraform ${stateFile}`,
    ]);
    for (const secret of secrets()) expect(program).not.toContain(secret);
    for (const secret of secrets()) expect(run.stderr).not.toContain(secret);
    // Every object, each after the comment that names its Terraform address.
    const declared = [
      ...program.matchAll(/^\/\/ terraform: (.+)\n(?:const \w+ = )?new forge\.(\w+)\(\s*"[^"]+",[\s\S]*?\{ import: "([^"]+)" \}/gm),
    ]
      .map(([, address, type, id]) => `${type}\t${id}\t${address}`)
      .sort();
    expect(declared).toEqual(forge.expected);
    // As forge-adopt presents them: a token's agent by reference, ids that name someone with a comment.
    expect(program).toMatch(/const acmeWebAgentProduction = new forge\.ClusterAgent\(/);
    expect(program).toMatch(/agentId: acmeWebAgentProduction\.agentId/);
    expect(program).toContain(
      '{ project: "acme/web", name: "production", deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ userId: 2 }] }, // olivia',
    );
    expect(program).toMatch(/\{ project: "acme\/web", user: "nomad", accessLevel: 30 \}/);
    expect(program).toMatch(
      /new forge\.GroupSettings\(\n {2}"acme-settings",\n {2}\{ group: "acme", description: "Acme's platform", projectCreationLevel: "maintainer", requireTwoFactorAuthentication: true \},/,
    );
    // Sections by place, as forge-adopt writes them.
    const sections = [...program.matchAll(/^\/\/ ((?:Instance|Group|Project) [^-]*|Instance) -+$/gm)].map(([, title]) => title!.trim());
    expect(sections).toEqual([
      "Instance",
      "Group acme",
      "Project acme/api",
      "Group acme/platform",
      "Project acme/platform/deployer",
      "Project acme/web",
    ]);
  });

  it("says in its header how to hand the objects over, what cannot move, and what was not adopted", () => {
    const header = program.slice(0, program.indexOf("\nimport "));
    expect(header).toContain(`// From the Terraform state ${stateFile}: each declaration names the Terraform resource it replaces.`);
    // Shell words: bare, or single-quoted when the address holds what a shell reads (test/unit/adopt-escape.test.ts has the rest).
    const list = header.slice(header.indexOf("//   terraform state rm \\\n")).split("\n").slice(1);
    const words = list.slice(0, list.findIndex((line) => !line.endsWith(" \\")) + 1);
    const removed = words.map((line) => /^\/\/ {5}(?:'([^']+)'|([^' ]+))(?: \\)?$/.exec(line)).map((match) => match?.[1] ?? match?.[2]);
    expect(removed).toEqual([...new Set(forge.expected.map((row) => row.split("\t")[2]!))].sort());
    expect(header).toContain("//   terraform state rm \\");
    expect(header).toMatch(
      /\/\/ Cannot move \(the Terraform state holds it, the forge never shows it again\):\n\/\/ {3}module\.agents\.gitlab_cluster_agent_token\.this\["production"\]: the token's value\./,
    );
    expect(header).toMatch(
      /\/\/ Not adopted:\n(\/\/ {3}.*\n)*\/\/ {3}gitlab_project_variable\.deploy_key: no forge resource manages CI\/CD variables/,
    );
    expect(header).toMatch(/\/\/ {3}gitlab_project_membership\.gus: member_role_id 3: the forge never shows a custom role/);
    expect(header).toMatch(/\/\/ {3}gitlab_group: GroupSettings manages the settings of the group, not the group itself/);
    // The cluster's token: secret stack config, and where its value is.
    expect(program).toMatch(/token: config\.requireSecret\("clusterMainToken"\)/);
    expect(program).toMatch(
      /\/\/ {3}pulumi config set --secret clusterMainToken <value> +# InstanceCluster cluster-main: platformVendorAttributes\.token \(write-only: the forge never shows it; in the Terraform state: kubernetes_token of gitlab_instance_cluster\.main\)/,
    );
  });

  it("type-checks as a program in a user's project", async () => {
    expect(await typeCheckProgram(tmp, program)).toEqual({ code: 0, stdout: "" });
  }, 60_000);

  it("writes the same objects as Pulumi YAML and as the list pulumi import --file takes", async () => {
    const yamlRun = await adopt(["--from-terraform", stateFile, "--language", "yaml"]);
    expect(yamlRun.code).toBe(0);
    for (const secret of secrets()) expect(yamlRun.stdout).not.toContain(secret);
    expect(yamlRun.stdout).toContain('  # terraform: gitlab_group_label.area["bug"]\n  acme-label-bug:\n');
    const resources = (parse(yamlRun.stdout) as { resources: Record<string, { type: string; options: { import: string } }> }).resources;
    const imports = JSON.parse((await adopt(["--from-terraform", stateFile, "--format", "pulumi-import"])).stdout) as {
      resources: { type: string; name: string; id: string }[];
    };
    const rows = listRun.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(Object.entries(resources).map(([name, resource]) => [resource.type, name, resource.options.import])).toEqual(
      rows.map(([type, name, id]) => [`forge:index:${type}`, name, id]),
    );
    expect(imports.resources.map((resource) => [resource.type, resource.name, resource.id])).toEqual(
      rows.map(([type, name, id]) => [`forge:index:${type}`, name, id]),
    );
  });

  it("reads the state's instances, modules and data sources by Terraform's addresses", () => {
    expect(terraformAddress({ mode: "managed", type: "gitlab_group_label", name: "area" }, "team::backend")).toBe(
      'gitlab_group_label.area["team::backend"]',
    );
    expect(terraformAddress({ module: "module.a.module.b", mode: "managed", type: "gitlab_cluster_agent", name: "this" }, 0)).toBe(
      "module.a.module.b.gitlab_cluster_agent.this[0]",
    );
    expect(terraformAddress({ mode: "data", type: "gitlab_project", name: "web" })).toBe("data.gitlab_project.web");
    expect(() => parseTerraformState(JSON.stringify({ version: 3, modules: [] }))).toThrow(/format version 3: forge-adopt reads version 4/);
    expect(() => parseTerraformState(JSON.stringify({ format_version: "1.0", values: {} }))).toThrow(/output of `terraform show -json`/);
    expect(() => parseTerraformState("not json")).toThrow(/is not JSON/);
  });

  it("reads an older provider's flat attributes", async () => {
    const file = join(tmp, "flat.tfstate");
    const agent = forge.state.resources.find((resource) => resource.type === "gitlab_cluster_agent")!.instances[0]!;
    const flat = Object.fromEntries(Object.entries(agent.attributes).map(([name, value]) => [name, String(value)]));
    writeFileSync(
      file,
      JSON.stringify({
        version: 4,
        resources: [
          {
            mode: "managed",
            type: "gitlab_cluster_agent",
            name: "flat",
            provider: "provider.gitlab",
            instances: [{ attributes_flat: flat }],
          },
        ],
      }),
    );
    const run = await adopt(["--from-terraform", file, "--list"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^ClusterAgent\tacme-web-agent-production\tacme\/web:\d+\tgitlab_cluster_agent\.flat\n$/);
  });

  it("reads the oldest provider releases' states: each mapped type as the 3.x line wrote it (job token scopes as 17.0 did)", async () => {
    const types = new Set(forge.state.resources.map((resource) => resource.type));
    expect(Object.keys(TERRAFORM_TYPES).filter((type) => !types.has(type))).toEqual([]);
    const file = join(tmp, "oldest.tfstate");
    writeFileSync(file, JSON.stringify(oldestProviderState(forge.state, (path) => world.projectId(path))));
    const run = await adopt(["--from-terraform", file, "--list"]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("names no");
    const rows = run.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"))
      .map(([type, , id, address]) => `${type}\t${id}\t${address}`);
    // 17.0's job token scopes had no `enabled`: only their allowlist entries.
    expect(rows.sort()).toEqual(forge.expected.filter((row) => !row.startsWith("JobTokenScope\t")));
  });

  it("says which attributes an instance it cannot read has, never their values", async () => {
    const file = join(tmp, "unknown-shape.tfstate");
    const attributes = { id: "acme/web:1", repository: "acme/web", user_id: 1, access_level: "developer", token: "not-for-output" };
    writeFileSync(
      file,
      JSON.stringify({
        version: 4,
        resources: [{ mode: "managed", type: "gitlab_project_membership", name: "odd", instances: [{ schema_version: 7, attributes }] }],
      }),
    );
    const run = await adopt(["--from-terraform", file, "--list"]);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toBe(
      "forge-adopt: not adopted: gitlab_project_membership.odd: names no project; the instance has access_level, id, repository, token, user_id (schema_version 7)\n",
    );
  });

  it("adopts a group's avatar when the configuration set one: beside the program with --out, noted without", async () => {
    const form = new FormData();
    form.append("avatar", new Blob(["platform logo"]), "platform.png");
    const upload = await fetch(`${world.emulator.url}/api/v4/groups/${encodeURIComponent("acme/platform")}`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": "forge-root-token" },
      body: form,
    });
    expect(upload.status).toBe(200);
    const platform = forge.state.resources.find((resource) => resource.type === "gitlab_group" && resource.name === "platform")!;
    const file = join(tmp, "avatar.tfstate");
    const attributes = { ...platform.instances[0]!.attributes, avatar: "logos/platform.png", avatar_hash: "0123abcd" };
    writeFileSync(file, JSON.stringify({ version: 4, resources: [{ ...platform, instances: [{ attributes }] }] }));
    const printed = await adopt(["--from-terraform", file]);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toMatch(
      /not adopted: GroupAvatar acme-platform-avatar \(gitlab_group\.platform\): its file \(assets\/acme-platform-avatar\.png\) goes beside the program: pass --out/,
    );
    const dir = mkdtempSync(join(tmp, "avatar-"));
    const written = await adopt(["--from-terraform", file, "--out", join(dir, "index.ts")]);
    expect(written.code).toBe(0);
    expect(readFileSync(join(dir, "assets", "acme-platform-avatar.png"), "utf8")).toBe("platform logo");
    expect(readFileSync(join(dir, "index.ts"), "utf8")).toContain(
      '// terraform: gitlab_group.platform\nnew forge.GroupAvatar(\n  "acme-platform-avatar",\n  { group: "acme/platform", avatar: "assets/acme-platform-avatar.png" },\n  { import: "acme/platform" },\n);',
    );
  });

  it.each([
    [["--from-terraform", "STATE", "--group", "acme"], 2, "--from-terraform adopts what the state names: leave out --group"],
    [["--from-terraform"], 2, "argument missing"],
    [["--from-terraform", "/nonexistent/terraform.tfstate"], 1, "cannot read the Terraform state /nonexistent/terraform.tfstate: ENOENT"],
    [["--from-terraform", "BAD"], 1, "is not JSON"],
  ] as const)("%j exits %i: %s", async (args, code, message) => {
    const bad = join(tmp, "bad.tfstate");
    writeFileSync(bad, "{ not json");
    const run = await adopt(args.map((arg) => (arg === "STATE" ? stateFile : arg === "BAD" ? bad : arg)));
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
  });
});
