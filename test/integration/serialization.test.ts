/**
 * Providers survive Pulumi's closure serialization: each is serialized in a fresh Node process
 * (as a Pulumi program does), loaded from that text in another (as the provider process does),
 * and driven against the emulator. Runs on the compiled library in dist/, as users get it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { declarations } from "../../provider/resources";
import { startWorld, type World } from "../contract/world";

const root = resolve(__dirname, "../..");
const names = Object.values(declarations).map((declaration) => declaration.name);
let world: World;
let serialized: Record<string, string>;
const canary = "forge-canary-token-must-not-be-serialized";
// Asynchronous: the emulator lives in this process and must keep answering while the child runs.
const run = promisify(execFile);

beforeAll(async () => {
  if (!existsSync(join(root, "dist/provider/serialized-provider.js"))) {
    throw new Error("dist/ is missing: run `npx tsc -p tsconfig.json` (scripts/test.sh does) before this test");
  }
  world = await startWorld();
  const script = `
    const pulumi = require("@pulumi/pulumi");
    const { serializableProvider } = require("./dist/provider/serialized-provider.js");
    (async () => {
      const out = {};
      for (const name of ${JSON.stringify(names)}) {
        const provider = serializableProvider(name);
        out[name] = (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
      }
      process.stdout.write(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const { stdout } = await run(process.execPath, ["-e", script], {
    cwd: root,
    env: { ...process.env, FORGE_TOKEN: canary, FORGE_BASE_URL: world.emulator.url },
    maxBuffer: 64 * 1024 * 1024,
  });
  serialized = JSON.parse(stdout) as Record<string, string>;
}, 120_000);

afterAll(async () => world?.close());

it("serializes every provider small and without any credential: the type name over the runtime module, required by package", () => {
  expect(Object.keys(serialized).sort()).toEqual([...names].sort());
  for (const [name, text] of Object.entries(serialized)) {
    expect(text, name).not.toContain(canary);
    expect(text, name).not.toContain(world.user("root").token);
    // Stored twice in every resource's state, rewritten at every step: 2.7 KB before this form.
    expect(text.length, name).toBeLessThan(400);
    expect(text, name).toContain(`Object.create(require("pulumi-forge/`);
    expect(text, name).toContain(`"${name}"`);
  }
});

// The states of existing stacks hold providers serialized by 0.1.0 (seven methods calling
// `configure(req.config)` and `implementation(typeName)`): a refresh or destroy runs them
// against the runtime of the installed version.
const texts = {
  "this version": () => serialized["GroupLabel"] as string,
  "0.1.0 (in existing states)": () => readFileSync(join(__dirname, "fixtures", "provider-0.1.0-GroupLabel.js"), "utf8"),
  // Before the composition root left engine/: the runtime's old path is an export of the package.
  "0.2 (runtime under engine/)": () => readFileSync(join(__dirname, "fixtures", "provider-0.2-GroupLabel.js"), "utf8"),
};

it.each(Object.keys(texts))(
  "loads in a fresh process and runs check, create, read and delete against the emulator: provider of %s",
  async (version) => {
    const dir = mkdtempSync(join(tmpdir(), "forge-serialized-"));
    const file = join(dir, "provider.js");
    writeFileSync(file, texts[version as keyof typeof texts]());
    // The provider process loads the text without a file name; `require` resolves from its cwd.
    const script = `
    const Module = require("node:module");
    const fs = require("node:fs");
    const m = new Module("", null);
    m.paths = Module._nodeModulePaths(process.cwd());
    m._compile(fs.readFileSync(${JSON.stringify(file)}, "utf8"), "");
    const provider = m.exports.handler();
    (async () => {
      await provider.configure({ config: { get: () => undefined, require: () => { throw new Error("no"); } } });
      const inputs = { group: "acme", name: "serialized-" + Date.now(), color: "green" };
      const check = await provider.check({}, inputs);
      if (check.failures) throw new Error("check failed: " + JSON.stringify(check.failures));
      const bad = await provider.check({}, { ...inputs, color: "greenish" });
      const created = await provider.create(inputs);
      const read = await provider.read(created.id, created.outs);
      await provider.delete(created.id, created.outs);
      const gone = await provider.read(created.id, created.outs);
      process.stdout.write(JSON.stringify({ bad: bad.failures, created, read, gone }));
    })().catch((e) => { console.error(e); process.exit(1); });`;
    const { stdout } = await run(process.execPath, ["-e", script], {
      cwd: root,
      env: { ...process.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: world.user("max").token },
    });
    const result = JSON.parse(stdout);
    // On the resource, the field leading the reason (the engine then prints no input value).
    expect(result.bad).toEqual([{ property: "", reason: expect.stringMatching(/^color: .*hex/) }]);
    expect(result.created.id).toMatch(/^acme:\d+$/);
    expect(result.created.outs).toMatchObject({
      group: "acme",
      name: expect.stringMatching(/^serialized-/),
      color: "green",
      textColor: expect.any(String),
    });
    expect(result.read.props).toEqual(result.created.outs);
    expect(result.gone.id).toBe("");
  },
);
