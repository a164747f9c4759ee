import { describe, expect, it } from "vitest";
import type { ForgeClient } from "../../provider/client";
import { reconcile } from "../../provider/engine/compare";
import { ResourceOperations } from "../../provider/engine/operations";
import { UNKNOWN } from "../../provider/engine/unknowns";
import { declarations } from "../../provider/resources";

const noClient = () => {
  throw new Error("diff must not call the API");
};
const operations = (name: keyof typeof declarations) => new ResourceOperations(declarations[name], noClient as () => ForgeClient);

describe("diff", () => {
  const label = operations("groupLabel");
  const olds = { group: "acme", name: "bug", color: "#FF0000", description: "Broken", labelId: 7, textColor: "#FFFFFF" };

  it("sees no change when only the spelling differs", async () => {
    expect(await label.diff("acme:7", olds, { group: "acme", name: "bug", color: "red" })).toMatchObject({ changes: false, replaces: [] });
    expect(await label.diff("acme:7", olds, { group: "acme", name: "bug", color: "#ff0000" })).toMatchObject({ changes: false });
  });

  it("does not manage optional inputs the program leaves out (server defaults are no diff)", async () => {
    expect(await label.diff("acme:7", olds, { group: "acme", name: "bug", color: "red" })).toMatchObject({ changes: false });
  });

  it("updates in place for an ordinary field and replaces for an immutable one", async () => {
    expect(await label.diff("acme:7", olds, { group: "acme", name: "defect", color: "red" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await label.diff("acme:7", olds, { group: "acme/platform", name: "bug", color: "red" })).toMatchObject({
      changes: true,
      replaces: ["group"],
    });
  });

  it("treats an id and its digits as the same reference", async () => {
    expect(await label.diff("42:7", { ...olds, group: 42 }, { group: "42", name: "bug", color: "red" })).toMatchObject({ changes: false });
  });

  it("counts an unknown value as a change, and as a replacement on an immutable field", async () => {
    expect(await label.diff("acme:7", olds, { group: UNKNOWN, name: "bug", color: "red" })).toMatchObject({
      changes: true,
      replaces: ["group"],
    });
  });

  it("replaces every change of a resource the API cannot update, deleting first where asked", async () => {
    const agentOlds = { project: "acme/web", name: "a", agentId: 3 };
    expect(await operations("clusterAgent").diff("acme/web:3", agentOlds, { project: "acme/web", name: "b" })).toMatchObject({
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
    const urlOlds = { project: 1, agentId: 3, url: "grpcs://a.example:443", urlConfigurationId: 9 };
    expect(
      await operations("clusterAgentUrlConfiguration").diff("1:3:9", urlOlds, { project: 1, agentId: 3, url: "grpcs://b.example:443" }),
    ).toMatchObject({ replaces: ["url"], deleteBeforeReplace: true });
  });

  it("compares write-only values with the last applied value", async () => {
    const urlOlds = { project: 1, agentId: 3, url: "grpcs://a.example:443", clientCert: "C", clientKey: "K1", urlConfigurationId: 9 };
    const same = { project: 1, agentId: 3, url: "grpcs://a.example:443", clientCert: "C", clientKey: "K1" };
    const ops = operations("clusterAgentUrlConfiguration");
    expect(await ops.diff("1:3:9", urlOlds, same)).toMatchObject({ changes: false });
    expect(await ops.diff("1:3:9", urlOlds, { ...same, clientKey: "K2" })).toMatchObject({ changes: true, replaces: ["clientKey"] });
  });

  it("ignores server ids, descriptions and order in protected environment entries", async () => {
    const envOlds = {
      project: "acme/web",
      name: "production",
      deployAccessLevels: [
        { id: 11, accessLevel: 40, accessLevelDescription: "Maintainers", userId: null, groupId: null, groupInheritanceType: 0 },
        { id: 12, userId: 5, accessLevelDescription: "Dev", accessLevel: null, groupId: null, groupInheritanceType: 0 },
      ],
      approvalRules: [{ id: 3, groupId: 9, requiredApprovals: 1, accessLevel: null, userId: null, groupInheritanceType: 0 }],
    };
    const news = {
      project: "acme/web",
      name: "production",
      deployAccessLevels: [{ userId: 5 }, { accessLevel: 40 }],
      approvalRules: [{ groupId: 9 }],
    };
    const ops = operations("projectProtectedEnvironment");
    expect(await ops.diff("acme/web:production", envOlds, news)).toMatchObject({ changes: false });
    expect(
      await ops.diff("acme/web:production", envOlds, { ...news, approvalRules: [{ groupId: 9, requiredApprovals: 2 }] }),
    ).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("sees a set of target levels, not a list", async () => {
    const ops = operations("broadcastMessage");
    const messageOlds = { message: "m", targetAccessLevels: [30, 10], startsAt: "2026-12-01T10:00:00.000Z", messageId: 1 };
    expect(
      await ops.diff("1", messageOlds, { message: "m", targetAccessLevels: [10, 30], startsAt: "2026-12-01T10:00:00Z" }),
    ).toMatchObject({
      changes: false,
    });
  });
});

describe("reconcile", () => {
  it("keeps the user's spelling when the server means the same", () => {
    expect(reconcile(declarations.groupLabel, "color", "red", "#FF0000")).toBe("red");
    expect(reconcile(declarations.groupLabel, "color", "red", "#00FF00")).toBe("#00FF00");
    expect(reconcile(declarations.groupLabel, "color", undefined, "#00FF00")).toBe("#00FF00");
  });
});
