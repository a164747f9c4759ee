import { describe, expect, it } from "vitest";
import { groupIntegrationHttps, groupIntegrationSslVerification } from "../../policies/rules/integrations";
import { oneResourcePerObject } from "../../policies/rules/uniqueness";
import { typeToken } from "../../provider/type-tokens";
import { declarations as d } from "../../provider/resources";
import { UNKNOWN, urnOf, validateResource, validateStack } from "./harness";

describe("group-integration-https", () => {
  it("accepts https addresses and blank ones", async () => {
    expect(
      await validateResource(groupIntegrationHttps, {
        declaration: d.groupIntegrationBugTracker,
        props: {
          group: "acme",
          newIssueUrl: "https://b.example.com/new",
          issuesUrl: "HTTPS://b.example.com/:id",
          projectUrl: "https://b.example.com",
        },
      }),
    ).toEqual([]);
    expect(
      await validateResource(groupIntegrationHttps, {
        declaration: d.groupIntegrationMonitoring,
        props: { group: "acme", apiKey: "k", apiUrl: "" },
      }),
    ).toEqual([]);
  });

  it("reports every plain http address, naming a credential's field but never its value", async () => {
    expect(
      await validateResource(groupIntegrationHttps, {
        declaration: d.groupIntegrationExternalWiki,
        props: { group: "acme", externalWikiUrl: "http://wiki.example.com" },
      }),
    ).toEqual([
      'GroupIntegrationExternalWiki "subject" sets externalWikiUrl to "http://wiki.example.com", which sends over plain http. Use the https:// address of the service.',
    ]);
    const messages = await validateResource(groupIntegrationHttps, {
      declaration: d.groupIntegrationChatWebhook,
      props: {
        group: "acme",
        webhook: "http://chat.example.com/hooks/TOKEN123",
        pushChannel: "http://chat.example.com/hooks/PUSH456",
        issueChannel: "https://chat.example.com/hooks/ok",
      },
    });
    expect(messages).toHaveLength(2);
    expect(messages.join(" ")).not.toMatch(/TOKEN123|PUSH456/);
    expect(messages[0]).toContain("sets webhook to an http:// address");
  });

  it("does not judge what is unknown at preview", async () => {
    expect(
      await validateResource(groupIntegrationHttps, {
        declaration: d.groupIntegrationCiServerB,
        props: { group: "acme", token: "t", vendorUrl: UNKNOWN },
      }),
    ).toEqual([]);
  });
});

describe("group-integration-ssl-verification", () => {
  it("reports SSL verification switched off, and only that", async () => {
    const props = { group: "acme", vendorUrl: "https://ci.example.com", buildKey: "K", username: "u", password: "p" };
    expect(await validateResource(groupIntegrationSslVerification, { declaration: d.groupIntegrationCiServerA, props })).toEqual([]);
    expect(
      await validateResource(groupIntegrationSslVerification, {
        declaration: d.groupIntegrationCiServerA,
        props: { ...props, enableSslVerification: true },
      }),
    ).toEqual([]);
    const messages = await validateResource(groupIntegrationSslVerification, {
      declaration: d.groupIntegrationCiServerA,
      props: { ...props, enableSslVerification: false },
    });
    expect(messages).toEqual([expect.stringMatching(/^GroupIntegrationCiServerA "subject" sets enableSslVerification to false/)]);
    expect(
      await validateResource(groupIntegrationSslVerification, {
        declaration: d.groupIntegrationCiServerB,
        props: { enableSslVerification: false },
      }),
    ).toHaveLength(1);
  });
});

describe("one-resource-per-object: one integration of each slug per group", () => {
  it("reports a second integration of the same slug in a group, however the group is spelled", async () => {
    const violations = await validateStack(oneResourcePerObject, [
      { declaration: d.groupIntegrationEmailsOnPush, name: "a", props: { group: "acme/platform", recipients: "a@example.com" } },
      { declaration: d.groupIntegrationEmailsOnPush, name: "b", props: { group: "acme%2Fplatform", recipients: "b@example.com" } },
      { declaration: d.groupIntegrationEmailsOnPush, name: "c", props: { group: "acme", recipients: "c@example.com" } },
      {
        declaration: d.groupIntegrationExternalWiki,
        name: "d",
        props: { group: "acme/platform", externalWikiUrl: "https://w.example.com" },
      },
    ]);
    expect(violations).toEqual([
      {
        message:
          'GroupIntegrationEmailsOnPush "b" declares the emails-on-push integration of group "acme%2Fplatform", which GroupIntegrationEmailsOnPush "a" already declares; the forge holds one. Keep one of the two resources.',
        urn: urnOf(typeToken(d.groupIntegrationEmailsOnPush), "b"),
      },
    ]);
  });
});
