/**
 * What the contract table does not say about group integrations: no silent take-over, the
 * checks each parameter kind of the table gets, credentials on every set-up, the listing.
 */
import { expect, it } from "vitest";
import type { State } from "../../provider/engine/declaration";
import { dynamicFaceOf } from "../../provider/runtime";
import * as lookups from "../../provider/generated/lookups";
import { byField, useWorld } from "./world";

const worldOf = useWorld();

const WEBHOOK = "https://chat.example.com/hooks/first";

it("refuses to take over an integration that is already active, and says how to adopt it", async () => {
  const world = worldOf();
  await world.api.request("PUT", "/groups/:group/integrations/chat-webhook", { group: "acme", webhook: WEBHOOK });
  const ops = dynamicFaceOf("GroupIntegrationChatWebhook");
  await expect(ops.create({ group: "acme", webhook: WEBHOOK })).rejects.toThrow(
    '"acme:chat-webhook" already exists on the forge, and this resource did not make it',
  );
  await expect(ops.create({ group: "acme", webhook: WEBHOOK })).rejects.toThrow('add the resource option { import: "acme:chat-webhook" }');
  const adopted = await ops.create({ group: "acme", webhook: WEBHOOK, importId: "acme:chat-webhook" });
  expect(adopted.id).toBe("acme:chat-webhook");
});

it("refuses an import id of another slug", async () => {
  const world = worldOf();
  await world.api.request("PUT", "/groups/:group/integrations/external-wiki", {
    group: "acme",
    external_wiki_url: "https://wiki.example.com",
  });
  const ops = dynamicFaceOf("GroupIntegrationChatWebhook");
  await expect(ops.read("acme:external-wiki", {})).rejects.toThrow(
    'GroupIntegrationChatWebhook manages the object whose slug is "chat-webhook"; the id names "external-wiki"',
  );
});

it("checks every kind of parameter of the table before any request, naming the field", async () => {
  const cases: [string, State, string, string][] = [
    [
      "GroupIntegrationEmailsOnPush",
      { group: "acme", recipients: "ops@example.com, dev" },
      "recipients",
      "e-mail addresses separated by whitespace",
    ],
    [
      "GroupIntegrationEmailsOnPush",
      { group: "acme", recipients: "a@example.com", branchesToBeNotified: "main" },
      "branchesToBeNotified",
      '"main" is not one of',
    ],
    ["GroupIntegrationMonitoring", { group: "acme", apiKey: "k", vendorTags: "env=prod" }, "vendorTags", "one `key:value` per line"],
    [
      "GroupIntegrationTaskTracker",
      { group: "acme", apiKey: "k", restrictToBranch: "main, release 1" },
      "restrictToBranch",
      "branch names separated by commas",
    ],
    [
      "GroupIntegrationCiPipelineService",
      { group: "acme", token: "t", projectUrl: "https://ci.example.com", enableSslVerification: false },
      "enableSslVerification",
      "only true is accepted",
    ],
    [
      "GroupIntegrationCiServerA",
      { group: "acme", vendorUrl: "https://ci.example.com", buildKey: "K", username: "u", password: " " },
      "password",
      "blank",
    ],
    ["GroupIntegrationChatWebhook", { group: "acme", webhook: "hooks.example.com/secret" }, "webhook", "not an http or https address"],
    ["GroupIntegrationExternalWiki", { group: "acme" }, "externalWikiUrl", ""],
    [
      "GroupIntegrationExternalWiki",
      { group: "acme", externalWikiUrl: "https://w.example.com", pushEvents: true },
      "pushEvents",
      "has no input",
    ],
  ];
  const world = worldOf();
  const before = await world.requestCount();
  for (const [type, inputs, property, reason] of cases) {
    const result = await dynamicFaceOf(type).check({}, inputs);
    const failure = byField(result.failures)?.find((entry) => entry.property === property);
    expect(failure, `${type} ${property}`).toBeDefined();
    expect(failure!.reason).toContain(reason);
  }
  expect(await world.requestCount()).toBe(before);
});

it("never shows a credential in an error message", async () => {
  const result = await dynamicFaceOf("GroupIntegrationChatWebhook").check({}, { group: "acme", webhook: "hooks.example.com/very-secret" });
  expect(JSON.stringify(result.failures)).not.toContain("very-secret");
});

it("sends the credentials again on every set-up, so an update of one setting goes through", async () => {
  const world = worldOf();
  const ops = dynamicFaceOf("GroupIntegrationCiServerB");
  const inputs = { group: "acme", token: "drone-token", vendorUrl: "https://drone.example.com" };
  const created = await ops.create(inputs);
  const news = { ...inputs, pushEvents: false };
  expect(await ops.diff(created.id, created.outs as State, news)).toMatchObject({ changes: true, replaces: [] });
  const updated = await ops.update(created.id, created.outs as State, news);
  expect(updated.outs).toMatchObject({ pushEvents: false, token: "drone-token" });
  const log = (await (await world.emulator.admin("/requests")).json()) as { method: string; status: number }[];
  expect(log.filter((entry) => entry.method === "PUT").map((entry) => entry.status)).toEqual([200, 200]);
});

it("lists the active integrations of a group with listGroupIntegrations", async () => {
  const wiki = dynamicFaceOf("GroupIntegrationExternalWiki");
  const created = await wiki.create({ group: "acme", externalWikiUrl: "https://wiki.example.com" });
  await dynamicFaceOf("GroupIntegrationEmailsOnPush").create({ group: "acme", recipients: "ops@example.com" });
  expect((await lookups.listGroupIntegrations({ group: "acme" })).map((entry) => entry["slug"])).toEqual([
    "external-wiki",
    "emails-on-push",
  ]);
  await wiki.delete(created.id, created.outs as State);
  const left = await lookups.listGroupIntegrations({ group: "acme" });
  expect(left).toEqual([expect.objectContaining({ slug: "emails-on-push", title: "Emails on push", active: true, pushEvents: true })]);
  expect(left[0]).not.toHaveProperty("recipients");
});
