/**
 * forge-adopt keeps hostile text data, from both sources and in both languages: the
 * emulator holds labels, a group description and a broadcast message made of the hostile strings
 * of test/support/hostile-text.ts (newlines, CR, U+2028/9, `*\/`, `#`, `${`, YAML indicators,
 * NUL, quotes, backslashes, ESC, bidi controls, 10 kB), and a Terraform state names them under
 * hostile module paths, names and `for_each` keys, beside hostile entries it does not adopt
 * (test/cli/hostile-forge.ts). Each program parses, type-checks, and declares exactly the objects
 * `--format pulumi-import` lists, each with the forge's values, and nothing else; the command's
 * own lines hold no raw control character; the `terraform state rm` words read back in a shell as
 * the addresses. The real engine's preview of such programs is test/e2e/adopt-terraform.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printable } from "../../provider/adopt/escape";
import { closeClients } from "../../provider/client";
import { startWorld, type World } from "../contract/world";
import { typescriptDeclarations, yamlDeclarations, type Declared } from "../support/generated-programs";
import { RAW_UNSAFE } from "../support/hostile-text";
import { runAdopt, typeCheckProgram } from "./adopt-forge";
import { seedHostileForge, type HostileForge } from "./hostile-forge";

let world: World;
let tmp: string;
let forge: HostileForge;
let stateFile: string;
const programs: string[] = [];

const adopt = (args: string[]) => runAdopt(world.emulator.url, args);

/** The raw control or invisible characters of a text, but its line ends. */
const unsafe = (text: string) => [...text].filter((character) => RAW_UNSAFE.test(character));

describe("forge-adopt with hostile text", () => {
  beforeAll(async () => {
    world = await startWorld();
    tmp = mkdtempSync(join(tmpdir(), "forge-adopt-hostile-"));
    forge = await seedHostileForge(world, join(tmp, "canary"));
    // The file's own name is the user's, and quoted in the header's command as a shell word.
    stateFile = join(tmp, `it's a "state" $HOME.tfstate`);
    writeFileSync(stateFile, JSON.stringify(forge.state));
  }, 120_000);

  afterAll(async () => {
    await closeClients();
    await world?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Each hostile object declared with the forge's values. */
  function expectForgeValues(declared: Declared[]): void {
    for (const label of forge.labels) {
      const found = declared.find((resource) => resource.type === "GroupLabel" && resource.import === `acme/platform:${label.id}`);
      expect(found?.inputs, label.name.slice(0, 40)).toMatchObject({
        group: "acme/platform",
        name: label.name,
        description: label.description,
      });
      expect(found!.name).toMatch(/^[a-z0-9-]{1,80}$/);
    }
    expect(declared.find((resource) => resource.type === "GroupSettings")?.inputs).toMatchObject({
      group: "acme/platform",
      description: forge.groupDescription,
    });
  }

  describe.each([
    ["the live forge", () => ["--group", "acme/platform", "--instance"]],
    ["a Terraform state", () => ["--from-terraform", stateFile]],
  ])("from %s", (_source, args) => {
    let listed: [string, string, string][];

    beforeAll(async () => {
      const list = await adopt([...args(), "--format", "pulumi-import"]);
      expect(list.code, list.stderr).toBe(0);
      listed = (JSON.parse(list.stdout) as { resources: { type: string; name: string; id: string }[] }).resources.map((resource) => [
        resource.type.replace("forge:index:", ""),
        resource.name,
        resource.id,
      ]);
      expect(listed.length).toBeGreaterThan(forge.labels.length);
    });

    it.each([
      ["TypeScript", [], typescriptDeclarations],
      ["Pulumi YAML", ["--language", "yaml"], (text: string) => yamlDeclarations(text).resources],
    ] as const)(
      "the %s program declares exactly what is listed, each with the forge's values, and nothing else",
      async (language, extra, read) => {
        const run = await adopt([...args(), ...extra]);
        expect(run.code, run.stderr).toBe(0);
        expect(unsafe(run.stdout)).toEqual([]);
        expect(unsafe(run.stderr)).toEqual([]);
        const declared = read(run.stdout);
        expect(declared.map((resource) => [resource.type, resource.name, resource.import])).toEqual(listed);
        expectForgeValues(declared);
        if (language === "TypeScript") programs.push(run.stdout);
      },
    );
  });

  it("and a broadcast message of the instance, declared with its text", async () => {
    const declared = typescriptDeclarations((await adopt(["--instance"])).stdout);
    expect(declared.filter((resource) => resource.type === "BroadcastMessage").map((resource) => resource.inputs["message"])).toContain(
      forge.texts["lineSeparator"],
    );
  });

  it("both TypeScript programs type-check as a user's project", async () => {
    expect(programs).toHaveLength(2);
    expect(await typeCheckProgram(tmp, programs)).toEqual({ code: 0, stdout: "" });
  }, 120_000);

  it("from a Terraform state, lists each object by its address and notes what it leaves, a line each", async () => {
    const run = await adopt(["--from-terraform", stateFile, "--list"]);
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(rows.every((row) => row.length === 4)).toBe(true);
    expect(rows.map(([type, , id, address]) => `${type}\t${id}\t${address}`).sort()).toEqual(
      forge.expected.map((row) => row.split("\t").map(printable).join("\t")).sort(),
    );
    const notes = run.stderr.trimEnd().split("\n");
    expect(notes.filter((line) => line.startsWith("forge-adopt: not adopted: "))).toHaveLength(forge.notAdopted);
    expect(notes.every((line) => line.startsWith("forge-adopt: "))).toBe(true);
    expect(run.stderr).toContain("forge-adopt: not adopted: __proto__.proto: not a resource of the GitLab provider");
    expect(run.stderr).toMatch(
      /not adopted: gitlab_project_membership\.member.*: names the project ".*", which is no project's id or full path/,
    );
  });

  it("writes `terraform state rm` words that a shell reads back as the addresses, names those no word can hold, and the state file's name as a shell word", () => {
    const program = programs[1]!;
    expect(program).toContain(`//   npx forge-adopt --from-terraform '${stateFile.replaceAll("'", "'\\''")}'\n`);
    const list = program.slice(program.indexOf("//   terraform state rm \\\n")).split("\n").slice(1);
    const words = list
      .slice(0, list.findIndex((line) => !line.endsWith(" \\")) + 1)
      .map((line) => line.replace(/^\/\/ {5}/, "").replace(/ \\$/, ""));
    const read = words.map((word) => execFileSync("bash", ["-c", `printf '%s' ${word}`], { encoding: "utf8" }));
    const addresses = [...new Set(forge.expected.map((row) => row.split("\t")[2]!))].sort();
    expect(read).toEqual(addresses.filter((address) => !address.includes("\u0000")));
    // No argument holds a NUL: such an address is named, and how to remove it said.
    const unnamed = addresses.filter((address) => address.includes("\u0000"));
    expect(unnamed).toHaveLength(1);
    expect(program).toContain(
      `// No command line can name these addresses (each holds a NUL character): take them out of the state\n// with \`terraform state pull\`, an edit, and \`terraform state push\`:\n//     ${printable(unnamed[0]!)}\n`,
    );
  });
});
