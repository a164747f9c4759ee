import { describe, expect, it } from "vitest";
import { entryChanges, normalizeApprovalRules, normalizeEntries } from "../../provider/resources/protected-environment-rules";

describe("protected environment entry changes", () => {
  const current = [
    { id: 1, accessLevel: 40 },
    { id: 2, userId: 5 },
    { id: 3, groupId: 9, groupInheritanceType: 0 },
  ];

  it("sends new entries without id, changed ones with id, removed ones with _destroy", () => {
    const desired = [{ accessLevel: 40 }, { groupId: 9, groupInheritanceType: 1 }, { accessLevel: 30 }];
    expect(entryChanges(current, desired, normalizeEntries)).toEqual([
      { groupId: 9, groupInheritanceType: 1, id: 3 },
      { accessLevel: 30 },
      { id: 2, _destroy: true },
    ]);
  });

  it("sends nothing when nothing changed", () => {
    expect(entryChanges(current, [{ userId: 5 }, { groupId: 9 }, { accessLevel: 40 }], normalizeEntries)).toEqual([]);
  });

  it("treats requiredApprovals 1 as the default of approval rules", () => {
    expect(entryChanges([{ id: 4, userId: 5, requiredApprovals: 1 }], [{ userId: 5 }], normalizeApprovalRules)).toEqual([]);
    expect(entryChanges([{ id: 4, userId: 5, requiredApprovals: 1 }], [{ userId: 5, requiredApprovals: 2 }], normalizeApprovalRules)).toEqual([
      { userId: 5, requiredApprovals: 2, id: 4 },
    ]);
  });
});
