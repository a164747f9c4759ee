import { describe, expect, it } from "vitest";
import type { Policy } from "@pulumi/policy";
import { inputSchema } from "../../policies/input-schema";
import {
  groupProtectedEnvironmentProductionApproval,
  projectProtectedEnvironmentProductionApproval,
} from "../../policies/rules/production-approvals";
import { declarations } from "../../provider/resources";
import { UNKNOWN, validateResource } from "./harness";

const project = (policy: Policy, props: Record<string, unknown>, config?: Record<string, unknown>) =>
  validateResource(policy, {
    declaration: declarations.projectProtectedEnvironment,
    name: "web-prod",
    props: { project: "acme/web", name: "production", ...props },
    ...(config ? { config } : {}),
  });

const group = (policy: Policy, props: Record<string, unknown>, config?: Record<string, unknown>) =>
  validateResource(policy, {
    declaration: declarations.groupProtectedEnvironment,
    name: "acme-prod",
    props: { group: "acme", name: "production", ...props },
    ...(config ? { config } : {}),
  });

/** The entry rules live in the protected environments' schemas; forge-input-schema reports their messages. */
describe("forge-input-schema: ProjectProtectedEnvironment entries", () => {
  const rules = (props: Record<string, unknown>) => project(inputSchema, props);
  const subject = 'ProjectProtectedEnvironment "web-prod" has an invalid';

  it("needs a name that is not blank, as the forge does (Name can't be blank)", async () => {
    for (const name of ["", "   "]) {
      expect(await rules({ name, deployAccessLevels: [{ accessLevel: 40 }] })).toEqual([
        `${subject} name: it is blank. Give the environment's name.`,
      ]);
    }
  });

  it("accepts entries with exactly one grantee, valid levels and inheritance", async () => {
    expect(
      await rules({
        deployAccessLevels: [{ accessLevel: 40 }, { userId: 3 }, { groupId: 9, groupInheritanceType: 1 }],
        approvalRules: [
          { accessLevel: 60, requiredApprovals: 2 },
          { groupId: 9, groupInheritanceType: 0 },
        ],
      }),
    ).toEqual([]);
  });

  it("tolerates values unknown at preview", async () => {
    expect(await rules({ deployAccessLevels: UNKNOWN, approvalRules: UNKNOWN })).toEqual([]);
    expect(
      await rules({ deployAccessLevels: [UNKNOWN, { userId: UNKNOWN }, { accessLevel: UNKNOWN, groupInheritanceType: UNKNOWN }] }),
    ).toEqual([]);
  });

  it("needs at least one deploy access level", async () => {
    const expected = `${subject} deployAccessLevels: it needs at least one entry saying who may deploy, such as [{ accessLevel: 40 }].`;
    expect(await rules({})).toEqual([expected]);
    expect(await rules({ deployAccessLevels: [] })).toEqual([expected]);
  });

  it("needs exactly one of userId, groupId, accessLevel per entry", async () => {
    expect(await rules({ deployAccessLevels: [{ accessLevel: 40, userId: 3 }] })).toEqual([
      `${subject} deployAccessLevels[0]: the entry names userId and accessLevel at once. Give exactly one of userId, groupId or accessLevel, and split the others into entries of their own.`,
    ]);
    expect(await rules({ deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ requiredApprovals: 1 }] })).toEqual([
      `${subject} approvalRules[0]: the entry names nobody. Give exactly one of userId, groupId or accessLevel.`,
    ]);
  });

  it("needs access levels 30, 40 or 60", async () => {
    expect(await rules({ deployAccessLevels: [{ accessLevel: 50 }] })).toEqual([
      `${subject} deployAccessLevels[0].accessLevel: 50 is not an access level protected environments accept. Use 30 (Developer), 40 (Maintainer) or 60 (Admin).`,
    ]);
    expect(await rules({ deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ accessLevel: 20 }] })).toEqual([
      expect.stringContaining("has an invalid approvalRules[0].accessLevel: 20 is not an access level"),
    ]);
  });

  it("needs groupInheritanceType 0 or 1", async () => {
    expect(await rules({ deployAccessLevels: [{ groupId: 9, groupInheritanceType: 2 }] })).toEqual([
      `${subject} deployAccessLevels[0].groupInheritanceType: 2 is not a group inheritance type. Use 0 (direct members of the group only) or 1 (members of inherited groups too).`,
    ]);
  });

  it("refuses entries that are not objects and lists that are not lists", async () => {
    expect(await rules({ deployAccessLevels: [40] })).toEqual([
      `${subject} deployAccessLevels[0]: 40 is not an entry. Write it as an object with one of userId, groupId or accessLevel, such as { accessLevel: 40 }.`,
    ]);
    expect(await rules({ deployAccessLevels: { accessLevel: 40 } })).toEqual([
      expect.stringContaining('has an invalid deployAccessLevels: {"accessLevel":40} is not a list'),
    ]);
  });
});

