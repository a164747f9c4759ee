/**
 * The adoption round trip with the real Pulumi CLI: a forge filled out of band with objects of
 * every resource forge-adopt covers (and labels beyond a page of 100, so listings cross one),
 * the built `forge-adopt` bin writes the program (its default face, the plugin's classes, named
 * in Pulumi.yaml as its header says; the dynamic face's round trip is adopt-terraform.test.ts's),
 * `pulumi up` imports every object without a
 * single request that writes, a second preview shows nothing but the write-only values the
 * import could not compare (their resources' updates), which the next `up` writes, and then a
 * change made in the generated program is applied as an update. One stack, four CLI operations: the suite's time
 * budget is tight.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adoptEntries } from "../../provider/adopt/entries";
import { declarations } from "../../provider/resources";
import { ENGINE_EXTRA_LABELS, fillForge, pendingWriteOnly, SECRET_VALUES, secretValue } from "../cli/adopt-forge";
import { PLUGIN_DIR } from "./cli-project";
import { namesWith, REPO_ROOT, ROOT_TOKEN, startE2eWorld, type E2eWorld, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;
const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const run = promisify(execFile);

let world: E2eWorld;
let stack: TestStack;
let program: string;
let programFile: string;
/** The request log's sequence number before the adoption. */
let before: number;

const writes = async (since: number) =>
  (await world.requests(since)).filter((request) => request.method !== "GET").map((r) => `${r.method} ${r.path}`);
const lastSeq = async () => Math.max(0, ...(await world.requests()).map((request) => request.seq));

describe("e2e: forge-adopt's program adopts a whole forge through the Pulumi CLI", () => {
  beforeAll(async () => {
    world = await startE2eWorld();
    await fillForge(world.fixtureWorld, ENGINE_EXTRA_LABELS);
    const dir = join(world.tmp, "adopted-source");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      `name: adopted\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
    );
    const seq = await lastSeq();
    await run(process.execPath, [ADOPT_BIN, "--group", "acme", "--instance", "--snippets", "--out", join(dir, "index.ts")], {
      env: { ...process.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: ROOT_TOKEN },
    });
    expect(await writes(seq), "forge-adopt only reads").toEqual([]);
    // The avatar's image, fetched beside the program, which names it by its relative path.
    expect(readFileSync(join(dir, "assets", "acme-avatar.png"), "utf8")).toBe("first logo");
    stack = await world.stack("adopted", "adopt", dir);
    programFile = join(stack.workDir, "index.ts");
    program = readFileSync(programFile, "utf8");
    // The secrets the program reads, from its config listing: key and the input it stands for.
    const secrets = [...program.matchAll(/pulumi config set --secret (\S+) <value> +# (\S+) \S+: (\S+) /g)];
    expect(secrets.length).toBeGreaterThan(0);
    await stack.setConfig(
      Object.fromEntries(
        secrets.map(([, key, type, path]) => [`adopted:${key}`, { value: secretValue(type!, path!) ?? `unknown ${path}`, secret: true }]),
      ),
    );
    before = await lastSeq();
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it("declares every adoptable type, and the labels past the first page", () => {
    const covered = Object.entries(adoptEntries)
      .filter(([, entry]) => entry && "find" in entry)
      .map(([key]) => declarations[key as keyof typeof declarations].name);
    for (const name of covered) expect(program, name).toContain(`new forge.${name}(`);
    expect(program.match(/new forge\.GroupLabel\(/g)?.length).toBeGreaterThan(ENGINE_EXTRA_LABELS);
    for (const secret of Object.values(SECRET_VALUES)) expect(program).not.toContain(secret.split("\n")[1] ?? secret);
  });

  it(
    "up adopts every object and writes nothing to the forge",
    async () => {
      const up = await stack.up();
      const declared = [...program.matchAll(/new forge\.\w+\(\s*"([^"]+)"/g)].map(([, name]) => name as string).sort();
      expect(namesWith(up, "import")).toEqual(declared);
      expect(await writes(before)).toEqual([]);
      const state = await stack.resources();
      expect(state.length).toBe(declared.length);
    },
    OP_TIMEOUT,
  );

  it(
    "a second preview shows nothing to do but write the write-only values the import could not compare",
    async () => {
      const preview = await stack.preview();
      expect(pendingWriteOnly(program).length).toBeGreaterThan(0);
      expect(namesWith(preview, "update")).toEqual(pendingWriteOnly(program));
      expect(Object.keys(preview.changes).sort()).toEqual(["same", "update"]);
    },
    OP_TIMEOUT,
  );

  it(
    "after an up that writes the write-only values, a change made in the program is applied as an update, and dropping the import options changes nothing",
    async () => {
      // On the plugin face each imported object stays marked until a run applies the program as it
      // is: that `up` writes the write-only values, and only the next one may change the program.
      const settled = await stack.up();
      expect(namesWith(settled, "update")).toEqual(pendingWriteOnly(program));
      const recolored = program.replace(/(name: "bug", color: )"#FF0000"/, '$1"#00AA00"');
      expect(recolored).not.toBe(program);
      // Without the options: the line of a broken declaration, the last argument of a one-line one.
      const edited = recolored.replace(/^ {2}\{ import: "[^"]*" \},\n/gm, "").replace(/, \{ import: "[^"]*" \}\);$/gm, ");");
      expect(edited).not.toMatch(/import: /);
      writeFileSync(programFile, edited);
      const up = await stack.up();
      expect(namesWith(up, "update")).toEqual(["acme-label-bug"]);
      expect(Object.keys(up.changes).sort()).toEqual(["same", "update"]);
      const labels = await world.api.list<{ name: string; color: string }>("/groups/:group/labels", {
        group: "acme",
        include_ancestor_groups: false,
      });
      expect(labels.find((label) => label.name === "bug")?.color).toBe("#00AA00");
    },
    OP_TIMEOUT,
  );
});
