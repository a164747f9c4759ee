import { describe, expect, it } from "vitest";
import { inputSchema } from "../../policies/input-schema";
import { broadcastMessageNoConfidentialContent } from "../../policies/rules/secrets";
import { declarations } from "../../provider/resources";
import { UNKNOWN, validateResource } from "./harness";

const limits = (props: Record<string, unknown>) =>
  validateResource(inputSchema, {
    declaration: declarations.broadcastMessage,
    name: "maintenance",
    props: { message: "Maintenance tonight.", ...props },
  });

/** The targeting, theme and time rules live in BroadcastMessage's schema; forge-input-schema reports its messages. */
describe("forge-input-schema: BroadcastMessage", () => {
  it("accepts a compliant message", async () => {
    expect(
      await limits({
        targetAccessLevels: [10, 30, 50],
        broadcastType: "banner",
        theme: "light-indigo",
        startsAt: "2026-12-01T10:00:00Z",
        endsAt: "2026-12-01T12:00:00Z",
      }),
    ).toEqual([]);
    expect(await limits({ broadcastType: "notification" })).toEqual([]);
  });

  it("tolerates values unknown at preview", async () => {
    expect(
      await limits({
        targetAccessLevels: UNKNOWN,
        theme: UNKNOWN,
        broadcastType: UNKNOWN,
        startsAt: UNKNOWN,
        endsAt: "2026-01-01T00:00:00Z",
      }),
    ).toEqual([]);
    expect(await limits({ targetAccessLevels: [UNKNOWN, 30] })).toEqual([]);
    expect(await limits({ theme: "blue", broadcastType: UNKNOWN })).toEqual([]);
  });

  it("refuses target access levels outside 10, 15, 20, 30, 40, 50, each by its index", async () => {
    const allowed = "Use 10 (Guest), 15 (Planner), 20 (Reporter), 30 (Developer), 40 (Maintainer) or 50 (Owner).";
    expect(await limits({ targetAccessLevels: [30, 60, 5] })).toEqual([
      `BroadcastMessage "maintenance" has an invalid targetAccessLevels[1]: 60 is not an access level a broadcast message can target. ${allowed}`,
      `BroadcastMessage "maintenance" has an invalid targetAccessLevels[2]: 5 is not an access level a broadcast message can target. ${allowed}`,
    ]);
    expect(await limits({ targetAccessLevels: 30 })).toEqual([
      'BroadcastMessage "maintenance" has an invalid targetAccessLevels: 30 is not a list. Give a list of access levels such as [30, 40].',
    ]);
  });

  it("refuses a theme outside the list", async () => {
    expect(await limits({ theme: "purple" })).toEqual([
      'BroadcastMessage "maintenance" has an invalid theme: "purple" is not a theme the forge knows. Use indigo, light-indigo, blue, light-blue, green, light-green, red, light-red, dark or light.',
    ]);
  });

  it("refuses a theme on a notification", async () => {
    expect(await limits({ theme: "red", broadcastType: "notification" })).toEqual([
      'BroadcastMessage "maintenance" has an invalid theme: themes apply to banners only, and this message is a notification. Remove theme, or set broadcastType to "banner".',
    ]);
  });

  it("refuses an end before (or at) the start, comparing instants", async () => {
    expect(await limits({ startsAt: "2026-12-01T12:00:00Z", endsAt: "2026-12-01T10:00:00Z" })).toEqual([
      'BroadcastMessage "maintenance" has an invalid endsAt: the message ends (endsAt "2026-12-01T10:00:00Z") before it starts (startsAt "2026-12-01T12:00:00Z"), so it would never show. Set endsAt after startsAt.',
    ]);
    expect(await limits({ startsAt: "2026-12-01T12:00:00+02:00", endsAt: "2026-12-01T10:00:00Z" })).toEqual([
      expect.stringContaining('ends (endsAt "2026-12-01T10:00:00Z") when it starts'),
    ]);
    // 11:00+02:00 is 09:00Z: before 10:00Z, so this one is fine although the text sorts after.
    expect(await limits({ startsAt: "2026-12-01T11:00:00+02:00", endsAt: "2026-12-01T10:00:00Z" })).toEqual([]);
  });

  it("refuses a datetime that does not parse", async () => {
    expect(await limits({ endsAt: "next tuesday" })).toEqual([
      'BroadcastMessage "maintenance" has an invalid endsAt: "next tuesday" is not a datetime. Write it in ISO 8601, UTC, such as "2026-12-01T10:00:00Z".',
    ]);
  });
});

const confidential = (message: string, config: Record<string, unknown> = {}) =>
  validateResource(broadcastMessageNoConfidentialContent, {
    declaration: declarations.broadcastMessage,
    name: "maintenance",
    props: { message },
    config,
  });

