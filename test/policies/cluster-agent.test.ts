import { describe, expect, it } from "vitest";
import { inputSchema } from "../../policies/input-schema";
import { clusterAgentTokenRotation } from "../../policies/rules/agent-limits";
import { limitPolicyNamed } from "../../policies/rules/limits";
import { clusterAgentTokenNotInStackOutputs } from "../../policies/rules/secrets";
import { clusterAgentTokenDescription } from "../../policies/rules/token-descriptions";
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { UNKNOWN, urnOf, validateResource, validateStack, type StackCase } from "./harness";

const clusterAgentTokenLimit = limitPolicyNamed("cluster-agent-token-limit");
const clusterAgentUrlConfigurationOnePerAgent = limitPolicyNamed("cluster-agent-url-configuration-one-per-agent");

const CERT = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n";

const urlConfig = (name: string, props: Record<string, unknown>, extra: Partial<StackCase> = {}): StackCase => ({
  declaration: declarations.clusterAgentUrlConfiguration,
  name,
  props: { url: "grpcs://agent.example.com:443", ...props },
  ...extra,
});
const token = (name: string, props: Record<string, unknown>, extra: Partial<StackCase> = {}): StackCase => ({
  declaration: declarations.clusterAgentToken,
  name,
  props: { name, description: "CI", ...props },
  ...extra,
});
const agent = (name: string): StackCase => ({ declaration: declarations.clusterAgent, name, props: { project: "acme/web", name } });
const tokenUrn = (name: string) => urnOf(typeToken(declarations.clusterAgentToken), name);
const configUrn = (name: string) => urnOf(typeToken(declarations.clusterAgentUrlConfiguration), name);

describe("cluster-agent-url-configuration-one-per-agent", () => {
  it("accepts one configuration per agent", async () => {
    expect(
      await validateStack(clusterAgentUrlConfigurationOnePerAgent, [
        urlConfig("a", { project: "acme/web", agentId: 1 }),
        urlConfig("b", { project: "acme/web", agentId: 2 }),
        urlConfig("c", { project: "acme/api", agentId: 1 }),
      ]),
    ).toEqual([]);
  });

  it("reports every configuration after the first of the same agent, however the project is spelled", async () => {
    expect(
      await validateStack(clusterAgentUrlConfigurationOnePerAgent, [
        urlConfig("a", { project: "acme/web", agentId: 7 }),
        urlConfig("b", { project: "acme%2Fweb", agentId: 7 }),
      ]),
    ).toEqual([
      {
        message:
          'ClusterAgentUrlConfiguration "b" would be number 2 of the URL configurations of agent 7 of project "acme%2Fweb", besides ClusterAgentUrlConfiguration "a"; the forge allows at most 1. Keep one of them (to change it, edit that one: a replacement deletes the old configuration first).',
        urn: configUrn("b"),
      },
    ]);
    expect(
      await validateStack(clusterAgentUrlConfigurationOnePerAgent, [
        urlConfig("a", { project: 12, agentId: 7 }),
        urlConfig("b", { project: "12", agentId: 7 }),
      ]),
    ).toHaveLength(1);
  });

  it("tolerates an unknown agentId, unless both come from the same ClusterAgent", async () => {
    expect(
      await validateStack(clusterAgentUrlConfigurationOnePerAgent, [
        urlConfig("a", { project: "acme/web", agentId: UNKNOWN }),
        urlConfig("b", { project: "acme/web", agentId: UNKNOWN }),
      ]),
    ).toEqual([]);
    expect(
      await validateStack(clusterAgentUrlConfigurationOnePerAgent, [
        agent("edge"),
        agent("core"),
        urlConfig("a", { project: "acme/web", agentId: UNKNOWN }, { dependsOn: { agentId: ["edge"] } }),
        urlConfig("b", { project: "acme/web", agentId: UNKNOWN }, { dependsOn: { agentId: ["core"] } }),
      ]),
    ).toEqual([]);
    expect(
      await validateStack(clusterAgentUrlConfigurationOnePerAgent, [
        agent("edge"),
        urlConfig("a", { project: "acme/web", agentId: UNKNOWN }, { dependsOn: { agentId: ["edge"] } }),
        urlConfig("b", { project: "acme/web", agentId: UNKNOWN }, { dependsOn: { agentId: ["edge"] } }),
      ]),
    ).toEqual([
      {
        message: expect.stringContaining('would be number 2 of the URL configurations of the agentId from ClusterAgent "edge"'),
        urn: configUrn("b"),
      },
    ]);
  });
});

