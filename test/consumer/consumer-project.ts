/**
 * A user's project, made outside the repository: `npm pack` of the repository, then a Pulumi
 * TypeScript project shaped like `pulumi new typescript` makes it (CommonJS, the template's
 * tsconfig, `typescript` and `@types/node` as dev dependencies, no ts-node: the language host
 * falls back to the one @pulumi/pulumi vendors) with the tarball installed. The optional peer
 * dependencies (`@pulumi/policy`, `pg`) are installed only when asked for, as a user adds them.
 *
 * Offline: npm needs registry metadata to resolve version ranges, and CI must not download
 * anything new, so the project gets a lock file made from the repository's own lock (the same
 * versions `npm ci` already put in the npm cache) and is installed with `npm ci --offline`. A
 * dependency the package declares that the repository's lock does not hold fails here, by name.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { PULUMI_ROOT, REPO_ROOT } from "../e2e/harness";

const execFileAsync = promisify(execFile);

/** Versions a user's template project pins; the repository's lock holds them. */
const TEMPLATE_DEV_DEPENDENCIES = ["typescript", "@types/node"];

/** The tsconfig.json of the `pulumi new typescript` template. */
const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

/** A platform's package of the plugin's executable (scripts/plugin-build.sh: dist/plugin/npm/pulumi-forge-<os>-<cpu>-<version>.tgz). */
export interface PlatformPackage {
  name: string;
  version: string;
  tarball: string;
  os: string[];
  cpu: string[];
}

/** The packed tarball: its path and the files it holds. */
export interface PackedPackage {
  tarball: string;
  files: string[];
  manifest: LockEntry & { name: string; version: string; bin?: Record<string, string>; exports?: Record<string, string> };
}

/** `npm pack` of the repository (scripts skipped: the suite's set-up has just built dist/). */
export async function packRepository(destination: string): Promise<PackedPackage> {
  const { stdout } = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", destination], REPO_ROOT);
  const [result] = JSON.parse(stdout) as { filename: string; integrity: string; files: { path: string }[] }[];
  if (!result) throw new Error(`npm pack printed no result:\n${stdout}`);
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as PackedPackage["manifest"];
  manifest.integrity = result.integrity;
  return { tarball: join(destination, result.filename), files: result.files.map((file) => file.path), manifest };
}

/**
 * A Pulumi TypeScript project in `dir` with the packed library installed offline, and `also`
 * (optional peers a user installs, such as `@pulumi/policy`) at the repository's versions.
 */