describe("broadcast-message-no-confidential-content", () => {
  it("accepts ordinary announcements, commit hashes, UUIDs and public links", async () => {
    for (const message of [
      "Maintenance on Saturday 10:00-12:00 UTC; see https://status.example.com/incidents/2024-11-30 for details.",
      "Deployed commit 9fceb02d0ae598e95dc970b74767f19372d61af8 to production.",
      "Incident 123e4567-e89b-12d3-a456-426614174000 is resolved. Top secret: the new theme ships Friday.",
      "The FeatureFlagRolloutPercentage2024 setting is now on. We moved to the local office; the corp. party is Friday.",
    ]) {
      expect(await confidential(message), message).toEqual([]);
    }
  });

  it("tolerates a message unknown at preview", async () => {
    expect(await confidential(UNKNOWN)).toEqual([]);
  });

  it("flags tokens with known prefixes without repeating them", async () => {
    const messages = await confidential("Log in with glpat-xK9d8Fj3LmNqR2sT5vWy until Monday.");
    expect(messages).toEqual([
      'BroadcastMessage "maintenance" carries what looks like a forge access token (it starts with "glpat-") in its message, and anyone can read broadcast messages. Remove it from the message, and rotate the credential if it was a real one.',
    ]);
    expect(messages[0]).not.toContain("xK9d8Fj3");
    expect(await confidential("ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345")).toEqual([
      expect.stringContaining('code-host access token (it starts with "ghp_")'),
    ]);
    expect(await confidential("bot token xoxb-123456789012-abcdefghij")).toEqual([expect.stringContaining('(it starts with "xoxb-")')]);
    expect(await confidential("key AKIAIOSFODNN7EXAMPLE")).toEqual([
      expect.stringContaining('cloud access key id (it starts with "AKIA")'),
    ]);
  });

  it("flags long random-looking strings", async () => {
    expect(await confidential("Use Q2x5ZGVAc29tZS1yYW5kb20tdG9rZW4tdmFsdWU9 as the key")).toEqual([
      expect.stringContaining("what looks like a token or key (a random-looking string of 40 characters)"),
    ]);
  });

  it("flags private keys", async () => {
    expect(await confidential("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----")).toEqual([
      expect.stringContaining('carries a private key ("-----BEGIN RSA PRIVATE KEY-----") in its message'),
    ]);
  });

  it("flags passwords and credentials in URLs", async () => {
    expect(await confidential("The wiki password=hunter2 for now")).toEqual([
      expect.stringContaining('a password or secret ("password=" followed by a value)'),
    ]);
    expect(await confidential("pwd: s3cret")).toEqual([expect.stringContaining('("pwd:" followed by a value)')]);
    expect(await confidential("clone https://deploy:S3cret@forge.example.com/acme/web.git")).toEqual([
      expect.stringContaining("a URL with a user name and password in it"),
    ]);
  });

  it("flags internal addresses: RFC 1918 IPs and internal host names", async () => {
    expect(await confidential("The cache at 10.0.3.7 is down.")).toEqual([
      'BroadcastMessage "maintenance" carries an internal address (10.0.3.7, a private RFC 1918 IP) in its message, and anyone can read broadcast messages. Remove it, or name a public address instead.',
    ]);
    expect(await confidential("Proxy 172.20.1.1 moves.")).toEqual([expect.stringContaining("(172.20.1.1, a private RFC 1918 IP)")]);
    expect(await confidential("Proxy 192.168.10.1 moves.")).toEqual([expect.stringContaining("(192.168.10.1, a private RFC 1918 IP)")]);
    expect(await confidential("Public 172.32.0.1 and 8.8.8.8 are fine.")).toEqual([]);
    expect(await confidential("Builds run on ci.build.internal today.")).toEqual([
      expect.stringContaining("an internal host name (ci.build.internal)"),
    ]);
    expect(await confidential("See jenkins.corp and printer.local")).toEqual([expect.stringContaining("(jenkins.corp)")]);
  });

  it("takes extra patterns, allowed text and internal domains from the config", async () => {
    expect(await confidential("Ticket SEC-4711 is fixed.", { extraPatterns: ["SEC-\\d+"] })).toEqual([
      'BroadcastMessage "maintenance" carries text matching the configured pattern /SEC-\\d+/ in its message, and anyone can read broadcast messages. Remove it from the message.',
    ]);
    expect(await confidential("Builds run on ci.build.internal today.", { allowPatterns: ["ci\\.build\\.internal"] })).toEqual([]);
    expect(await confidential("Status on status.acme.lan", { internalDomains: ["lan"] })).toEqual([
      expect.stringContaining("(status.acme.lan)"),
    ]);
    expect(await confidential("Builds run on ci.build.internal today.", { internalDomains: [] })).toEqual([]);
  });

  it("explains an invalid configured pattern", async () => {
    await expect(confidential("text", { extraPatterns: ["(unclosed"] })).rejects.toThrow(
      /extraPatterns: "\(unclosed" is not a valid regular expression/,
    );
  });
});