/** The authentication rules live in ClusterAgentUrlConfiguration's schema; forge-input-schema reports its messages. */
describe("forge-input-schema: ClusterAgentUrlConfiguration authentication", () => {
  const auth = (props: Record<string, unknown>) =>
    validateResource(inputSchema, {
      declaration: declarations.clusterAgentUrlConfiguration,
      name: "edge",
      props: { project: "acme/web", agentId: 1, url: "grpcs://agent.example.com:443", ...props },
    });

  it("needs a grpc:// or grpcs:// URL with a host, as the emulator does", async () => {
    expect(await auth({ url: "grpc://agent.example.com" })).toEqual([]);
    for (const url of ["https://agent.example.com", "agent.example.com:443", "grpcs://", " grpcs://agent.example.com"]) {
      expect(await auth({ url })).toEqual([
        `ClusterAgentUrlConfiguration "edge" has an invalid url: ${JSON.stringify(url)} is not an agent URL. Write it with grpc:// or grpcs:// and the agent's host, such as "grpcs://agent.example.com:443".`,
      ]);
    }
  });

  it("accepts JWT (no certificate) and mutual TLS (certificate with key)", async () => {
    expect(await auth({})).toEqual([]);
    expect(await auth({ clientCert: CERT, clientKey: KEY, caCert: CERT })).toEqual([]);
  });

  it("tolerates unknown certificate or key", async () => {
    expect(await auth({ clientCert: UNKNOWN })).toEqual([]);
    expect(await auth({ clientCert: CERT, clientKey: UNKNOWN })).toEqual([]);
  });

  it("needs the certificate and its key together", async () => {
    expect(await auth({ clientCert: CERT })).toEqual([
      'ClusterAgentUrlConfiguration "edge" has an invalid clientKey: it is needed with clientCert: mutual TLS takes the certificate and its private key. Add clientKey, or remove clientCert to use JWT authentication.',
    ]);
    expect(await auth({ clientKey: KEY })).toEqual([
      'ClusterAgentUrlConfiguration "edge" has an invalid clientCert: it is needed with clientKey: mutual TLS takes the certificate and its private key. Add clientCert, or remove clientKey to use JWT authentication.',
    ]);
  });

  it("needs PEM for both (catches a swapped certificate and key), even with the agent unknown at preview", async () => {
    const expected = [
      'ClusterAgentUrlConfiguration "edge" has an invalid clientCert: it is not a PEM certificate. Give the client certificate in PEM ("-----BEGIN CERTIFICATE-----").',
      'ClusterAgentUrlConfiguration "edge" has an invalid clientKey: it is not a PEM private key. Give the certificate\'s private key in PEM ("-----BEGIN PRIVATE KEY-----").',
    ];
    expect(await auth({ clientCert: KEY, clientKey: CERT })).toEqual(expected);
    expect(await auth({ agentId: UNKNOWN, clientCert: KEY, clientKey: CERT })).toEqual(expected);
  });
});

describe("forge-input-schema: ClusterAgentToken name", () => {
  it("needs a name that is not blank, as the forge does (name can't be blank)", async () => {
    for (const name of ["", "  "]) {
      expect(await validateResource(inputSchema, token("t", { project: "acme/web", agentId: 1, name }))).toEqual([
        'ClusterAgentToken "t" has an invalid name: it is blank. Give the token\'s name.',
      ]);
    }
  });
});

describe("cluster-agent-token-limit", () => {
  it("accepts two tokens per agent", async () => {
    expect(
      await validateStack(clusterAgentTokenLimit, [
        token("a", { project: "acme/web", agentId: 1 }),
        token("b", { project: "acme/web", agentId: 1 }),
        token("c", { project: "acme/web", agentId: 2 }),
      ]),
    ).toEqual([]);
  });

  it("reports the third token of an agent", async () => {
    expect(
      await validateStack(clusterAgentTokenLimit, [
        token("a", { project: "acme/web", agentId: 1 }),
        token("b", { project: "acme/web", agentId: 1 }),
        token("c", { project: "acme/web", agentId: 1 }),
      ]),
    ).toEqual([
      {
        message:
          'ClusterAgentToken "c" would be number 3 of the active tokens of agent 1 of project "acme/web", besides ClusterAgentToken "a" and ClusterAgentToken "b"; the forge allows at most 2. Remove tokens until the agent has at most 2.',
        urn: tokenUrn("c"),
      },
    ]);
  });

  it("reports the same token whatever order the engine hands the resources over in", async () => {
    const tokens = ["c", "a", "b"].map((name) => token(name, { project: "acme/web", agentId: 1 }));
    expect(await validateStack(clusterAgentTokenLimit, tokens)).toEqual([
      { message: expect.stringContaining('ClusterAgentToken "c" would be number 3'), urn: tokenUrn("c") },
    ]);
    expect(await validateStack(clusterAgentTokenLimit, tokens.reverse())).toEqual([
      { message: expect.stringContaining('ClusterAgentToken "c" would be number 3'), urn: tokenUrn("c") },
    ]);
  });

  it("tolerates unknown agent ids, and counts tokens of one new ClusterAgent together", async () => {
    const unknown = (name: string) => token(name, { project: "acme/web", agentId: UNKNOWN });
    expect(await validateStack(clusterAgentTokenLimit, [unknown("a"), unknown("b"), unknown("c")])).toEqual([]);
    const fromAgent = (name: string) => token(name, { project: "acme/web", agentId: UNKNOWN }, { dependsOn: { agentId: ["edge"] } });
    expect(await validateStack(clusterAgentTokenLimit, [agent("edge"), fromAgent("a"), fromAgent("b"), fromAgent("c")])).toEqual([
      {
        message: expect.stringContaining(
          'ClusterAgentToken "c" would be number 3 of the active tokens of the agentId from ClusterAgent "edge"',
        ),
        urn: tokenUrn("c"),
      },
    ]);
  });
});