describe("project-protected-environment-production-approval", () => {
  const approval = (props: Record<string, unknown>, config?: Record<string, unknown>) =>
    project(projectProtectedEnvironmentProductionApproval, props, config);
  const deployers = { deployAccessLevels: [{ accessLevel: 40 }] };

  it("accepts production with approval rules, and other environments without", async () => {
    expect(await approval({ ...deployers, approvalRules: [{ accessLevel: 40 }] })).toEqual([]);
    expect(await approval({ ...deployers, name: "staging" })).toEqual([]);
    expect(await approval({ ...deployers, name: "production-eu" })).toEqual([]);
  });

  it("tolerates unknown names and rules", async () => {
    expect(await approval({ ...deployers, name: UNKNOWN })).toEqual([]);
    expect(await approval({ ...deployers, approvalRules: UNKNOWN })).toEqual([]);
  });

  it("asks for approval rules on production (prod, Production, ...)", async () => {
    expect(await approval(deployers)).toEqual([
      'ProjectProtectedEnvironment "web-prod" protects the production environment "production" without approval rules, so whoever may deploy can ship to production alone. Add approvalRules, such as [{ accessLevel: 40, requiredApprovals: 1 }].',
    ]);
    expect(await approval({ ...deployers, name: "Prod", approvalRules: [] })).toEqual([
      expect.stringContaining('the production environment "Prod"'),
    ]);
  });

  it("takes the pattern of production names from the config", async () => {
    expect(await approval({ ...deployers, name: "production-eu" }, { namePattern: "^prod" })).toEqual([
      expect.stringContaining('"production-eu"'),
    ]);
    expect(await approval({ ...deployers, name: "production" }, { namePattern: "^live$" })).toEqual([]);
  });
});

describe("forge-input-schema: GroupProtectedEnvironment name and entries", () => {
  const rules = (props: Record<string, unknown>) => group(inputSchema, props);
  const subject = 'GroupProtectedEnvironment "acme-prod" has an invalid';

  it("accepts a deployment tier with valid entries", async () => {
    for (const name of ["production", "staging", "testing", "development", "other"]) {
      expect(
        await rules({
          name,
          deployAccessLevels: [{ accessLevel: 40 }, { groupId: 4 }],
          approvalRules: [{ userId: 2, requiredApprovals: 2 }],
        }),
      ).toEqual([]);
    }
  });

  it("tolerates values unknown at preview", async () => {
    expect(await rules({ name: UNKNOWN, deployAccessLevels: [{ accessLevel: UNKNOWN }] })).toEqual([]);
  });

  it("needs a deployment tier as the name", async () => {
    expect(await rules({ name: "prod", deployAccessLevels: [{ accessLevel: 40 }] })).toEqual([
      `${subject} name: "prod" is not a deployment tier; at group level the name is one of production, staging, testing, development or other. Did you mean "production"?`,
    ]);
    expect(await rules({ name: "qa", deployAccessLevels: [{ accessLevel: 40 }] })).toEqual([
      expect.stringContaining("Use one of them, or protect the environment per project with ProjectProtectedEnvironment."),
    ]);
  });

  it("needs exactly one grantee, levels 30, 40 or 60, required approvals from 1", async () => {
    expect(await rules({ deployAccessLevels: [{ userId: 1, groupId: 2, accessLevel: 30 }] })).toEqual([
      `${subject} deployAccessLevels[0]: the entry names userId, groupId and accessLevel at once. Give exactly one of userId, groupId or accessLevel, and split the others into entries of their own.`,
    ]);
    expect(await rules({ deployAccessLevels: [{ accessLevel: 10 }] })).toEqual([
      expect.stringContaining("has an invalid deployAccessLevels[0].accessLevel: 10 is not an access level"),
    ]);
    expect(await rules({ deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ groupId: 3, requiredApprovals: 0 }] })).toEqual([
      expect.stringContaining("has an invalid approvalRules[0].requiredApprovals"),
    ]);
  });

  it("refuses groupInheritanceType on group-level entries, deploy access levels and approval rules (a stripped key would pass unnoticed)", async () => {
    const refused =
      "group-level entries take no groupInheritanceType: only project-level deploy access levels and approval rules do. Remove it.";
    expect(await rules({ deployAccessLevels: [{ groupId: 4, groupInheritanceType: 1 }] })).toEqual([
      `${subject} deployAccessLevels[0]: ${refused}`,
    ]);
    expect(await rules({ deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ groupId: 4, groupInheritanceType: 0 }] })).toEqual([
      `${subject} approvalRules[0]: ${refused}`,
    ]);
  });
});

describe("group-protected-environment-production-approval", () => {
  const approval = (props: Record<string, unknown>, config?: Record<string, unknown>) =>
    group(groupProtectedEnvironmentProductionApproval, props, config);
  const deployers = { deployAccessLevels: [{ accessLevel: 40 }] };

  it("accepts production with approval rules or a required approval count", async () => {
    expect(await approval({ ...deployers, approvalRules: [{ accessLevel: 40 }] })).toEqual([]);
    expect(await approval({ ...deployers, requiredApprovalCount: 1 })).toEqual([]);
    expect(await approval({ ...deployers, name: "staging" })).toEqual([]);
  });

  it("tolerates unknown values", async () => {
    expect(await approval({ ...deployers, requiredApprovalCount: UNKNOWN })).toEqual([]);
    expect(await approval({ ...deployers, name: UNKNOWN })).toEqual([]);
  });

  it("asks for approvals on the production tier", async () => {
    expect(await approval({ ...deployers, requiredApprovalCount: 0 })).toEqual([
      'GroupProtectedEnvironment "acme-prod" protects the production tier without approvals, so whoever may deploy can ship to production alone. Add approvalRules, such as [{ accessLevel: 40, requiredApprovals: 1 }], or set requiredApprovalCount to 1 or more.',
    ]);
  });

  it("takes the tiers from the config", async () => {
    expect(await approval({ ...deployers, name: "staging" }, { tiers: ["production", "staging"] })).toEqual([
      expect.stringContaining("protects the staging tier without approvals"),
    ]);
  });
});
