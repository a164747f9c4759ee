/**
 * Project members and snippets through the real Pulumi CLI: a promotion the forge queues for an
 * administrator's approval is a warning in `up`, shows as awaiting, and later runs change
 * nothing; a snippet whose files are renamed, edited, added and removed in one update ends with
 * exactly the new set, read back raw.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OpMap } from "@pulumi/pulumi/automation";
import { instanceSettings } from "../contract/world";
import { startE2eWorld, type E2eWorld, type ListedResource, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;
const changesOf = (changes: OpMap) => Object.fromEntries(Object.entries(changes).filter(([kind, count]) => kind !== "same" && (count ?? 0) > 0));

let world: E2eWorld;
let stack: TestStack;

const member: ListedResource = { type: "ProjectMember", name: "reviewer", inputs: { project: "acme/web", user: "nomad", accessLevel: 30 } };
const snippet = (files: [string, string][]): ListedResource => ({
  type: "Snippet",
  name: "runbook",
  inputs: { title: "Runbook", visibility: "private", files: files.map(([filePath, content]) => ({ filePath, content })) },
});
const before = snippet([
  ["keep.md", "kept\n"],
  ["old/name.sh", "echo moved\n"],
  ["edit.txt", "v1\n"],
  ["remove.txt", "bye\n"],
]);
const after = snippet([
  ["keep.md", "kept\n"],
  ["new/place/name.sh", "echo moved\n"],
  ["edit.txt", "v2\n"],
  ["added/file.txt", "hello\n"],
]);

beforeAll(async () => {
  world = await startE2eWorld();
  stack = await world.stack("resources", "members");
  // An Owner who is not an administrator: the forge queues the promotions she asks for.
  await instanceSettings(world.fixtureWorld, { member_promotion_management: true });
  await stack.setConfig({ "forge:token": { value: world.fixtureWorld.user("olivia").token, secret: true } });
}, OP_TIMEOUT);

afterAll(async () => {
  await world?.close();
});

it("up succeeds with a warning quoting the queued notice, and the member shows as awaiting", async () => {
  await stack.declare([member, before]);
  const result = await stack.up();
  expect(result.output).toMatch(/warning:.*queued access level 30 for administrator approval \(Request queued for administrator approval\.\)/);
  const reviewer = (await stack.resources()).find((resource) => resource.name === "reviewer")!;
  expect(reviewer.outputs).toMatchObject({ membershipState: "awaiting", accessLevel: 30, queuedNotice: "Request queued for administrator approval." });
}, OP_TIMEOUT);

it("a preview, a refresh and a second up change nothing while the promotion waits", async () => {
  expect(changesOf((await stack.preview()).changes)).toEqual({});
  expect(changesOf((await stack.refresh()).changes)).toEqual({});
  const since = (await world.requests()).at(-1)?.seq ?? 0;
  const again = await stack.up();
  expect(changesOf(again.changes)).toEqual({});
  expect((await world.requests(since)).filter((request) => request.method !== "GET")).toEqual([]);
}, OP_TIMEOUT);

it("renames, edits, adds and removes snippet files in one update, ending with exactly the new set", async () => {
  await stack.declare([member, after]);
  const result = await stack.up();
  expect(result.steps["runbook"]).toEqual(["update"]);
  const runbook = (await stack.resources()).find((resource) => resource.name === "runbook")!;
  const id = runbook.outputs["snippetId"];
  const record = await world.api.request<{ files: { path: string }[] }>("GET", "/snippets/:id", { id });
  const expected = (after.inputs["files"] as { filePath: string; content: string }[]).map((file) => file.filePath).sort();
  expect(record.body.files.map((file) => file.path).sort()).toEqual(expected);
  for (const file of after.inputs["files"] as { filePath: string; content: string }[]) {
    const raw = await world.api.request<string>("GET", "/snippets/:id/files/:ref/:filePath/raw", { id, ref: "main", filePath: file.filePath });
    expect(raw.body).toBe(file.content);
  }
  expect(changesOf((await stack.preview()).changes)).toEqual({});
}, OP_TIMEOUT);

it("destroy removes the queued request and the snippet", async () => {
  await stack.destroy();
  expect(await stack.resources()).toEqual([]);
  expect(await world.api.list("/projects/:project/members/all", { project: "acme/web", state: "awaiting" })).toEqual([]);
  expect(await world.api.list("/snippets/all")).toEqual([]);
}, OP_TIMEOUT);
