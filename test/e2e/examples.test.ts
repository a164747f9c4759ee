/**
 * Every TypeScript example program under examples/ (a directory with a Pulumi.yaml), as a user runs it:
 * the real Pulumi CLI against an emulator of its own, `up`, then a `preview --refresh` that finds
 * no drift and nothing to change, then `destroy`, which leaves nothing in the forge. Modules
 * added to an example later are run with no edit here. Three CLI operations per program: the
 * behaviours of each resource type are shown elsewhere (test/contract/life-cycle.test.ts over
 * both faces, kinds.test.ts with the engine).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpMap } from "@pulumi/pulumi/automation";
import { declaredSecrets } from "../../provider/engine/declaration";
import { declarationByName } from "../../provider/resources";
import { leftInForge } from "./forge-api";
import { filesContaining, namesWith, REPO_ROOT, startE2eWorld, type E2eWorld, type StateResource, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;
const EXAMPLES = join(REPO_ROOT, "examples");
/** The TypeScript programs; examples/yaml (Pulumi YAML through the provider plugin) is yaml.test.ts's. */
const programs = readdirSync(EXAMPLES)
  .filter(
    (name) =>
      existsSync(join(EXAMPLES, name, "Pulumi.yaml")) &&
      !/^runtime: yaml$/m.test(readFileSync(join(EXAMPLES, name, "Pulumi.yaml"), "utf8")),
  )
  .sort();

/** The step kinds of an operation other than `same`, with their counts. */
const changesOf = (changes: OpMap) =>
  Object.fromEntries(Object.entries(changes).filter(([kind, count]) => kind !== "same" && (count ?? 0) > 0));

it("finds the example programs", () => {
  expect(programs).toEqual(expect.arrayContaining(["instance-admin", "platform"]));
});

it("type-checks every example program (the runs below only transpile them)", () => {
  // tsc exits non-zero with the errors on stdout; the message shows them.
  const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  let output = "";
  try {
    execFileSync(process.execPath, [tsc, "-p", join(EXAMPLES, "tsconfig.json")], { encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
}, 60_000);

describe.each(programs)("e2e: examples/%s through the Pulumi CLI", (program) => {
  let world: E2eWorld;
  let stack: TestStack;
  let created: StateResource[];

  beforeAll(async () => {
    world = await startE2eWorld();
    stack = await world.stack(program, "example", join(EXAMPLES, program));
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it(
    "up creates what the program declares",
    async () => {
      await stack.up();
      created = await stack.resources();
      expect(created.length).toBeGreaterThan(0);
      // A setting counts as left only while it differs from what it found: most of them do not.
      expect((await leftInForge(world.fixtureWorld, created)).length).toBeGreaterThan(0);
    },
    OP_TIMEOUT,
  );

  it(
    "keeps every secret (secret outputs, write-only inputs such as integration credentials) out of the state in plain text",
    async () => {
      const strings = (value: unknown): string[] =>
        typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];
      const secretsOf = (resource: StateResource) =>
        declaredSecrets(declarationByName(resource.type)).flatMap((key) => strings(resource.outputs[key]));
      const secrets = created.flatMap(secretsOf).filter((text) => text.length >= 12);
      if (program === "platform") {
        // The integrations' credentials are among them: the chat webhooks and the monitoring key.
        const integrationSecrets = created.filter((resource) => resource.type.startsWith("GroupIntegration")).flatMap(secretsOf);
        expect(integrationSecrets).toEqual(
          expect.arrayContaining(["https://chat.example.com/hooks/acme-platform", "placeholder-monitoring-api-key"]),
        );
      }
      const encrypted = await stack.exportedStateEncrypted();
      for (const secret of secrets) expect(encrypted.includes(secret), `pulumi stack export shows ${secret.slice(0, 12)}...`).toBe(false);
      expect(filesContaining(world.backendDir, secrets)).toEqual([]);
    },
    OP_TIMEOUT,
  );

  it(
    "a preview that refreshes first finds no drift and nothing to change",
    async () => {
      // One run for both: each resource read (a refresh step), then the program's diff. Drift in a
      // managed field would show as the program's update; an object gone, as a create.
      const preview = await stack.preview({ refresh: true });
      expect(changesOf(preview.changes)).toEqual({});
      expect(namesWith(preview, "refresh", "same")).toEqual(created.map((resource) => resource.name).sort());
    },
    OP_TIMEOUT,
  );

  it(
    "destroy leaves nothing in the forge",
    async () => {
      await stack.destroy();
      expect(await stack.resources()).toEqual([]);
      expect(await leftInForge(world.fixtureWorld, created)).toEqual([]);
    },
    OP_TIMEOUT,
  );
});
