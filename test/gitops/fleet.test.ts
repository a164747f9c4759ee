/**
 * examples/fleet, offline: the runner image recipe (Dockerfile) and the Kubernetes manifests
 * (k8s/) for the Pulumi Kubernetes Operator and the drift CronJob. Every YAML document parses and
 * matches a schema of its kind (the subset of the operator's Stack CRD and of Kubernetes' kinds
 * that the example uses, strict: a misspelt field fails); no secret value is written anywhere;
 * the Stacks, the CronJob and the Dockerfile agree (image, backend, Secrets, stacks, uid); every
 * command the Dockerfile or the CronJob runs exists (tools of the image, bins of this package,
 * `pulumi` subcommands and flags against the pinned CLI's help, as pipelines.test.ts does). No
 * image is built and no cluster is reached here.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { z } from "zod";
import { readFleetFile } from "../../cli/fleet";
import { skipEngineTests, PULUMI_ROOT, REPO_ROOT } from "../e2e/harness";

const FLEET = join(REPO_ROOT, "examples", "fleet");
const library = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  bin: Record<string, string>;
  files: string[];
};

// ---------------------------------------------------------------------------------------------
// Schemas. Kubernetes core/v1 and batch/v1 pieces as the API reference defines them (the subset
// used here); podFailurePolicy is stable since Kubernetes 1.31.

const quantity = z.union([z.string(), z.number()]);
const resources = z
  .object({ requests: z.record(z.string(), quantity).optional(), limits: z.record(z.string(), quantity).optional() })
  .strict();
const volumeMount = z.object({ name: z.string(), mountPath: z.string().startsWith("/"), readOnly: z.boolean().optional() }).strict();
const volume = z
  .object({ name: z.string(), configMap: z.object({ name: z.string() }).strict().optional(), emptyDir: z.object({}).strict().optional() })
  .strict()
  .refine((v) => (v.configMap ? 1 : 0) + (v.emptyDir ? 1 : 0) === 1, { message: "a volume has exactly one source" });
const keyRef = z.object({ name: z.string().min(1), key: z.string().min(1) }).strict();
const envVar = z
  .object({ name: z.string().min(1), value: z.string().optional(), valueFrom: z.object({ secretKeyRef: keyRef }).strict().optional() })
  .strict()
  .refine((v) => (v.value === undefined) !== (v.valueFrom === undefined), { message: "an env var has a value or a valueFrom" });
const container = z
  .object({
    name: z.string(),
    image: z.string(),
    imagePullPolicy: z.enum(["Always", "Never", "IfNotPresent"]).optional(),
    command: z.array(z.string()).min(1),
    env: z.array(envVar).optional(),
    resources: resources.optional(),
    securityContext: z
      .object({ allowPrivilegeEscalation: z.boolean(), capabilities: z.object({ drop: z.array(z.string()) }).strict() })
      .strict()
      .optional(),
    volumeMounts: z.array(volumeMount).optional(),
  })
  .strict();
const metadata = z.object({ name: z.string().min(1), namespace: z.string().min(1) }).strict();

const cronJobSchema = z
  .object({
    apiVersion: z.literal("batch/v1"),
    kind: z.literal("CronJob"),
    metadata,
    spec: z
      .object({
        schedule: z.string().regex(/^\S+ \S+ \S+ \S+ \S+$/),
        concurrencyPolicy: z.enum(["Allow", "Forbid", "Replace"]),
        startingDeadlineSeconds: z.number().int().positive().optional(),
        successfulJobsHistoryLimit: z.number().int().nonnegative().optional(),
        failedJobsHistoryLimit: z.number().int().nonnegative().optional(),
        jobTemplate: z
          .object({
            spec: z
              .object({
                backoffLimit: z.number().int().nonnegative(),
                activeDeadlineSeconds: z.number().int().positive().optional(),
                podFailurePolicy: z
                  .object({
                    rules: z.array(
                      z
                        .object({
                          action: z.enum(["FailJob", "FailIndex", "Ignore", "Count"]),
                          onExitCodes: z
                            .object({
                              containerName: z.string().optional(),
                              operator: z.enum(["In", "NotIn"]),
                              values: z.array(z.number().int()).min(1),
                            })
                            .strict(),
                        })
                        .strict(),
                    ),
                  })
                  .strict()
                  .optional(),
                template: z
                  .object({
                    spec: z
                      .object({
                        restartPolicy: z.enum(["Never", "OnFailure"]),
                        automountServiceAccountToken: z.boolean().optional(),
                        securityContext: z
                          .object({
                            runAsNonRoot: z.boolean(),
                            runAsUser: z.number().int(),
                            runAsGroup: z.number().int(),
                            seccompProfile: z.object({ type: z.string() }).strict(),
                          })
                          .strict(),
                        initContainers: z.array(container).optional(),
                        containers: z.array(container).min(1),
                        volumes: z.array(volume).optional(),
                      })
                      .strict(),
                  })
                  .strict(),
              })
              .strict(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

/**
 * The Stack of the Pulumi Kubernetes Operator v2, transcribed from its CRD `stacks.pulumi.com`,
 * version `v1` (the storage version the operator v2 serves), as released in v2.9.0:
 * deploy/crds/pulumi.com_stacks.yaml of github.com/pulumi/pulumi-kubernetes-operator at commit
 * 475dbc6c (v2.9.0 and 8 commits, the CRD unchanged since the tag). Only the fields the example
 * uses. A ResourceRef's `type` is "one of Env, FS, Secret, Literal" in the CRD; the v2 controller
 * (`resolveResourceRefAsEnvVar` in operator/internal/controller/pulumi/stack_controller.go)
 * refuses Env and FS and turns Secret into the workspace's `valueFrom.secretKeyRef`, so only
 * Secret and Literal are accepted here. `secret.namespace` is deprecated: left out.
 */
