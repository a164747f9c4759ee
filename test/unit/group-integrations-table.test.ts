/**
 * The sixteen integration resources are the table of api/integrations.ts, interpreted: every
 * row a resource, every parameter an input of its type, every credential write-only and secret,
 * every optional input a reset; and their types reach users precisely.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ForgeClient } from "../../provider/client";
import { inputKeys, declaredSecrets } from "../../provider/engine/declaration";
import { typeToken } from "../../provider/type-tokens";
import { toCamel } from "../../provider/engine/naming";
import { ResourceOperations } from "../../provider/engine/operations";
import type { GroupIntegrationChatWebhookArgs, GroupIntegrationEmailsOnPushArgs } from "../../provider/generated/resources";
import { declarations } from "../../provider/resources";
import { groupIntegrations } from "../../provider/resources/group-integrations";
import { CHAT_WEBHOOK_EVENT_PAIRS, INTEGRATIONS } from "../../api/integrations";
import { routes } from "../../api/routes";

const kinds = Object.values(INTEGRATIONS);
const byName = new Map(Object.values(groupIntegrations).map((declaration) => [declaration.name, declaration]));

describe("the integrations table", () => {
  it("holds the sixteen slugs of the API's table of group integrations, and each is one resource named after its slug", () => {
    expect(kinds.map((kind) => kind.slug)).toEqual([
      "task-tracker",
      "ticketing-suite",
      "ci-server-a",
      "bug-tracker",
      "ci-pipeline-service",
      "team-chat-a",
      "work-tracker",
      "wiki-workspace",
      "monitoring",
      "test-generator",
      "chat-webhook",
      "ci-server-b",
      "workflow-management",
      "custom-issue-tracker",
      "emails-on-push",
      "external-wiki",
    ]);
    expect([...byName.keys()]).toContain("GroupIntegrationChatWebhook");
    expect([...byName.keys()]).toContain("GroupIntegrationCiServerA");
    expect(byName.size).toBe(16);
    for (const declaration of byName.values()) expect(Object.values(declarations)).toContain(declaration);
    expect(typeToken(byName.get("GroupIntegrationEmailsOnPush")!)).toBe("pulumi-nodejs:dynamic/forge:GroupIntegrationEmailsOnPush");
  });

  it("makes every parameter an input in camelCase, required where the API's table of group integrations says R", () => {
    for (const kind of kinds) {
      const declaration = [...byName.values()].find((candidate) => candidate.create === routes.groupIntegrations.bySlug[kind.slug].set)!;
      expect(inputKeys(declaration)).toEqual(["group", "useInheritedSettings", ...Object.keys(kind.parameters).map(toCamel)]);
      for (const [wire, parameter] of Object.entries(kind.parameters)) {
        const optional = (declaration.inputs.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>)[
          toCamel(wire)
        ]!.safeParse(undefined).success;
        expect(optional, `${kind.slug}.${wire}`).toBe(!parameter.required);
      }
    }
  });

  it("keeps every credential write-only and secret: api_key, token, password, webhook, the vendor_* secrets", () => {
    const writeOnly = Object.fromEntries([...byName.values()].map((declaration) => [declaration.name, declaration.writeOnly ?? []]));
    expect(writeOnly).toMatchObject({
      GroupIntegrationTaskTracker: ["apiKey"],
      GroupIntegrationTicketingSuite: ["token"],
      GroupIntegrationCiServerA: ["password"],
      GroupIntegrationCiPipelineService: ["token"],
      GroupIntegrationTeamChatA: ["token"],
      GroupIntegrationMonitoring: ["apiKey"],
      GroupIntegrationTestGenerator: ["vendorLicenseKey", "vendorAccessTokenSecret"],
      GroupIntegrationChatWebhook: ["webhook"],
      GroupIntegrationCiServerB: ["token"],
      GroupIntegrationEmailsOnPush: [],
    });
    for (const declaration of byName.values())
      for (const key of declaration.writeOnly ?? []) expect(declaredSecrets(declaration)).toContain(key);
    // The webhook overrides are returned by the forge but carry tokens: secret, not write-only.
    const chat = byName.get("GroupIntegrationChatWebhook")!;
    for (const pair of CHAT_WEBHOOK_EVENT_PAIRS) expect(declaredSecrets(chat)).toContain(toCamel(pair.override));
  });

  it("declares what dropping each optional input does: its default, or a blank", () => {
    expect(byName.get("GroupIntegrationEmailsOnPush")!.resets).toEqual({
      useInheritedSettings: false,
      disableDiffs: false,
      sendFromCommitterEmail: false,
      pushEvents: true,
      tagPushEvents: true,
      branchesToBeNotified: "all",
    });
    expect(byName.get("GroupIntegrationChatWebhook")!.resets).toMatchObject({
      branchesToBeNotified: "default",
      pushChannel: "",
      pipelineEvents: false,
      notifyOnlyBrokenPipelines: true,
    });
  });

  it("types the inputs users write from the table", () => {
    // Optional inputs: `pulumi.Input` of the value or undefined, as every resource's optional inputs are.
    expectTypeOf<GroupIntegrationEmailsOnPushArgs["branchesToBeNotified"]>().toEqualTypeOf<
      import("@pulumi/pulumi").Input<"all" | "default" | "protected" | "default_and_protected" | undefined> | undefined
    >();
    expectTypeOf<GroupIntegrationChatWebhookArgs["webhook"]>().toEqualTypeOf<import("@pulumi/pulumi").Input<string>>();
    expectTypeOf<GroupIntegrationChatWebhookArgs["pushEvents"]>().toEqualTypeOf<
      import("@pulumi/pulumi").Input<boolean | undefined> | undefined
    >();
    expectTypeOf<GroupIntegrationChatWebhookArgs>().not.toHaveProperty("recipients");
  });
});

describe("write-only credentials after an import by id alone", () => {
  const noClient = (() => {
    throw new Error("diff must not call the API");
  }) as () => ForgeClient;
  const chat = new ResourceOperations(declarations.groupIntegrationChatWebhook, noClient);
  const inputs = { group: "acme", webhook: "https://chat.example.com/hooks/a" };

  it("are a change while the state holds none (an import could not prove them): the next up writes them, and shows it", async () => {
    expect(await chat.diff("acme:chat-webhook", { group: "acme", slug: "chat-webhook" }, inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("are compared with the last applied value once the program has been applied", async () => {
    const applied = { ...inputs, slug: "chat-webhook", appliedInputs: ["group", "webhook"] };
    expect(await chat.diff("acme:chat-webhook", applied, inputs)).toMatchObject({ changes: false });
    expect(await chat.diff("acme:chat-webhook", applied, { ...inputs, webhook: "https://chat.example.com/hooks/b" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    // Added to a program that never set it: a change, written at the next up.
    const withoutWebhook = { group: "acme", slug: "chat-webhook", appliedInputs: ["group"] };
    expect(await chat.diff("acme:chat-webhook", withoutWebhook, inputs)).toMatchObject({ changes: true });
  });
});
