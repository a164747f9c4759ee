/**
 * A forge filled out of band for the forge-adopt tests: every resource the generator adopts,
 * made from the contract suite's fixture rows through the engine in this process (no Pulumi,
 * no stack), a few hand-made objects the rows lack (an agent with mutual TLS, a feature gate
 * for named actors), and hundreds of labels so that every listing crosses pages.
 */
import type { State } from "../../provider/engine/declaration";
import { ResourceOperations } from "../../provider/engine/operations";
import { adoptEntries } from "../../provider/adopt/entries";
import type { DeclarationKey } from "../../provider/resources";
import { declarationByName, declarations } from "../../provider/resources";
import { unprovenWriteOnlyChanges } from "../../provider/engine/imports";
import { toCamel } from "../../provider/engine/naming";
import { integrationKindOf } from "../../provider/resources/group-integrations";
import { fixtures } from "../contract/fixtures";
import { sampleValue } from "../contract/integration-fixtures";
import type { World } from "../contract/world";
import { execFile } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { runAdoptCli } from "../../cli/adopt";

/** Client certificate and key of the mutual-TLS URL configuration (not real key material). */
export const CLIENT_CERT = "-----BEGIN CERTIFICATE-----\nMIIBadopt\n-----END CERTIFICATE-----";
export const CLIENT_KEY = "-----BEGIN PRIVATE KEY-----\nMIIEadopt\n-----END PRIVATE KEY-----";
/** The instance cluster's token, as the cluster fixture row sets it. */
export const CLUSTER_TOKEN = "cluster-token";

/** The value of each secret the generated program reads, by the input path it stands for. */
export const SECRET_VALUES: Record<string, string> = {
  clientKey: CLIENT_KEY,
  clientCert: CLIENT_CERT,
  "platformVendorAttributes.token": CLUSTER_TOKEN,
};

/**
 * The value to give the secret a program reads for `path` of a resource of type `type`: the
 * fixture's own value (an integration's credential as its contract row set it).
 */
export function secretValue(type: string, path: string): string | undefined {
  const kind = integrationKindOf(type);
  const wire = kind && Object.keys(kind.parameters).find((name) => toCamel(name) === path);
  if (kind && wire) return String(sampleValue(kind.slug, wire, kind.parameters[wire]!, 1));
  return SECRET_VALUES[path];
}

/**
 * The resources of a generated program (TypeScript or YAML) that read a write-only input from the
 * stack config, of kinds updated in place: an import cannot compare that value, so the first run
 * after the import shows each of them as an update, which writes it (provider/engine/imports.ts).
 */
