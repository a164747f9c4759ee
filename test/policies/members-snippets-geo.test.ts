import { describe, expect, it } from "vitest";
import { limitPolicyNamed } from "../../policies/rules/limits";
import { projectMemberExpiry } from "../../policies/rules/memberships";
import { snippetNoConfidentialContent } from "../../policies/rules/secrets";
import { oneResourcePerObject } from "../../policies/rules/uniqueness";
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { UNKNOWN, urnOf, validateResource, validateStack, type StackCase } from "./harness";

const geoSiteOnePrimary = limitPolicyNamed("geo-site-one-primary");

const snippet = (props: Record<string, unknown>, config: Record<string, unknown> = {}) =>
  validateResource(snippetNoConfidentialContent, {
    declaration: declarations.snippet,
    name: "notes",
    props: { title: "Notes", files: [{ filePath: "a.txt", content: "hello" }], ...props },
    config,
  });

describe("snippet-no-confidential-content", () => {
  it("reports a public snippet whose file holds a credential, naming the file and not the value", async () => {
    const messages = await snippet({
      visibility: "public",
      files: [{ filePath: "ci/env.sh", content: "export TOKEN=glpat-abcdefghijklmnopqrst\n" }],
    });
    expect(messages).toEqual([
      'Snippet "notes" is public and carries what looks like a forge access token (it starts with "glpat-") in file "ci/env.sh", and anyone can read a public snippet. Remove it, and rotate the credential if it was a real one, or make the snippet private.',
    ]);
    expect(messages.join("")).not.toContain("abcdefghijklmnopqrst");
  });

  it("looks at the title, the description and the paths too", async () => {
    const messages = await snippet({
      visibility: "public",
      title: "db at 10.1.2.3",
      description: "password: hunter2",
      files: [{ filePath: "keys/id_rsa", content: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n" }],
    });
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain("in its title");
    expect(messages[1]).toContain("in its description");
    expect(messages[2]).toContain('in file "keys/id_rsa"');
  });

  it("leaves private, internal (by default) and unset visibilities alone, and what is unknown at preview", async () => {
    const secret = [{ filePath: "a.txt", content: "password=hunter2" }];
    expect(await snippet({ files: secret })).toEqual([]);
    expect(await snippet({ visibility: "private", files: secret })).toEqual([]);
    expect(await snippet({ visibility: "internal", files: secret })).toEqual([]);
    expect(await snippet({ visibility: UNKNOWN, files: secret })).toEqual([]);
    expect(await snippet({ visibility: "public", files: UNKNOWN })).toEqual([]);
    expect(await snippet({ visibility: "public", files: [{ filePath: "a.txt", content: UNKNOWN }] })).toEqual([]);
  });

  it("checks internal snippets when configured, and takes the detector's settings", async () => {
    expect(
      await snippet(
        { visibility: "internal", files: [{ filePath: "a.txt", content: "see SEC-1234" }] },
        { visibilities: ["public", "internal"], extraPatterns: ["\\bSEC-\\d+\\b"] },
      ),
    ).toHaveLength(1);
    expect(
      await snippet(
        { visibility: "public", files: [{ filePath: "a.txt", content: "password=example" }] },
        { allowPatterns: ["password=example"] },
      ),
    ).toEqual([]);
  });
});

describe("project-member-expiry", () => {
  const member = (props: Record<string, unknown>, config: Record<string, unknown> = {}) =>
    validateResource(projectMemberExpiry, {
      declaration: declarations.projectMember,
      name: "alice",
      props: { project: "acme/web", user: "alice", ...props },
      config,
    });

  it("reports Maintainer and above without an expiry by default", async () => {
    expect(await member({ accessLevel: 40 })).toEqual([
      'ProjectMember "alice" gives Maintainer (40) with no expiry, and this policy asks for one from Maintainer (40) up. Set expiresAt (YYYY-MM-DD) and renew it when the access is still needed, or give a lower role.',
    ]);
    expect(await member({ accessLevel: 50 })).toHaveLength(1);
    expect(await member({ accessLevel: 30 })).toEqual([]);
    expect(await member({ accessLevel: 50, expiresAt: "2030-01-01" })).toEqual([]);
    expect(await member({ accessLevel: 50, expiresAt: UNKNOWN })).toEqual([]);
    expect(await member({ accessLevel: UNKNOWN })).toEqual([]);
  });

  it("takes the level from its config", async () => {
    expect(await member({ accessLevel: 30 }, { minAccessLevel: 30 })).toHaveLength(1);
    expect(await member({ accessLevel: 40 }, { minAccessLevel: 50 })).toEqual([]);
  });
});

describe("one membership per user and project, one Geo site per name", () => {
  const member = (name: string, project: unknown, user: unknown): StackCase => ({
    declaration: declarations.projectMember,
    name,
    props: { project, user, accessLevel: 30 },
  });
  const site = (name: string, siteName: unknown, primary?: boolean): StackCase => ({
    declaration: declarations.geoSite,
    name,
    props: { name: siteName, url: `https://${name}.example.com`, ...(primary === undefined ? {} : { primary }) },
  });

  it("reports a second membership of the same user in the same project, whatever the spelling", async () => {
    expect(await validateStack(oneResourcePerObject, [member("a", "acme/web", "Nomad"), member("b", "ACME/web", "nomad")])).toEqual([
      {
        message:
          'ProjectMember "b" declares the membership of user "nomad" in project "ACME/web", which ProjectMember "a" already declares; the forge holds one. Keep one of the two resources.',
        urn: urnOf(typeToken(declarations.projectMember), "b"),
      },
    ]);
    expect(await validateStack(oneResourcePerObject, [member("a", 1, 7), member("b", "1", "7")])).toHaveLength(1);
    expect(
      await validateStack(oneResourcePerObject, [
        member("a", "acme/web", "nomad"),
        member("b", "acme/api", "nomad"),
        member("c", "acme/web", "dev"),
      ]),
    ).toEqual([]);
    expect(await validateStack(oneResourcePerObject, [member("a", "acme/web", UNKNOWN), member("b", "acme/web", UNKNOWN)])).toEqual([]);
  });

  it("reports two Geo sites of one name, regardless of case", async () => {
    expect(await validateStack(oneResourcePerObject, [site("a", "Site-1"), site("b", "site-1")])).toHaveLength(1);
  });
});

describe("geo-site-one-primary", () => {
  const site = (name: string, siteName: unknown, primary?: unknown): StackCase => ({
    declaration: declarations.geoSite,
    name,
    props: { name: siteName, url: `https://${name}.example.com`, ...(primary === undefined ? {} : { primary }) },
  });

  it("reports every primary after the first", async () => {
    expect(
      await validateStack(geoSiteOnePrimary, [
        site("b", "two", true),
        site("a", "one", true),
        site("c", "three", false),
        site("d", "four"),
      ]),
    ).toEqual([
      {
        message:
          'GeoSite "b" would be number 2 of the primary sites of the installation, besides GeoSite "a"; the forge allows at most 1. Make one of them a secondary (primary: false).',
        urn: urnOf(typeToken(declarations.geoSite), "b"),
      },
    ]);
    expect(await validateStack(geoSiteOnePrimary, [site("a", "one", true), site("b", "two", UNKNOWN)])).toEqual([]);
  });
});