const resourceRef = z
  .object({
    type: z.enum(["Secret", "Literal"]),
    secret: keyRef.optional(),
    literal: z.object({ value: z.string() }).strict().optional(),
  })
  .strict()
  .refine(
    (ref) =>
      ref.type === "Secret" ? ref.secret !== undefined && ref.literal === undefined : ref.literal !== undefined && ref.secret === undefined,
    {
      message: "a ResourceRef carries the selector its type names, and only it",
    },
  );
const stackSchema = z
  .object({
    apiVersion: z.literal("pulumi.com/v1"),
    kind: z.literal("Stack"),
    // x-kubernetes-validations: size(self.metadata.name) <= 42
    metadata: metadata.extend({ name: z.string().min(1).max(42) }),
    spec: z
      .object({
        stack: z.string().min(1), // the CRD's only required field
        serviceAccountName: z.string().optional(),
        // Required here, optional in the CRD (a Program or a Flux source could stand instead).
        projectRepo: z.string().startsWith("https://"),
        branch: z.string().optional(),
        commit: z.string().optional(),
        repoDir: z.string().optional(),
        shallow: z.boolean().optional(),
        // gitAuth.basicAuth: userName and password required.
        gitAuth: z
          .object({ basicAuth: z.object({ userName: resourceRef, password: resourceRef }).strict() })
          .strict()
          .optional(),
        useLocalStackOnly: z.boolean().optional(),
        refresh: z.boolean().optional(),
        backend: z.string().optional(),
        envRefs: z.record(z.string(), resourceRef).optional(),
        workspaceReclaimPolicy: z.enum(["Retain", "Delete"]).optional(),
        // A strategic merge patch over the Workspace (auto.pulumi.com/v1alpha1) the operator makes;
        // required here (optional in the CRD): the runner image is the point.
        workspaceTemplate: z
          .object({
            spec: z
              .object({
                image: z.string(),
                imagePullPolicy: z.enum(["Always", "Never", "IfNotPresent"]).optional(),
                securityProfile: z.enum(["baseline", "restricted"]).optional(),
                resources: resources.optional(),
                podTemplate: z
                  .object({
                    spec: z
                      .object({
                        containers: z
                          .array(z.object({ name: z.string(), volumeMounts: z.array(volumeMount).optional() }).strict())
                          .optional(),
                        volumes: z.array(volume).optional(),
                      })
                      .strict(),
                  })
                  .strict()
                  .optional(),
              })
              .strict(),
          })
          .strict(),
      })
      .strict()
      // "Branch ... is mutually exclusive with the Commit setting. Either value needs to be specified."
      .refine((spec) => (spec.branch === undefined) !== (spec.commit === undefined), { message: "exactly one of branch and commit" }),
  })
  .strict();

