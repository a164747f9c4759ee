/**
 * The package as users get it: `npm pack`, installed offline into a fresh Pulumi TypeScript
 * project outside the repository (consumer-project.ts), then the real CLI: `up`, a no-op preview
 * that refreshes first, with the policy pack from node_modules/pulumi-forge/policies, `destroy`; a program
 * the installed pack stops; the `forge-emulator` bin; and every ```ts block of the README,
 * CONTRIBUTING.md and docs/ run as such a project's program against the emulator (type-checked, as users' are).
 * That project has `@pulumi/policy` (an optional peer) installed; a second one has no optional
 * peer: there a program importing every public entry point compiles with the template's
 * tsconfig, unchanged, and runs, and the pack and a PostgreSQL backend's lock read fail naming
 * the package to install.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { skipEngineTests, REPO_ROOT } from "../e2e/harness";
import { consumerEnv, consumerStack, createConsumerProject, packRepository, siblingProgram, type PackedPackage } from "./consumer-project";
import { docBlocks } from "./doc-blocks";

const PROGRAM = `import * as forge from "pulumi-forge";

const bug = new forge.GroupLabel("bug", { group: "acme", name: "consumer::bug", color: "red" });
const agent = new forge.ClusterAgent("agent", { project: "acme/web", name: "consumer" });
const token = new forge.ClusterAgentToken("agent-token", {
  project: "acme/web",
  agentId: agent.agentId,
  name: "consumer",
  description: "Consumer test token",
});

export const labelId = bug.labelId;
export const agentToken = token.token;
export const acmeId = forge.getGroup.output({ group: "acme" }).apply((group) => group["id"]);
`;

/** Three tokens on one agent: a limit across resources that only the policy pack sees at preview. */
const VIOLATING = `import * as forge from "pulumi-forge";

const agent = new forge.ClusterAgent("agent", { project: "acme/api", name: "crowded" });
for (const name of ["a", "b", "c"]) {
  new forge.ClusterAgentToken(name, { project: "acme/api", agentId: agent.agentId, name, description: "Deployer" });
}
`;

const POLICY_PACK = "node_modules/pulumi-forge/policies";

/** The package's entry points as a user imports them: every subpath of `exports` but the aliases of files. */
function publicEntryPoints(manifest: PackedPackage["manifest"]): string[] {
  return Object.keys(manifest.exports ?? {})
    .filter((subpath) => subpath !== "./package.json" && !subpath.startsWith("./dist/"))
    .map((subpath) => `pulumi-forge${subpath.slice(1)}`);
}

/** A program that imports every entry point and declares a label on each face. */
function entryPointsProgram(entryPoints: string[]): string {
  return [
    'import * as pulumi from "@pulumi/pulumi";',
    ...entryPoints.map((entry, index) => `import * as entry${index} from "${entry}";`),
    'import * as forge from "pulumi-forge";',
    'import * as plugin from "pulumi-forge/plugin";',
    "",
    'const dynamicLabel = new forge.GroupLabel("dynamic", { group: "acme", name: "entry-points::dynamic", color: "red" });',
    'const pluginLabel = new plugin.GroupLabel("plugin", { group: "acme", name: "entry-points::plugin", color: "blue" });',
    "export const labelIds = pulumi.all([dynamicLabel.labelId, pluginLabel.labelId]);",
    `export const exported = { ${entryPoints.map((entry, index) => `${JSON.stringify(entry)}: Object.keys(entry${index}).length`).join(", ")} };`,
    "",
  ].join("\n");
}
const execFileAsync = promisify(execFile);

