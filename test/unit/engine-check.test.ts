import { describe, expect, it } from "vitest";
import { checkInputs } from "../../provider/engine/check";

import { dynamicFaceOf } from "../../provider/runtime";
import { UNKNOWN } from "../../provider/engine/unknowns";
import { declarations } from "../../provider/resources";
import { currentBookkeeping } from "../../provider/engine/bookkeeping";

describe("check", () => {
  it("accepts valid inputs and the engine's create claim", () => {
    expect(
      checkInputs(declarations.groupLabel, { group: "acme", name: "bug", color: "red", __createdAfter: "2026-11-25T00:00:00Z" }),
    ).toEqual([]);
  });

  it("refuses a face's key: each face strips its own before the engine sees the inputs", () => {
    expect(checkInputs(declarations.groupLabel, { group: "acme", name: "bug", color: "red", __provider: "x" })).toEqual([
      { property: "__provider", reason: expect.stringContaining('has no input "__provider"') },
    ]);
  });

  it("names the field and the reason", () => {
    const failures = checkInputs(declarations.groupLabel, { group: "acme", name: "bug", color: "reddish" });
    expect(failures).toEqual([{ property: "color", reason: expect.stringContaining("6-digit hex") }]);
  });

  it("names nested fields with their index", () => {
    const failures = checkInputs(declarations.projectProtectedEnvironment, {
      project: "acme/web",
      name: "production",
      deployAccessLevels: [{ accessLevel: 40 }, { accessLevel: 50 }],
    });
    expect(failures.map((failure) => failure.property)).toEqual(["deployAccessLevels[1].accessLevel"]);
  });

  it("reports an entry with two grantees", () => {
    const failures = checkInputs(declarations.groupProtectedEnvironment, {
      group: "acme",
      name: "production",
      deployAccessLevels: [{ accessLevel: 40, userId: 3 }],
    });
    expect(failures).toEqual([
      { property: "deployAccessLevels[0]", reason: expect.stringContaining("Give exactly one of userId, groupId or accessLevel") },
    ]);
  });

  // The reasons as the CLI prints them after "has a problem: " (test/policies/preview.test.ts shows one through the engine).
  it("names a swapped certificate and key, with the agent unknown at preview", async () => {
    const PEM_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n";
    const PEM_CERT = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n";
    const result = await dynamicFaceOf("ClusterAgentUrlConfiguration").check(
      {},
      { project: "acme/api", agentId: UNKNOWN, url: "grpcs://core.example.com:443", clientCert: PEM_KEY, clientKey: PEM_CERT },
    );
    expect(result.failures?.map((failure) => failure.reason)).toEqual([
      'clientCert: It is not a PEM certificate. Give the client certificate in PEM ("-----BEGIN CERTIFICATE-----").',
      expect.stringMatching(/^clientKey: It is not a PEM private key\./),
    ]);
  });

  it("refuses groupInheritanceType on a group-level entry, naming the entry", async () => {
    const result = await dynamicFaceOf("GroupProtectedEnvironment").check(
      {},
      { group: "acme", name: "production", deployAccessLevels: [{ groupId: 2, groupInheritanceType: 1 }], requiredApprovalCount: 1 },
    );
    expect(result.failures?.map((failure) => failure.reason)).toEqual([
      "deployAccessLevels[0]: Group-level entries take no groupInheritanceType: only project-level deploy access levels and approval rules do. Remove it.",
    ]);
  });

  it("lets values unknown at preview through, even inside refinements", () => {
    expect(checkInputs(declarations.groupLabel, { group: UNKNOWN, name: "bug", color: UNKNOWN })).toEqual([]);
    expect(checkInputs(declarations.clusterAgentToken, { project: "acme/web", agentId: UNKNOWN, name: "t" })).toEqual([]);
    expect(
      checkInputs(declarations.clusterAgentUrlConfiguration, { project: 1, agentId: 2, url: "grpcs://a.example:443", clientCert: UNKNOWN }),
    ).toEqual([]);
  });

  it("recognises the engine's typed unknown sentinels too (policies see them in outputs)", () => {
    const unknownNumber = "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7";
    expect(checkInputs(declarations.clusterAgentToken, { project: "acme/web", agentId: unknownNumber, name: "t" })).toEqual([]);
  });

  it("still reports a known bad value next to an unknown one", () => {
    const failures = checkInputs(declarations.clusterAgent, { project: UNKNOWN, name: "-bad-" });
    expect(failures.map((failure) => failure.property)).toEqual(["name"]);
  });

  it("rejects a misspelt input with the list of known ones", () => {
    const failures = checkInputs(declarations.clusterAgent, { project: 1, name: "a", nmae: "b" });
    expect(failures).toEqual([{ property: "nmae", reason: expect.stringContaining("expected one of: project, name") }]);
  });

  it("applies cross-field rules", () => {
    expect(
      checkInputs(declarations.broadcastMessage, { message: "m", broadcastType: "notification", theme: "red" }).map((f) => f.property),
    ).toEqual(["theme"]);
    expect(
      checkInputs(declarations.broadcastMessage, { message: "m", startsAt: "2026-12-02T00:00:00Z", endsAt: "2026-12-01T00:00:00Z" }).map(
        (f) => f.property,
      ),
    ).toEqual(["endsAt"]);
    expect(
      checkInputs(declarations.clusterAgentUrlConfiguration, {
        project: 1,
        agentId: 2,
        url: "grpcs://a.example:443",
        clientCert: "-----BEGIN CERTIFICATE-----",
      }).map((f) => f.property),
    ).toEqual(["clientKey"]);
  });
});