const configMapSchema = z
  .object({ apiVersion: z.literal("v1"), kind: z.literal("ConfigMap"), metadata, data: z.record(z.string(), z.string()) })
  .strict();
const serviceAccountSchema = z.object({ apiVersion: z.literal("v1"), kind: z.literal("ServiceAccount"), metadata }).strict();
const clusterRoleBindingSchema = z
  .object({
    apiVersion: z.literal("rbac.authorization.k8s.io/v1"),
    kind: z.literal("ClusterRoleBinding"),
    metadata: z.object({ name: z.string() }).strict(),
    roleRef: z.object({ apiGroup: z.literal("rbac.authorization.k8s.io"), kind: z.literal("ClusterRole"), name: z.string() }).strict(),
    subjects: z.array(z.object({ kind: z.literal("ServiceAccount"), name: z.string(), namespace: z.string() }).strict()).min(1),
  })
  .strict();

const SCHEMAS = {
  Stack: stackSchema,
  CronJob: cronJobSchema,
  ConfigMap: configMapSchema,
  ServiceAccount: serviceAccountSchema,
  ClusterRoleBinding: clusterRoleBindingSchema,
} as const;
type Stack = z.infer<typeof stackSchema>;
type CronJob = z.infer<typeof cronJobSchema>;
type ConfigMap = z.infer<typeof configMapSchema>;

// ---------------------------------------------------------------------------------------------
// The manifests.

interface Manifest {
  file: string;
  doc: { kind?: unknown } & Record<string, unknown>;
}

function manifests(): Manifest[] {
  const dir = join(FLEET, "k8s");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".yaml"))
    .sort()
    .flatMap((name) => {
      const documents = parseAllDocuments(readFileSync(join(dir, name), "utf8"));
      if (!Array.isArray(documents)) throw new Error(`${name}: not a YAML stream`);
      return documents.map((document, index) => {
        expect(document.errors, `${name} document ${index + 1}`).toEqual([]);
        return { file: `k8s/${name}`, doc: document.toJS() as Manifest["doc"] };
      });
    });
}

const all = manifests();
const ofKind = <T>(kind: string): T[] => all.filter((m) => m.doc.kind === kind).map((m) => m.doc as unknown as T);
const stacks = ofKind<Stack>("Stack");
const cronJob = ofKind<CronJob>("CronJob")[0]!;
const podSpec = cronJob.spec.jobTemplate.spec.template.spec;
const driftContainer = podSpec.containers.find((c) => c.name === "forge-drift")!;
const checkout = podSpec.initContainers!.find((c) => c.name === "checkout")!;

/** Names of variables that hold secrets: never a literal anywhere. */
const SECRET_NAME = /TOKEN|PASSWORD|PASSPHRASE|SECRET|_KEY$|CREDENTIAL/i;

// ---------------------------------------------------------------------------------------------
// The Dockerfile: instructions (continuations joined, comments dropped) and its shell commands.

const dockerfileText = readFileSync(join(FLEET, "Dockerfile"), "utf8");

