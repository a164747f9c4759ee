/**
 * A project member through the real Pulumi CLI, for what only the engine shows: a promotion the
 * forge queues for an administrator's approval is a warning in `up`'s output, the member shows as
 * awaiting in the state, the next preview changes nothing, and destroy withdraws the queued
 * request. The member's reads and diffs while it waits, approval and rejection are
 * test/contract/members-snippets-geo.test.ts's; a snippet's files renamed, edited, added and
 * removed in one update are there and in the life cycle's Snippet row.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OpMap } from "@pulumi/pulumi/automation";
import { instanceSettings } from "../contract/world";
import { startE2eWorld, type E2eWorld, type ListedResource, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;
const changesOf = (changes: OpMap) =>
  Object.fromEntries(Object.entries(changes).filter(([kind, count]) => kind !== "same" && (count ?? 0) > 0));

let world: E2eWorld;
let stack: TestStack;

const member: ListedResource = { type: "ProjectMember", name: "reviewer", inputs: { project: "acme/web", user: "nomad", accessLevel: 30 } };

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

it(
  "up succeeds with a warning quoting the queued notice, the member shows as awaiting, and the next preview changes nothing",
  async () => {
    await stack.declare([member]);
    const result = await stack.up();
    expect(result.output).toMatch(
      /warning:.*queued access level 30 for administrator approval \(Request queued for administrator approval\.\)/,
    );
    const reviewer = (await stack.resources()).find((resource) => resource.name === "reviewer")!;
    expect(reviewer.outputs).toMatchObject({
      membershipState: "awaiting",
      accessLevel: 30,
      queuedNotice: "Request queued for administrator approval.",
    });
    expect(await world.api.list("/projects/:project/members/all", { project: "acme/web", state: "awaiting" })).toHaveLength(1);
    expect(changesOf((await stack.preview()).changes)).toEqual({});
  },
  OP_TIMEOUT,
);

it(
  "destroy removes the queued request",
  async () => {
    await stack.destroy();
    expect(await stack.resources()).toEqual([]);
    expect(await world.api.list("/projects/:project/members/all", { project: "acme/web", state: "awaiting" })).toEqual([]);
  },
  OP_TIMEOUT,
);