describe("the provider's check as the engine prints it", () => {
  it("puts failures on the resource, the field's path first: no input value (a secret, a nested object) is printed with them", async () => {
    const key = await dynamicFaceOf("ClusterAgentUrlConfiguration").check(
      {},
      { project: "acme/web", agentId: 1, url: "not a url", clientCert: "BADCERTSECRET", clientKey: 5 },
    );
    for (const failure of key.failures ?? []) {
      expect(failure.property).toBe("");
      expect(failure.reason).not.toContain("BADCERTSECRET");
    }
    expect(key.failures?.map((failure) => failure.reason.split(": ")[0])).toEqual(expect.arrayContaining(["url", "clientKey"]));
    const nested = await dynamicFaceOf("InstanceCluster").check({}, { name: "c", platformVendorAttributes: { token: "t" } });
    expect(nested.failures).toEqual([{ property: "", reason: expect.stringMatching(/^platformVendorAttributes\.apiUrl: /) }]);
  });

  it("says a too-long value's length and the limit in the product's words, never the value", () => {
    const title = "x".repeat(300);
    const failures = checkInputs(declarations.snippet, { title, files: [{ filePath: "a", content: "b" }] });
    expect(failures).toEqual([{ property: "title", reason: "is 300 characters long; the forge takes at most 255. Shorten it." }]);
  });
});

describe("dates the forge would refuse", () => {
  it("a ProjectMember expiry must be a real date, today or later", () => {
    const member = (expiresAt: string) =>
      checkInputs(declarations.projectMember, { project: "acme/web", user: "nomad", accessLevel: 30, expiresAt });
    expect(member("2030-02-30")).toEqual([{ property: "expiresAt", reason: expect.stringContaining("is not a date of the calendar") }]);
    expect(member("2020-01-01")).toEqual([{ property: "expiresAt", reason: expect.stringContaining("is in the past") }]);
    expect(member("2032-02-29")).toEqual([]);
    expect(member(new Date().toISOString().slice(0, 10))).toEqual([]);
  });
});

describe("bookkeeping in states of earlier versions", () => {
  it("reads appliedInputs and restore under their old names, and writes only the new ones", () => {
    const old = { group: "acme", appliedInputs: ["group"], restore: { active: false } };
    expect(currentBookkeeping(old)).toEqual({ group: "acme", __appliedInputs: ["group"], __restore: { active: false } });
  });

  it("keeps the current name when a state has both, and leaves a current state as it is", () => {
    const both = { appliedInputs: ["a"], __appliedInputs: ["b"] };
    expect(currentBookkeeping(both)).toEqual({ __appliedInputs: ["b"] });
    const current = { group: "acme", __appliedInputs: ["group"] };
    expect(currentBookkeeping(current)).toBe(current);
  });
});