function instructions(text: string): { op: string; args: string }[] {
  const logical: string[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    if (/^\s*#/.test(line)) continue; // a comment (inside a continued instruction too)
    if (/\\\s*$/.test(line)) {
      current += line.replace(/\\\s*$/, " ");
      continue;
    }
    current += line;
    if (current.trim() !== "") logical.push(current.trim());
    current = "";
  }
  return logical.map((line) => {
    const [op, ...rest] = line.split(/\s+/);
    return { op: op!.toUpperCase(), args: rest.join(" ") };
  });
}

const dockerfile = instructions(dockerfileText);
const args = new Map(
  dockerfile
    .filter((i) => i.op === "ARG")
    .map((i) => {
      const [name, value] = i.args.split("=", 2);
      return [name!, value];
    }),
);

/** Where the parenthesis opened at `start` (of a `$(`) closes; quoted and nested ones skipped. */
function closingParen(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = start; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return index;
  }
  throw new Error(`unclosed $( in ${text}`);
}

/** The words of one command, as the shell splits them (quotes removed; no expansion). */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of command) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? "") + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word = word ?? "";
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The simple commands of a shell text: each `$(...)` a command list of its own, then the text
 * split on `&&`, `||`, `|` and `;` outside quotes; redirections, leading assignments and RUN's
 * `--mount=` dropped.
 */
function shellCommands(text: string): string[][] {
  const out: string[][] = [];
  let rest = text;
  for (let at = rest.indexOf("$("); at !== -1; at = rest.indexOf("$(")) {
    const end = closingParen(rest, at + 1);
    out.push(...shellCommands(rest.slice(at + 2, end)));
    rest = `${rest.slice(0, at)}SUBST${rest.slice(end + 1)}`;
  }
  const parts: string[] = [];
  let part = "";
  let quote: string | undefined;
  for (let index = 0; index < rest.length; index++) {
    const char = rest[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      part += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      part += char;
    } else if (rest.startsWith("&&", index) || rest.startsWith("||", index)) {
      parts.push(part);
      part = "";
      index++;
    } else if (char === "|" || char === ";") {
      parts.push(part);
      part = "";
    } else part += char;
  }
  parts.push(part);
  for (const command of parts) {
    const words = shellWords(command);
    const redirect = words.findIndex((word) => /^\d?>/.test(word));
    const simple = (redirect === -1 ? words : words.slice(0, redirect)).filter((word) => !word.startsWith("--mount="));
    while (simple.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(simple[0]!)) simple.shift();
    if (simple.length > 0) out.push(simple);
  }
  return out;
}

const runCommands = dockerfile.filter((i) => i.op === "RUN").flatMap((i) => shellCommands(i.args));
const aptPackages = runCommands
  .filter((words) => words[0] === "apt-get" && words[1] === "install")
  .flatMap((words) => words.slice(2).filter((word) => !word.startsWith("-")));

/** The image's tag as the Dockerfile's header documents it (`docker build -t <image> examples/fleet`). */
const documentedImage = /docker build(?: [^\n]*)? -t (\S+) examples\/fleet/.exec(dockerfileText)?.[1];

/** Tools of the base image (node:24-bookworm-slim: Debian's essential packages, the shell, node and npm). */
const BASE_TOOLS = new Set([
  "sh",
  "cd",
  "test",
  "printf",
  "echo",
  "rm",
  "mkdir",
  "ln",
  "chmod",
  "sha256sum",
  "grep",
  "sed",
  "tar",
  "dpkg",
  "apt-get",
  "node",
  "npm",
]);