export function pendingWriteOnly(program: string): string[] {
  const read = [...program.matchAll(/pulumi config set --secret \S+ <value> +# (\S+) (\S+): \S+ \(write-only/g)];
  return [...new Set(read.filter(([, type]) => unprovenWriteOnlyChanges(declarationByName(type!))).map(([, , name]) => name!))].sort();
}

/** The resources a `pulumi preview --json` would change, by operation: `{ update: [names] }` (unchanged ones left out). */
export function previewChanges(json: string): Record<string, string[]> {
  const steps = (JSON.parse(json) as { steps?: { op: string; urn: string }[] }).steps ?? [];
  const changes: Record<string, string[]> = {};
  for (const { op, urn } of steps)
    if (op !== "same" && !urn.includes("::pulumi:")) (changes[op] ??= []).push(urn.slice(urn.lastIndexOf("::") + 2));
  for (const names of Object.values(changes)) names.sort();
  return changes;
}

/** How many extra labels `fillForge` makes in `acme` (more than a page of 100, three times). */
export const EXTRA_LABELS = 300;

/**
 * Extra labels for the round trips through the real engine (test/e2e/adopt*.test.ts): past the
 * first page of 100, so the adopted listing crosses a page; each label more is one more of the
 * same resource through the engine (pages are forge-adopt's in-process test's and the client's).
 */
export const ENGINE_EXTRA_LABELS = 110;

/** Fills the forge, with `extraLabels` labels beyond the rows; returns the declaration names it made objects of. */
export async function fillForge(world: World, extraLabels = EXTRA_LABELS): Promise<string[]> {
  const made: string[] = [];
  const create = async (key: string, inputs: State) => {
    const declaration = fixtures.find((fixture) => fixture.declaration.name === key)?.declaration;
    if (!declaration) throw new Error(`no fixture for ${key}`);
    await new ResourceOperations(declaration, () => world.api).create(inputs);
  };
  for (const fixture of fixtures) {
    const key = (Object.keys(declarations) as DeclarationKey[]).find((name) => declarations[name] === fixture.declaration);
    const entry = key && adoptEntries[key];
    if (!entry || "exempt" in entry) continue;
    await create(fixture.declaration.name, await fixture.inputs(world));
    made.push(fixture.declaration.name);
  }
  // Mutual TLS: a certificate the forge shows and a key it never returns.
  const agent = await world.api.request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/api", name: "edge" });
  await create("ClusterAgentUrlConfiguration", {
    project: "acme/api",
    agentId: agent.body.id,
    url: "grpcs://edge.example.com:443",
    clientCert: CLIENT_CERT,
    clientKey: CLIENT_KEY,
  });
  await create("ClusterAgentToken", { project: "acme/api", agentId: agent.body.id, name: "edge", description: "Edge cluster" });
  // Actor gates, which the forge lists by internal id (User:4).
  await create("Feature", { name: "merge_request_dashboard", users: ["dev"], projects: ["acme/web"] });
  await create("Feature", {
    name: "ci_pipeline_fast_start",
    percentageOfActors: 25,
    groups: ["acme/platform"],
    featureGroups: ["beta_testers"],
  });
  // Entries naming a subgroup and a user: the program says which in comments.
  await create("GroupProtectedEnvironment", {
    group: "acme",
    name: "production",
    deployAccessLevels: [{ accessLevel: 40 }, { groupId: world.groupId("acme/platform") }],
    approvalRules: [{ userId: world.user("olivia").id, requiredApprovals: 2 }],
  });
  // A gate without a definition on the forge, set with force.
  await create("Feature", { name: "adopted_experiment", percentageOfActors: 10, force: true });
  await create("GroupLabel", {
    group: "acme/platform",
    name: "team::platform",
    color: "#336699",
    description: "Owned by the platform team",
  });
  for (let index = 1; index <= extraLabels; index++) {
    const name = `area::${String(index).padStart(3, "0")}`;
    await world.api.request("POST", "/groups/:group/labels", {
      group: "acme",
      name,
      color: `#${(index * 4001).toString(16).padStart(6, "0").slice(-6)}`,
    });
  }
  return made;
}

/** What one forge-adopt run printed, and its exit status. */
export interface AdoptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs forge-adopt in process against a forge (the root token), with extra environment. */
export async function runAdopt(forgeUrl: string, args: string[], env: Record<string, string | undefined> = {}): Promise<AdoptRun> {
  let stdout = "";
  let stderr = "";
  const code = await runAdoptCli(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: { FORGE_BASE_URL: forgeUrl, FORGE_TOKEN: "forge-root-token", ...env },
  });
  return { code, stdout, stderr };
}

/** Type-checks written programs as a user's project would (strict, the package from node_modules), several in one run of tsc; `stdout` holds tsc's findings. */
export async function typeCheckProgram(tmp: string, program: string | string[]): Promise<{ code: number; stdout: string }> {
  const root = join(__dirname, "..", "..");
  const dir = mkdtempSync(join(tmp, "program-"));
  // Each program a module of its own (each imports), so that their declarations do not meet.
  const files = [program].flat().map((text, index) => {
    writeFileSync(join(dir, `index${index || ""}.ts`), text);
    return `index${index || ""}.ts`;
  });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const args = [
    tsc,
    "--noEmit",
    "--strict",
    "--esModuleInterop",
    "--skipLibCheck",
    "--target",
    "es2022",
    "--module",
    "commonjs",
    "--moduleResolution",
    "node",
    ...files,
  ];
  return promisify(execFile)(process.execPath, args, { cwd: dir }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}