describe("cluster-agent-token-rotation", () => {
  it("accepts one token, or two that are deleted before replacement", async () => {
    expect(await validateStack(clusterAgentTokenRotation, [token("a", { project: "acme/web", agentId: 1 })])).toEqual([]);
    expect(
      await validateStack(clusterAgentTokenRotation, [
        token("a", { project: "acme/web", agentId: 1 }, { deleteBeforeReplace: true }),
        token("b", { project: "acme/web", agentId: 1 }, { deleteBeforeReplace: true }),
      ]),
    ).toEqual([]);
  });

  it("asks for deleteBeforeReplace on each of two tokens of an agent", async () => {
    expect(
      await validateStack(clusterAgentTokenRotation, [
        token("a", { project: "acme/web", agentId: 1 }, { deleteBeforeReplace: true }),
        token("b", { project: "acme/web", agentId: 1 }),
      ]),
    ).toEqual([
      {
        message:
          'ClusterAgentToken "b" is one of the 2 tokens of agent 1 of project "acme/web", so replacing it (any change of its inputs does) would create a third active token, which the forge refuses. Set the resource option deleteBeforeReplace: true on it.',
        urn: tokenUrn("b"),
      },
    ]);
  });
});

describe("cluster-agent-token-description", () => {
  const describeToken = (props: Record<string, unknown>, config?: Record<string, unknown>) =>
    validateResource(clusterAgentTokenDescription, {
      declaration: declarations.clusterAgentToken,
      name: "ci",
      props: { project: "acme/web", agentId: 1, name: "ci", ...props },
      ...(config ? { config } : {}),
    });

  it("accepts a description, or one unknown at preview", async () => {
    expect(await describeToken({ description: "CI deployer for acme/web" })).toEqual([]);
    expect(await describeToken({ description: UNKNOWN })).toEqual([]);
  });

  it("asks for a description when there is none or it is blank", async () => {
    const expected =
      'ClusterAgentToken "ci" has no description. Add one saying what the token is for and who uses it, such as "CI deployer for acme/web".';
    expect(await describeToken({})).toEqual([expected]);
    expect(await describeToken({ description: "   " })).toEqual([expected]);
  });

  it("takes the shortest description from the config", async () => {
    expect(await describeToken({ description: "CI" }, { minLength: 10 })).toEqual([
      'ClusterAgentToken "ci" has the description "CI", shorter than 10 characters. Say what the token is for and who uses it.',
    ]);
  });
});

describe("cluster-agent-token-not-in-stack-outputs", () => {
  const SECRET = "glagent-AbCdEf0123456789xyzXYZ";
  const stack = (outputs: Record<string, unknown>): StackCase => ({ type: "pulumi:pulumi:Stack", name: "forge-dev", props: outputs });
  const issued = token("ci", { project: "acme/web", agentId: 1, token: SECRET, tokenId: 5 });

  it("accepts outputs without the token, and tokens unknown at preview", async () => {
    expect(await validateStack(clusterAgentTokenNotInStackOutputs, [issued, stack({ tokenId: 5, agent: { id: 1 } })])).toEqual([]);
    expect(
      await validateStack(clusterAgentTokenNotInStackOutputs, [
        token("ci", { project: "acme/web", agentId: 1, token: UNKNOWN }),
        stack({ token: UNKNOWN }),
      ]),
    ).toEqual([]);
    expect(await validateStack(clusterAgentTokenNotInStackOutputs, [issued])).toEqual([]);
  });

  it("reports an output holding the token, anywhere inside it", async () => {
    const expected = {
      message:
        'Stack output "agentToken" holds the secret token of ClusterAgentToken "ci". Policies see secrets unwrapped, so this one cannot tell whether it is exported as a secret: keep the token out of stack outputs, or export it wrapped in pulumi.secret() and add "agentToken" to this policy\'s allowedOutputs.',
      urn: tokenUrn("ci"),
    };
    expect(await validateStack(clusterAgentTokenNotInStackOutputs, [issued, stack({ agentToken: SECRET })])).toEqual([expected]);
    expect(await validateStack(clusterAgentTokenNotInStackOutputs, [issued, stack({ agentToken: { env: [`TOKEN=${SECRET}`] } })])).toEqual([
      expected,
    ]);
  });

  it("leaves out outputs listed in allowedOutputs", async () => {
    expect(
      await validateStack(clusterAgentTokenNotInStackOutputs, [issued, stack({ agentToken: SECRET })], { allowedOutputs: ["agentToken"] }),
    ).toEqual([]);
  });
});