/** `pulumi <subcommand...>` and its flags exist in the CLI this project pins (subcommands followed through each help's command lists). */
function checkPulumi(words: string[], where: string): void {
  const pulumi = join(PULUMI_ROOT, "bin", "pulumi");
  const env = { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" };
  const path: string[] = [];
  let help = execFileSync(pulumi, ["--help"], { encoding: "utf8", env });
  for (const word of words.slice(1)) {
    if (word.startsWith("-")) break;
    // Cobra's "Available Commands:", or the root's groups ("Deployment Commands:", ...).
    const listed = [...help.matchAll(/^[A-Za-z ]*Commands:\n((?: {2}\S.*\n)+)/gm)].flatMap((section) =>
      section[1]!.split("\n").map((line) => line.trim().split(/\s+/)[0]),
    );
    if (!listed.includes(word)) break;
    path.push(word);
    help = execFileSync(pulumi, [...path, "--help"], { encoding: "utf8", env });
  }
  expect(path.length, `${where}: pulumi ${words.slice(1).join(" ")}`).toBeGreaterThan(0);
  for (const flag of words.filter((word) => word.startsWith("--")))
    expect(help, `${where}: pulumi ${path.join(" ")} ${flag}`).toContain(flag.split("=")[0]);
}

/** A bin of this package and its flags, against its `--help`. */
function checkBin(words: string[], where: string): void {
  expect(Object.keys(library.bin), `${where}: ${words[0]}`).toContain(words[0]);
  const usage = execFileSync(process.execPath, [join(REPO_ROOT, library.bin[words[0]!]!), "--help"], { encoding: "utf8" });
  for (const flag of words.filter((word) => word.startsWith("--") && word !== "--help"))
    expect(usage, `${where}: ${words[0]} ${flag}`).toContain(flag);
}

describe("examples/fleet: the manifests", () => {
  it("every YAML document parses and matches the schema of its kind; nothing is a Secret", () => {
    expect(all.length).toBeGreaterThan(0);
    const problems = all.flatMap(({ file, doc }) => {
      const schema = SCHEMAS[doc.kind as keyof typeof SCHEMAS];
      if (!schema) return [`${file}: kind ${String(doc.kind)} has no schema here (a Secret's values never belong in the repository)`];
      const result = schema.safeParse(doc);
      return result.success ? [] : [`${file} ${String(doc.kind)}: ${z.prettifyError(result.error)}`];
    });
    expect(problems).toEqual([]);
    expect(stacks.length).toBeGreaterThanOrEqual(2);
    expect(ofKind("CronJob")).toHaveLength(1);
  });

  it("one Stack per team, each its own project of one repository, all on the fleet's PostgreSQL table", () => {
    const names = stacks.map((stack) => stack.spec.stack);
    expect(new Set(names).size, "distinct stacks").toBe(stacks.length);
    expect(new Set(stacks.map((stack) => stack.spec.repoDir)).size, "distinct project directories").toBe(stacks.length);
    expect(new Set(stacks.map((stack) => `${stack.spec.projectRepo}#${stack.spec.branch}`)).size, "one repository and branch").toBe(1);
    const backends = new Set(stacks.map((stack) => stack.spec.backend));
    expect(backends.size).toBe(1);
    const backend = new URL([...backends][0]!);
    expect(backend.protocol).toBe("postgres:");
    expect(backend.username).not.toBe("");
    expect(backend.password, "the password comes from PGPASSWORD, never the URL").toBe("");
    expect(backend.searchParams.get("table")).toMatch(/^[a-z_][a-z0-9_]*$/); // lower case: Pulumi folds it
    expect(backend.searchParams.get("sslmode")).toBeTruthy();
    for (const stack of stacks) {
      const refs = stack.spec.envRefs ?? {};
      for (const variable of ["PGPASSWORD", "PULUMI_CONFIG_PASSPHRASE", "FORGE_TOKEN"])
        expect(refs[variable]?.type, `${stack.metadata.name} ${variable}`).toBe("Secret");
      expect(refs["FORGE_BASE_URL"]?.literal?.value).toMatch(/^https:\/\//);
      // The forge's CA: a file of a mounted ConfigMap, named by both variables that read it.
      expect(refs["FORGE_CA_BUNDLE"]?.literal?.value).toBe(refs["NODE_EXTRA_CA_CERTS"]?.literal?.value);
      const mounts = stack.spec.workspaceTemplate.spec.podTemplate?.spec.containers?.find((c) => c.name === "pulumi")?.volumeMounts ?? [];
      expect(mounts.some((mount) => refs["FORGE_CA_BUNDLE"]!.literal!.value.startsWith(`${mount.mountPath}/`))).toBe(true);
      expect(stack.spec.useLocalStackOnly, "the stack (and its salt) is committed, never created by the operator").toBe(true);
      // Its workspace's service account exists and may review tokens (the operator v2's workspace auth).
      const account = stack.spec.serviceAccountName;
      expect(ofKind<{ metadata: { name: string } }>("ServiceAccount").map((sa) => sa.metadata.name)).toContain(account);
      const bindings = ofKind<z.infer<typeof clusterRoleBindingSchema>>("ClusterRoleBinding");
      expect(
        bindings.some(
          (b) =>
            b.roleRef.name === "system:auth-delegator" &&
            b.subjects.some((s) => s.name === account && s.namespace === stack.metadata.namespace),
        ),
      ).toBe(true);
    }
  });

  it("no secret value is written: secret variables come from Secrets, URLs carry no password", () => {
    const text = readdirSync(join(FLEET, "k8s"))
      .map((name) => readFileSync(join(FLEET, "k8s", name), "utf8"))
      .join("\n");
    expect(text, "a user:password@ in a URL").not.toMatch(/:\/\/[^/\s:@]+:[^/\s@]+@/);
    for (const stack of stacks) {
      for (const [name, ref] of Object.entries(stack.spec.envRefs ?? {}))
        if (SECRET_NAME.test(name)) expect(ref.type, `${stack.metadata.name} envRefs.${name}`).toBe("Secret");
      for (const ref of Object.values(stack.spec.gitAuth?.basicAuth ?? {})) expect(ref.type).toBe("Secret");
    }
    for (const c of [...podSpec.containers, ...(podSpec.initContainers ?? [])])
      for (const variable of c.env ?? [])
        if (SECRET_NAME.test(variable.name)) expect(variable.valueFrom?.secretKeyRef, `${c.name} ${variable.name}`).toBeDefined();
  });

  it("the workspaces and the CronJob run the image the Dockerfile documents", () => {
    expect(documentedImage).toBeDefined();
    expect(documentedImage!.endsWith(`:${library.version}`), "tagged with the package's version").toBe(true);
    for (const stack of stacks) expect(stack.spec.workspaceTemplate.spec.image).toBe(documentedImage);
    for (const c of [...podSpec.containers, ...(podSpec.initContainers ?? [])]) expect(c.image, c.name).toBe(documentedImage);
    expect(readFileSync(join(FLEET, "README.md"), "utf8")).toContain(documentedImage!);
    // The uid the Dockerfile runs as is the one the operator's restricted profile and the CronJob use.
    const user = dockerfile.filter((i) => i.op === "USER").at(-1)!.args;
    expect(user).toBe("1000:1000");
    for (const stack of stacks) expect(stack.spec.workspaceTemplate.spec.securityProfile ?? "restricted").toBe("restricted");
    expect(`${podSpec.securityContext.runAsUser}:${podSpec.securityContext.runAsGroup}`).toBe(user);
    expect(podSpec.securityContext.runAsNonRoot).toBe(true);
  });

  it("the CronJob checks exactly the Stacks, on their backend with their Secrets, and takes turns with deploys through the lock", () => {
    // The stacks file, read by forge-drift's own reader from where the ConfigMap is mounted.
    const stacksFile = driftContainer.command[driftContainer.command.indexOf("--stacks-file") + 1]!;
    const mount = driftContainer.volumeMounts!.find((m) => m.mountPath === posix.dirname(stacksFile))!;
    const configMapName = podSpec.volumes!.find((v) => v.name === mount.name)!.configMap!.name;
    const configMap = ofKind<ConfigMap>("ConfigMap").find((c) => c.metadata.name === configMapName)!;
    const scratch = mkdtempSync(join(tmpdir(), "fleet-"));
    let fleet: ReturnType<typeof readFleetFile>;
    try {
      const file = join(scratch, posix.basename(stacksFile));
      writeFileSync(file, configMap.data[posix.basename(stacksFile)]!);
      fleet = readFleetFile(file);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    // Each entry is a Stack's project in the checkout the init container makes.
    const checkoutDir = checkout.command.at(-1)!.trim().split(/\s+/).at(-1)!;
    expect(
      driftContainer.volumeMounts!.some(
        (m) =>
          checkoutDir.startsWith(`${m.mountPath}/`) && checkout.volumeMounts!.some((n) => n.name === m.name && n.mountPath === m.mountPath),
      ),
    ).toBe(true);
    expect(fleet.map((entry) => [entry.stack, entry.workDir]).sort()).toEqual(
      stacks.map((stack) => [stack.spec.stack, posix.join(checkoutDir, stack.spec.repoDir!)]).sort(),
    );
    const script = checkout.command.join(" ");
    const env = (c: typeof driftContainer, name: string) => c.env?.find((variable) => variable.name === name);
    expect(env(checkout, "CONFIG_REPO")?.value).toBe(stacks[0]!.spec.projectRepo);
    expect(env(checkout, "CONFIG_BRANCH")?.value).toBe(stacks[0]!.spec.branch);
    expect(script).toContain("$CONFIG_REPO");
    expect(script).toContain("$CONFIG_BRANCH");
    // Same backend, same Secrets, same forge.
    const stack = stacks[0]!;
    expect(env(driftContainer, "PULUMI_BACKEND_URL")?.value).toBe(stack.spec.backend);
    for (const name of ["PGPASSWORD", "PULUMI_CONFIG_PASSPHRASE", "FORGE_TOKEN"])
      expect(env(driftContainer, name)?.valueFrom?.secretKeyRef, name).toEqual(stack.spec.envRefs![name]!.secret);
    for (const name of ["FORGE_BASE_URL", "FORGE_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "HTTPS_PROXY", "NO_PROXY"])
      expect(env(driftContainer, name)?.value, name).toBe(stack.spec.envRefs![name]!.literal!.value);
    // The git checkout trusts the forge's CA and goes through the same proxy.
    expect(env(checkout, "GIT_SSL_CAINFO")?.value).toBe(stack.spec.envRefs!["FORGE_CA_BUNDLE"]!.literal!.value);
    expect(env(checkout, "HTTPS_PROXY")?.value).toBe(stack.spec.envRefs!["HTTPS_PROXY"]!.literal!.value);
    // One run at a time; drift (2) and errors (1) fail the Job at once, a locked stack (3) is tried again.
    expect(cronJob.spec.concurrencyPolicy).toBe("Forbid");
    expect(podSpec.restartPolicy).toBe("Never"); // podFailurePolicy needs it
    const rules = cronJob.spec.jobTemplate.spec.podFailurePolicy!.rules;
    const actionFor = (code: number) =>
      rules.find(
        (rule) =>
          rule.onExitCodes.containerName === "forge-drift" && rule.onExitCodes.operator === "In" && rule.onExitCodes.values.includes(code),
      )?.action;
    expect(actionFor(1)).toBe("FailJob");
    expect(actionFor(2)).toBe("FailJob");
    expect(actionFor(3)).toBe("Count");
    expect(cronJob.spec.jobTemplate.spec.backoffLimit).toBeGreaterThan(0);
    // forge-drift's own usage says what those codes mean.
    const usage = execFileSync(process.execPath, [join(REPO_ROOT, library.bin["forge-drift"]!), "--help"], { encoding: "utf8" });
    expect(usage).toMatch(/else 2 if\s+one drifted, else 3 if\s+one was locked/);
  });

  it("every command the CronJob runs exists in the image", () => {
    checkBin(driftContainer.command, "CronJob forge-drift");
    expect(checkout.command.slice(0, 2)).toEqual(["sh", "-c"]);
    for (const words of shellCommands(checkout.command[2]!)) {
      expect(words[0], "CronJob checkout").toBe("git");
      expect(aptPackages, "git is installed by the Dockerfile").toContain("git");
      const sub = words.find((word, index) => index > 0 && !word.startsWith("-") && words[index - 1] !== "-c")!;
      expect(sub).toBe("clone");
      const help = spawnSync("git", [sub, "-h"], { encoding: "utf8" }); // exits 129 after printing its usage
      if (help.error) continue; // no git on this machine: the flags go unchecked
      for (const flag of words.slice(words.indexOf(sub)).filter((word) => word.startsWith("--")))
        expect(help.stdout, `git clone ${flag}`).toContain(flag);
    }
  });
});

describe("examples/fleet: the Dockerfile", () => {
  it("Node 24, the pinned Pulumi CLI with its YAML host, the package's version, a non-root user, no secret", () => {
    const from = dockerfile.filter((i) => i.op === "FROM");
    expect(from).toHaveLength(1);
    expect(from[0]!.args).toMatch(/^node:24[-.]/);
    const pinned = /V="\$\{PULUMI_VERSION:-([^}]+)\}"/.exec(readFileSync(join(REPO_ROOT, "scripts", "install-pulumi.sh"), "utf8"))?.[1];
    expect(pinned).toBe("3.259.0");
    expect(args.get("PULUMI_VERSION")).toBe(pinned);
    expect(args.get("FORGE_VERSION")).toBe(library.version);
    // @pulumi/pulumi installed beside the package is the same version as the CLI.
    expect(runCommands.some((words) => words[0] === "npm" && words.includes("@pulumi/pulumi@${PULUMI_VERSION}"))).toBe(true);
    expect(
      runCommands.some((words) => words.join(" ") === "test -x /opt/pulumi/pulumi-language-yaml"),
      "the YAML language host is checked",
    ).toBe(true);
    const users = dockerfile.filter((i) => i.op === "USER");
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
    for (const i of dockerfile.filter((j) => j.op === "ENV" || j.op === "ARG"))
      for (const name of i.args.match(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)(?==|\s|$)/g) ?? [])
        expect(name.trim(), `${i.op} ${i.args}`).not.toMatch(SECRET_NAME);
    expect(dockerfileText).not.toMatch(/^\s*(COPY|ADD)\b/m); // nothing of the build context is kept in the image
  });

  it("every command it RUNs exists: tools of the base image or of its apt-get line, npm's flags, pulumi's subcommands and flags, the package's bins and plugin launcher", () => {
    const bins = new Set(Object.keys(library.bin));
    for (const words of runCommands) {
      const where = `Dockerfile: ${words.join(" ")}`;
      const [tool] = words;
      if (tool === "pulumi") {
        if (!skipEngineTests()) checkPulumi(words, where);
      } else if (bins.has(tool!)) {
        checkBin(words, where);
      } else if (tool === "npm") {
        expect(words[1], where).toBe("install");
        const usage = execFileSync("npm", ["install", "--help"], {
          encoding: "utf8",
          shell: false,
          env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}` },
        });
        for (const flag of words.filter((word) => word.startsWith("--"))) expect(usage, `${where}: ${flag}`).toContain(flag.split("=")[0]);
      } else if (tool === "curl" || tool === "git") {
        expect(aptPackages, where).toContain(tool);
      } else {
        expect(BASE_TOOLS.has(tool!), `${where}: ${tool} is not a tool of the image`).toBe(true);
      }
    }
    // The CLIs linked onto PATH are bins of the package, through npm's .bin.
    for (const words of runCommands.filter((w) => w[0] === "ln")) {
      const target = words.at(-2)!;
      expect(target.startsWith("/opt/pulumi-forge/node_modules/.bin/"), words.join(" ")).toBe(true);
      expect(bins.has(posix.basename(target)), words.join(" ")).toBe(true);
    }
    // The plugin's launcher is a file the package ships, and the image's CMD is a bin of it.
    const launcher = /exec \/opt\/pulumi-forge\/node_modules\/pulumi-forge\/(\S+) /.exec(dockerfileText)?.[1];
    expect(library.files).toContain(launcher);
    const cmd = JSON.parse(dockerfile.find((i) => i.op === "CMD")!.args) as string[];
    expect(bins.has(cmd[0]!)).toBe(true);
  });
});