export async function createConsumerProject(
  dir: string,
  packed: PackedPackage,
  also: string[] = [],
  platformPackages: PlatformPackage[] = [],
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const repoLock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const versionOf = (name: string) => {
    const version = repoLock.packages[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${name} is not in the repository's package-lock.json`);
    return version;
  };
  const tarballSpec = `file:${packed.tarball}`;
  const dependencies = {
    "@pulumi/pulumi": `^${versionOf("@pulumi/pulumi")}`,
    ...Object.fromEntries(also.map((name) => [name, `^${versionOf(name)}`])),
    "pulumi-forge": tarballSpec,
  };
  const devDependencies = Object.fromEntries(TEMPLATE_DEV_DEPENDENCIES.map((name) => [name, `^${versionOf(name)}`]));
  const manifest = { name: "forge-consumer", main: "index.ts", dependencies, devDependencies };

  // The closure of what the project needs, at the paths the repository's install gave it.
  const packages: Record<string, LockEntry> = {
    "": { name: manifest.name, dependencies, devDependencies },
    "node_modules/pulumi-forge": {
      version: packed.manifest.version,
      resolved: tarballSpec,
      integrity: packed.manifest.integrity,
      license: packed.manifest.license,
      ...pick(packed.manifest, ["dependencies", "optionalDependencies", "peerDependencies", "peerDependenciesMeta", "bin", "engines"]),
    },
  };
  // The platform's executable, as npm installs pulumi-forge's optional dependency from the registry.
  for (const platform of platformPackages) {
    packages[`node_modules/${platform.name}`] = {
      version: platform.version,
      resolved: `file:${platform.tarball}`,
      // Another platform's package is skipped by its os and cpu, never read: only this one's tarball is built.
      ...(existsSync(platform.tarball)
        ? { integrity: `sha512-${createHash("sha512").update(readFileSync(platform.tarball)).digest("base64")}` }
        : {}),
      license: "Apache-2.0",
      os: platform.os,
      cpu: platform.cpu,
      optional: true,
    };
  }
  const pending: Needed[] = [
    ...["@pulumi/pulumi", ...also, ...TEMPLATE_DEV_DEPENDENCIES].map((name) => ({ from: "", name, optional: false })),
    ...neededBy("node_modules/pulumi-forge", packed.manifest),
  ];
  while (pending.length > 0) {
    const { from, name, optional } = pending.pop()!;
    const path = resolveInLock(repoLock.packages, from, name);
    if (path === undefined) {
      if (optional) continue; // another platform's build, say
      throw new Error(`${name} (needed by ${from || "the project"}) is not in the repository's package-lock.json, so not in the npm cache`);
    }
    if (packages[path]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = repoLock.packages[path]!;
    packages[path] = entry;
    pending.push(...neededBy(path, entry));
  }

  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(dir, "package-lock.json"),
    JSON.stringify({ name: manifest.name, lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TEMPLATE_TSCONFIG, null, 4));
  writeFileSync(join(dir, "Pulumi.yaml"), pulumiYaml("forge-consumer"));
  await npm(["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], dir);
}

/**
 * A TypeScript project's Pulumi.yaml, naming the installed package's plugin as the docs say (the
 * plugin face needs it; a program on the dynamic classes alone never starts it).
 */
function pulumiYaml(name: string): string {
  return [
    `name: ${name}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "plugins:",
    "  providers:",
    "    - name: forge",
    "      path: node_modules/pulumi-forge/plugin",
    "",
  ].join("\n");
}

/** Another program beside `project`, sharing its installed node_modules and its tsconfig.json (the template's). */
export function siblingProgram(project: string, dir: string, name: string, program: string): void {
  mkdirSync(dir, { recursive: true });
  for (const file of ["package.json", "tsconfig.json"]) writeFileSync(join(dir, file), readFileSync(join(project, file)));
  writeFileSync(join(dir, "Pulumi.yaml"), pulumiYaml(name));
  writeFileSync(join(dir, "index.ts"), program);
  symlinkSync(join(project, "node_modules"), join(dir, "node_modules"), "dir");
}

/** The environment the CLI runs programs in: a file backend, the forge's address, no downloads. */
export function consumerEnv(tmp: string, forge: { url: string; token: string }): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "forge-consumer-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: join(tmp, "pulumi-home"),
    PATH: [join(PULUMI_ROOT, "bin"), dirname(process.execPath), process.env["PATH"] ?? ""].join(":"),
    FORGE_BASE_URL: forge.url,
    FORGE_TOKEN: forge.token,
  };
}

/** A stack of the program in `workDir`, run by the real CLI (type-checked by ts-node, as for users). */
export async function consumerStack(workDir: string, stackName: string, envVars: Record<string, string>): Promise<Stack> {
  mkdirSync(envVars["PULUMI_HOME"]!, { recursive: true });
  mkdirSync(envVars["PULUMI_BACKEND_URL"]!.slice("file://".length), { recursive: true });
  const pulumiCommand = await PulumiCommand.get({ root: PULUMI_ROOT });
  return LocalWorkspace.createOrSelectStack({ stackName, workDir }, { envVars, pulumiHome: envVars["PULUMI_HOME"]!, pulumiCommand });
}

function npm(args: string[], cwd: string) {
  return execFileAsync("npm", args, {
    cwd,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}`, npm_config_update_notifier: "false" },
    maxBuffer: 16 * 1024 * 1024,
  });
}

interface Needed {
  from: string;
  name: string;
  optional: boolean;
}

/** What an install of the package at `from` brings: its dependencies, optional ones, and peers not marked optional. */
function neededBy(from: string, entry: LockEntry): Needed[] {
  const optionalPeers = new Set(
    Object.entries(entry.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta.optional)
      .map(([name]) => name),
  );
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ from, name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ from, name, optional: true })),
    ...Object.keys(entry.peerDependencies ?? {})
      .filter((name) => !optionalPeers.has(name))
      .map((name) => ({ from, name, optional: false })),
  ];
}

/** Node's lookup in lock paths: `<from>/node_modules/<name>`, then each enclosing node_modules. */
function resolveInLock(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut === -1 ? "" : base.slice(0, cut);
  }
}

function pick<T extends object>(value: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Partial<T>;
}
