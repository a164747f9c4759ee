/**
 * examples/agent-rotation, offline: the Pulumi YAML program that hands a rotating agent token to
 * agentk as a Kubernetes Secret. Its forge resources name only inputs the plugin's schema has; its
 * Kubernetes resources match the subset of their kinds used (strict: a misspelt field fails); the
 * Secret is fed from `currentToken` alone (no value in the file); the Deployment mounts that
 * Secret, rolls without losing a pod, and rolls when the current token changes. No cluster and no
 * forge are reached here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { REPO_ROOT } from "../e2e/harness";

const EXAMPLE = join(REPO_ROOT, "examples", "agent-rotation");
const program = parse(readFileSync(join(EXAMPLE, "Pulumi.yaml"), "utf8")) as {
  runtime: string;
  config: Record<string, unknown>;
  resources: Record<string, { type: string; properties: Record<string, unknown> }>;
  outputs: Record<string, string>;
};
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, unknown>; requiredInputs?: string[] }>;
};

const metadata = z.object({ name: z.string().min(1), namespace: z.literal("${namespace}") }).strict();
const secret = z.object({ metadata, type: z.literal("Opaque"), stringData: z.record(z.string(), z.string()) }).strict();
const deployment = z
  .object({
    metadata,
    spec: z
      .object({
        replicas: z.number().int().min(2),
        selector: z.object({ matchLabels: z.record(z.string(), z.string()) }).strict(),
        strategy: z
          .object({
            type: z.literal("RollingUpdate"),
            rollingUpdate: z.object({ maxUnavailable: z.literal(0), maxSurge: z.number().int().min(1) }).strict(),
          })
          .strict(),
        template: z
          .object({
            metadata: z.object({ labels: z.record(z.string(), z.string()), annotations: z.record(z.string(), z.string()) }).strict(),
            spec: z
              .object({
                containers: z.array(
                  z
                    .object({
                      name: z.string(),
                      image: z.string(),
                      args: z.array(z.string()),
                      volumeMounts: z.array(z.object({ name: z.string(), mountPath: z.string(), readOnly: z.literal(true) }).strict()),
                    })
                    .strict(),
                ),
                volumes: z.array(z.object({ name: z.string(), secret: z.object({ secretName: z.string() }).strict() }).strict()),
              })
              .strict(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

const ofType = (type: string) => Object.entries(program.resources).filter(([, resource]) => resource.type === type);

it("is a Pulumi YAML program whose forge resources name only inputs of the plugin's schema, the required ones included", () => {
  expect(program.runtime).toBe("yaml");
  const forge = Object.entries(program.resources).filter(([, resource]) => resource.type.startsWith("forge:index:"));
  expect(forge.map(([, resource]) => resource.type).sort()).toEqual(["forge:index:ClusterAgent", "forge:index:RotatingClusterAgentToken"]);
  for (const [name, resource] of forge) {
    const type = schema.resources[resource.type]!;
    expect(
      Object.keys(resource.properties).filter((key) => !(key in type.inputProperties)),
      name,
    ).toEqual([]);
    expect(
      (type.requiredInputs ?? []).filter((key) => !(key in resource.properties)),
      name,
    ).toEqual([]);
  }
  expect(ofType("forge:index:RotatingClusterAgentToken")[0]![1].properties["rotateAfter"]).toBe("720h");
});

it("hands the agent `currentToken` through a Secret, and its Deployment mounts that Secret and rolls onto a new token without losing a pod", () => {
  const secrets = ofType("kubernetes:core/v1:Secret");
  expect(secrets).toHaveLength(1);
  const [secretName, secretResource] = secrets[0]!;
  const handed = secret.parse(secretResource.properties);
  expect(handed.stringData).toEqual({ token: "${agentTokens.currentToken}" });
  const deploymentResource = ofType("kubernetes:apps/v1:Deployment")[0]![1];
  const agentk = deployment.parse(deploymentResource.properties);
  const pod = agentk.spec.template.spec;
  expect(pod.volumes).toEqual([{ name: "token", secret: { secretName: handed.metadata.name } }]);
  const mount = pod.containers[0]!.volumeMounts.find((volumeMount) => volumeMount.name === "token")!;
  expect(pod.containers[0]!.args).toContain(`--token-file=${mount.mountPath}/token`);
  expect(Object.values(agentk.spec.template.metadata.annotations)).toContain("${agentTokens.current.tokenId}");
  expect(agentk.spec.selector.matchLabels).toEqual(agentk.spec.template.metadata.labels);
  expect(secretName).toBe("agentTokenSecret");
});

it("writes no token value and names only outputs the resource has", () => {
  const text = readFileSync(join(EXAMPLE, "Pulumi.yaml"), "utf8");
  const outputs = Object.keys(
    (schema.resources["forge:index:RotatingClusterAgentToken"] as unknown as { properties: Record<string, unknown> }).properties,
  );
  const used = [...text.matchAll(/\$\{agentTokens\.(\w+)/g)].map((match) => match[1]!);
  expect(used.filter((output) => !outputs.includes(output))).toEqual([]);
  expect(text).not.toMatch(/glagent-|token:\s+["']?[A-Za-z0-9_-]{20,}/);
});
