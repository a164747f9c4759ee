/**
 * "Adding a resource adds its policies": every declaration has a rule file named after it in
 * policies/rules, or is listed in SCHEMA_ONLY with a reason; and the pack's policies follow the
 * conventions (kebab-case names, one-line descriptions, defaults for every tunable).
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { policies, resourceRules } from "../../policies/all";
import { pathPattern } from "../../policies/input-schema";
import { policyTargets, type ResourceRules } from "../../policies/lib/define";
import { SCHEMA_ONLY } from "../../policies/schema-only";
import { inputKeys, typeToken } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";

const RULES_DIR = path.join(__dirname, "../../policies/rules");
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const ruleFiles = readdirSync(RULES_DIR).filter((file) => file.endsWith(".ts"));

describe("every resource has its policies", () => {
  for (const declaration of Object.values(declarations)) {
    it(`${declaration.name}: policies/rules/${kebab(declaration.name)}.ts, or a reason in SCHEMA_ONLY`, async () => {
      const file = `${kebab(declaration.name)}.ts`;
      const exempt = SCHEMA_ONLY[declaration.name];
      if (!ruleFiles.includes(file)) {
        expect(exempt, `${declaration.name} has no ${path.join("policies/rules", file)} and no reason in policies/schema-only.ts`).toBeTruthy();
        expect(exempt!.length).toBeGreaterThan(20);
        return;
      }
      expect(exempt, `${declaration.name} has a rule file, so it must not be in SCHEMA_ONLY`).toBeUndefined();
      const module = (await import(path.join(RULES_DIR, file))) as { rules?: ResourceRules };
      expect(module.rules?.resource).toBe(declaration);
      expect(module.rules!.policies.length).toBeGreaterThan(0);
      for (const policy of module.rules!.policies) expect(policyTargets(policy), policy.name).toContain(typeToken(declaration));
      expect(resourceRules).toContain(module.rules);
    });
  }

  it("lists only real resources in SCHEMA_ONLY", () => {
    const names = Object.values(declarations).map((declaration) => declaration.name);
    for (const name of Object.keys(SCHEMA_ONLY)) expect(names).toContain(name);
  });

  it("has no rule file that is not in the pack", async () => {
    for (const file of ruleFiles) {
      const module = (await import(path.join(RULES_DIR, file))) as { rules?: ResourceRules };
      expect(resourceRules, file).toContain(module.rules);
      expect(file).toBe(`${kebab(module.rules!.resource.name)}.ts`);
    }
  });

  it("runs the generic schema policy on every resource", () => {
    const generic = policies.find((policy) => policy.name === "forge-input-schema")!;
    expect(policyTargets(generic).sort()).toEqual(Object.values(declarations).map((declaration) => typeToken(declaration)).sort());
  });

  it("covers only real input paths", () => {
    for (const file of resourceRules) {
      for (const covered of file.covers) {
        expect(inputKeys(file.resource), `${file.resource.name}: ${covered}`).toContain(covered.split(/[.[]/)[0]);
        expect(pathPattern(covered)).toBe(covered);
      }
    }
  });
});

describe("the pack's conventions", () => {
  it("puts every rule file's policies in the pack, once", () => {
    const names = policies.map((policy) => policy.name);
    expect(new Set(names).size).toBe(names.length);
    for (const file of resourceRules) for (const policy of file.policies) expect(policies).toContain(policy);
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
        if (Array.isArray(setting) && key.endsWith("Patterns")) for (const pattern of setting) expect(() => new RegExp(pattern as string)).not.toThrow();
      }
    }
  });
});
