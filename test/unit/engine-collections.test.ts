import { describe, expect, it } from "vitest";
import { elementChanges, wireChanges } from "../../provider/engine/collections";
import type { NestedCollection } from "../../provider/engine/declaration";
import { granteeCollection } from "../../provider/resources/protected-environment-rules";

const changesOf = (collection: NestedCollection, current: Record<string, unknown>[], desired: Record<string, unknown>[]) =>
  wireChanges(collection, elementChanges(collection, current, desired));

describe("nested attributes (protected environment entries)", () => {
  const entries = granteeCollection(false);
  const current = [
    { id: 1, accessLevel: 40 },
    { id: 2, userId: 5 },
    { id: 3, groupId: 9, groupInheritanceType: 0 },
  ];

  it("sends new entries without id, changed ones with id, removed ones with _destroy", () => {
    const desired = [{ accessLevel: 40 }, { groupId: 9, groupInheritanceType: 1 }, { accessLevel: 30 }];
    expect(changesOf(entries, current, desired)).toEqual([
      { group_id: 9, group_inheritance_type: 1, id: 3 },
      { access_level: 30 },
      { id: 2, _destroy: true },
    ]);
  });

  it("sends nothing when nothing changed", () => {
    expect(changesOf(entries, current, [{ userId: 5 }, { groupId: 9 }, { accessLevel: 40 }])).toEqual([]);
  });

  it("treats requiredApprovals 1 as the default of approval rules", () => {
    const rules = granteeCollection(true);
    expect(changesOf(rules, [{ id: 4, userId: 5, requiredApprovals: 1 }], [{ userId: 5 }])).toEqual([]);
    expect(changesOf(rules, [{ id: 4, userId: 5, requiredApprovals: 1 }], [{ userId: 5, requiredApprovals: 2 }])).toEqual([
      { user_id: 5, required_approvals: 2, id: 4 },
    ]);
  });
});

describe("file actions (snippet files)", () => {
  const files: NestedCollection = {
    style: { fileActions: { keyField: "filePath", previousKeyField: "previousPath" } },
    key: (file) => String(file["filePath"]),
    meaning: (file) => ({ filePath: file["filePath"], content: file["content"] }),
  };
  const current = [
    { filePath: "a.txt", content: "A" },
    { filePath: "b.txt", content: "B" },
    { filePath: "c.txt", content: "C" },
  ];

  it("creates, updates, deletes, and moves a file whose content is unchanged under a new path", () => {
    const desired = [
      { filePath: "a.txt", content: "A2" },
      { filePath: "dir/b.txt", content: "B" },
      { filePath: "d.txt", content: "D" },
    ];
    expect(changesOf(files, current, desired)).toEqual([
      { action: "update", file_path: "a.txt", content: "A2" },
      { action: "move", file_path: "dir/b.txt", content: "B", previous_path: "b.txt" },
      { action: "create", file_path: "d.txt", content: "D" },
      { action: "delete", file_path: "c.txt" },
    ]);
  });

  it("sends nothing for the same files in another order", () => {
    expect(changesOf(files, current, [...current].reverse())).toEqual([]);
  });
});
