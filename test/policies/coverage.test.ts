/**
 * What keeps the pack whole as resources come and go: forge-input-schema reports a schema failure
 * of every declaration and every input (a new resource is covered with no edit), the
 * hand-written policies look at existing resources and have tests, and the pack follows its
 * conventions (kebab-case unique names, one-line descriptions, defaults for every tunable).
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { policies } from "../../policies/all";
import { inputSchema } from "../../policies/input-schema";
import { policyTargets } from "../../policies/lib/define";
import { inputKeys, type AnyDeclaration } from "../../provider/engine/declaration";
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { validateResource } from "./harness";

const all = Object.values(declarations) as AnyDeclaration[];

/** Values of every JSON type: for any input, one of them is wrong. */
const WRONG_VALUES: unknown[] = [{ not: "a valid value" }, [{ not: "a valid value" }], true, -1.5, ""];

describe("forge-input-schema covers every declaration", () => {
  it("looks at every resource type", () => {
    expect(policyTargets(inputSchema).sort()).toEqual(all.map((declaration) => typeToken(declaration)).sort());
  });

  for (const declaration of all) {
    it(`${declaration.name}: reports a wrong value of each input`, async () => {
      for (const key of inputKeys(declaration)) {
        const field = declaration.inputs.shape[key] as { safeParse(value: unknown): { success: boolean } };
        const wrong = WRONG_VALUES.find((value) => !field.safeParse(value).success);
        expect(wrong, `${declaration.name}.${key} accepts every value`).toBeDefined();
        const messages = await validateResource(inputSchema, { declaration, name: "subject", props: { [key]: wrong } });
        expect(messages, `${declaration.name}.${key} = ${JSON.stringify(wrong)}`).toContainEqual(
          expect.stringMatching(new RegExp(`^${declaration.name} "subject" has an invalid ${key}[.[:]`)),
        );
      }
    });
  }
});

describe("the hand-written policies", () => {
  const tokens = all.map((declaration) => typeToken(declaration));
  const testDir = __dirname;
  const testSources = readdirSync(testDir)
    .filter((file) => file.endsWith(".test.ts") && file !== path.basename(__filename))
    .map((file) => readFileSync(path.join(testDir, file), "utf8"));

  for (const policy of policies) {
    it(`${policy.name}: looks at existing resources and has tests`, () => {
      expect(policyTargets(policy).length, policy.name).toBeGreaterThan(0);
      for (const token of policyTargets(policy)) expect(tokens, policy.name).toContain(token);
      expect(
        testSources.some((source) => source.includes(`describe("${policy.name}`)),
        `no describe("${policy.name}...") in test/policies`,
      ).toBe(true);
    });
  }
});

describe("the pack's conventions", () => {
  it("has unique policy names", () => {
    const names = policies.map((policy) => policy.name);
    expect(new Set(names).size).toBe(names.length);
  });

  for (const policy of policies) {
    it(`${policy.name}: kebab-case name, one-line description, a default level, defaults for its config`, () => {
      expect(policy.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(policy.name).not.toBe("all");
      expect(policy.description).toMatch(/^[A-Z].*\.$/);
      expect(policy.description).not.toContain("\n");
      expect(["mandatory", "advisory"]).toContain(policy.enforcementLevel);
      for (const [key, schema] of Object.entries(policy.configSchema?.properties ?? {})) {
        expect(key).not.toBe("enforcementLevel");
        expect(schema, `${policy.name}.${key}`).toHaveProperty("default");
        expect(schema, `${policy.name}.${key}`).toHaveProperty("description");
      }
    });
  }
});

describe("the pack's files", () => {
  const read = (file: string) => JSON.parse(readFileSync(path.join(__dirname, "../..", file), "utf8")) as Record<string, unknown>;

  it("has the library's version (the PolicyPack reads it from policies/package.json)", () => {
    expect(read("policies/package.json")["version"]).toBe(read("package.json")["version"]);
  });

  it("has an example config that names real policies, levels and settings of the right types", () => {
    const example = read("policies/config.example.json");
    const levels = ["advisory", "mandatory", "remediate", "disabled"];
    for (const [name, value] of Object.entries(example)) {
      const policy = policies.find((candidate) => candidate.name === name);
      expect(policy, name).toBeDefined();
      if (typeof value === "string") {
        expect(levels).toContain(value);
        continue;
      }
      for (const [key, setting] of Object.entries(value as Record<string, unknown>)) {
        if (key === "enforcementLevel") {
          expect(levels).toContain(setting);
          continue;
        }
        const schema = policy!.configSchema?.properties[key];
        expect(schema, `${name}.${key}`).toBeDefined();
        const type = Array.isArray(setting) ? "array" : Number.isInteger(setting) ? "integer" : typeof setting;
        expect([schema!.type, schema!.type === "number" && type === "integer" ? "integer" : undefined], `${name}.${key}`).toContain(type);
        if (Array.isArray(setting) && key.endsWith("Patterns"))
          for (const pattern of setting) expect(() => new RegExp(pattern as string)).not.toThrow();
      }
    }
  });
});