describe.skipIf(skipEngineTests())("the packed package in a user's project", () => {
  let emulator: RunningEmulator;
  let tmp: string;
  let project: string;
  /** A project without the optional peers (`@pulumi/policy`, `pg`). */
  let bare: string;
  let packed: PackedPackage;
  let env: Record<string, string>;
  /** The user's tsc on the entry points' program, with the template's tsconfig: started early, it overlaps the CLI's operations. */
  let compiled: Promise<unknown>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    tmp = mkdtempSync(join(tmpdir(), "forge-consumer-"));
    project = join(tmp, "project");
    bare = join(tmp, "bare");
    packed = await packRepository(tmp);
    await Promise.all([createConsumerProject(project, packed, ["@pulumi/policy"]), createConsumerProject(bare, packed)]);
    env = consumerEnv(tmp, { url: emulator.url, token: seedToken("root") });
    siblingProgram(bare, join(tmp, "entry-points"), "forge-consumer-entry-points", entryPointsProgram(publicEntryPoints(packed.manifest)));
    // `tsc -p tsconfig.json`, the template's, unchanged: no esModuleInterop, moduleResolution node (node10).
    compiled = execFileAsync(join(bare, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], { cwd: join(tmp, "entry-points") });
    compiled.catch(() => {}); // awaited by its test
  }, 180_000);

  afterAll(async () => {
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the tarball holds the compiled library with types, the policy pack, the bins, README and licence, and nothing else", () => {
    const files = packed.files;
    for (const required of [
      "LICENSE",
      "README.md",
      "package.json",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/provider/runtime.js",
      "dist/emulator/index.js",
      "dist/policies/index.js",
      "policies/PulumiPolicy.yaml",
      "policies/package.json",
      "dist/cli/forge-emulator.js",
      "dist/cli/forge-drift.js",
      "dist/cli/forge-adopt.js",
      "dist/node10/provider/index.d.ts",
      "dist/node10/provider/plugin/index.d.ts",
    ]) {
      expect(files, required).toContain(required);
    }
    const unexpected = files.filter(
      (file) =>
        /^(test|scripts|bench|examples|\.ci)\//.test(file) ||
        /^dist\/(test|docs|bench)\//.test(file) ||
        (/\.ts$/.test(file) && !file.endsWith(".d.ts")) ||
        file.endsWith(".map"),
    );
    expect(unexpected).toEqual([]);
    expect(packed.manifest).not.toHaveProperty("private");
    expect(packed.manifest.peerDependencies).toHaveProperty("@pulumi/pulumi");
    // The policy pack's package and the PostgreSQL driver: optional peers, not installed with the package.
    for (const optional of ["@pulumi/policy", "pg"]) {
      expect(packed.manifest.dependencies).not.toHaveProperty(optional);
      expect(packed.manifest.peerDependenciesMeta?.[optional], optional).toEqual({ optional: true });
    }
  });

  it("every doc path a message or a shipped page names is in the package", () => {
    const shipped = new Set(packed.files);
    const missing: string[] = [];
    for (const file of packed.files.filter((path) => path.endsWith(".md") || path.endsWith(".js"))) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      // A page's relative links to pages, from its folder; a page or a message's `docs/<...>.md`, from the package's root.
      const linked = file.endsWith(".md")
        ? [...text.matchAll(/\]\(([^)\s#:]+\.md)(?:#[^)]*)?\)/g)].map((match) =>
            posix.normalize(posix.join(posix.dirname(file), match[1]!)),
          )
        : [];
      const named = [...text.matchAll(/(?<![\w/.-])docs\/[\w./-]+\.md/g)].map((match) => match[0]);
      for (const path of new Set([...linked, ...named])) if (!shipped.has(path)) missing.push(`${path} (named in ${file})`);
    }
    expect(missing).toEqual([]);
    expect(shipped).toContain("docs/guides/pipelines-and-locks.md");
  });

  it("up, a no-op preview with the installed policy pack that refreshes first, and destroy", async () => {
    siblingProgram(project, join(tmp, "main"), "forge-consumer-main", PROGRAM);
    const stack = await consumerStack(join(tmp, "main"), "dev", env);
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    expect(up.outputs["agentToken"]?.secret).toBe(true);
    expect(up.outputs["acmeId"]?.value).toEqual(expect.any(Number));
    // The installed package's providers are the small form: the type name over the runtime
    // module, required from the user's node_modules (docs/architecture.md, "The serialized provider").
    const deployment = (await stack.exportStack()).deployment as { resources: { type: string; inputs?: Record<string, unknown> }[] };
    const providers = deployment.resources
      .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/forge:"))
      .map((r) => String(r.inputs?.["__provider"]));
    expect(providers.length).toBeGreaterThan(0);
    for (const text of providers) {
      expect(text).toContain('Object.create(require("pulumi-forge/');
      expect(text.length).toBeLessThan(400);
    }

    // Refreshed first: one run shows the installed pack passing, no drift and nothing to change.
    const refreshed = new Set<string>();
    const preview = await stack.preview({
      policyPacks: [join(project, POLICY_PACK)],
      refresh: true,
      onEvent: (event) => {
        const metadata = event.resOutputsEvent?.metadata;
        if (metadata?.op === "refresh" && metadata.type.startsWith("pulumi-nodejs:dynamic/forge:")) refreshed.add(metadata.urn);
      },
    });
    expect(preview.changeSummary).toEqual({ same: 4 });
    expect(preview.stdout).toContain("forge@v");
    expect(refreshed.size).toBe(3);

    // The installed bin, on the user's own @pulumi/pulumi (the peer).
    const drift = await execFileAsync(join(project, "node_modules", ".bin", "forge-drift"), ["--stack", "dev"], {
      cwd: join(tmp, "main"),
      env: { ...process.env, ...env },
    });
    expect(drift.stdout).toBe("No drift in stack dev: the forge matches the stack.\n");

    // The installed forge-adopt sees what the stack made (its full run is test/e2e/adopt.test.ts).
    const adopt = await execFileAsync(join(project, "node_modules", ".bin", "forge-adopt"), ["--project", "acme/web", "--list"], {
      cwd: join(tmp, "main"),
      env: { ...process.env, ...env },
    });
    expect(adopt.stdout).toMatch(/^ClusterAgent\tacme-web-agent-consumer\tacme\/web:\d+$/m);
    expect(adopt.stdout).toMatch(/^ClusterAgentToken\tacme-web-agent-token-consumer\tacme\/web:\d+:\d+$/m);

    const destroy = await stack.destroy();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 4 });
  }, 180_000);

  it("the installed policy pack stops a program that breaks a limit", async () => {
    siblingProgram(project, join(tmp, "violating"), "forge-consumer-violating", VIOLATING);
    const stack = await consumerStack(join(tmp, "violating"), "dev", env);
    const failure = await stack.preview({ policyPacks: [join(project, POLICY_PACK)] }).then(
      () => undefined,
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/cluster-agent-token-limit/);
    expect(failure).toMatch(/mandatory/);
  }, 120_000);

  it("a program importing every public entry point compiles with the template's tsconfig, unchanged, and runs", async () => {
    const entryPoints = publicEntryPoints(packed.manifest);
    expect(entryPoints).toEqual(
      expect.arrayContaining(["pulumi-forge", "pulumi-forge/plugin", "pulumi-forge/drift", "pulumi-forge/emulator"]),
    );
    await expect(compiled, "tsc -p tsconfig.json").resolves.toBeDefined();
    const stack = await consumerStack(join(tmp, "entry-points"), "dev", env);
    try {
      const up = await stack.up();
      expect(up.outputs["labelIds"]?.value).toEqual([expect.any(Number), expect.any(Number)]);
      const exported = up.outputs["exported"]?.value as Record<string, number>;
      expect(Object.keys(exported).sort()).toEqual([...entryPoints].sort());
      for (const entry of entryPoints) expect(exported[entry], entry).toBeGreaterThan(0);
    } finally {
      await stack.destroy();
    }
  }, 180_000);

  it("without @pulumi/policy, the policy pack fails naming the package to install", async () => {
    siblingProgram(bare, join(tmp, "no-policy"), "forge-consumer-no-policy", PROGRAM);
    const stack = await consumerStack(join(tmp, "no-policy"), "dev", env);
    const failure = await stack.preview({ policyPacks: [join(bare, POLICY_PACK)] }).then(
      () => "the preview passed",
      (error: unknown) => String(error),
    );
    expect(failure).toContain("npm install @pulumi/policy");
  }, 120_000);

  it("without pg, a tool reading a PostgreSQL backend's lock fails naming the package to install", async () => {
    siblingProgram(bare, join(tmp, "no-pg"), "forge-consumer-no-pg", PROGRAM);
    const failure = await execFileAsync(join(bare, "node_modules", ".bin", "forge-drift"), ["--stack", "dev"], {
      cwd: join(tmp, "no-pg"),
      env: { ...process.env, ...env, PULUMI_BACKEND_URL: "postgres://forge@127.0.0.1:9/forge?sslmode=disable" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain("npm install pg");
  }, 60_000);

  it("npx forge-emulator serves the API", async () => {
    const child = spawn(join(project, "node_modules", ".bin", "forge-emulator"), ["--port", "0"], {
      env: { ...process.env, PATH: env["PATH"] },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`forge-emulator exited with ${code}: ${out}`)));
      });
      const response = await fetch(`${url}/api/v4/groups/acme`, { headers: { "PRIVATE-TOKEN": seedToken("root") } });
      expect(response.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("the README's quick starts run one after the other on one forge, and the installed pack raises nothing on either", async () => {
    const fromReadme = (block: { where: string }) => block.where.startsWith("README.md:");
    const [typescript, ...moreTypescript] = docBlocks(REPO_ROOT).filter(fromReadme);
    const [yaml, ...moreYaml] = docBlocks(REPO_ROOT, "yaml").filter((block) => fromReadme(block) && block.code.startsWith("name:"));
    expect([moreTypescript, moreYaml]).toEqual([[], []]);
    siblingProgram(project, join(tmp, "quick-typescript"), "quick-start-typescript", typescript!.code);
    const yamlDir = join(tmp, "quick-yaml");
    mkdirSync(yamlDir, { recursive: true });
    writeFileSync(join(yamlDir, "Pulumi.yaml"), yaml!.code);
    symlinkSync(join(project, "node_modules"), join(yamlDir, "node_modules"), "dir");
    const stacks = [await consumerStack(join(tmp, "quick-typescript"), "dev", env), await consumerStack(yamlDir, "dev", env)];
    try {
      for (const stack of stacks) {
        const raised: string[] = [];
        await stack.preview({
          policyPacks: [join(project, POLICY_PACK)],
          onEvent: (event) => {
            if (event.policyEvent) raised.push(`${event.policyEvent.policyName}: ${event.policyEvent.message}`);
          },
        });
        expect(raised, stack.workspace.workDir).toEqual([]);
        await stack.up();
      }
    } finally {
      for (const stack of stacks.reverse()) await stack.destroy();
    }
  }, 240_000);

  describe("every TypeScript block of the README, CONTRIBUTING.md and docs/", () => {
    const blocks = docBlocks(REPO_ROOT);
    // A program shown on two pages (the README's quick start is docs/_index.md's example) runs once.
    const programs = blocks.filter((block) => block.fragment === undefined);
    const runnable = programs.filter((block, index) => programs.findIndex((other) => other.code === block.code) === index);

    it("each block is a program or a fragment that says why", () => {
      expect(runnable.length).toBeGreaterThan(0);
      for (const block of blocks) if (block.fragment !== undefined) expect(block.fragment, block.where).not.toBe("");
    });

    it.each(runnable.map((block) => [block.where, block] as const))(
      "%s runs in a user's project",
      async (_where, block) => {
        const dir = join(tmp, "docs", block.where.replace(/[^a-z0-9]+/gi, "-"));
        siblingProgram(project, dir, "forge-docs", block.code);
        const stack = await consumerStack(dir, "docs", env);
        try {
          await stack.up();
        } finally {
          await stack.destroy();
        }
      },
      120_000,
    );
  });
});
