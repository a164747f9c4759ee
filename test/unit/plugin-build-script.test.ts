/**
 * scripts/plugin-build.sh when a step fails: it stops with a non-zero status before the next step,
 * and leaves nothing half-written behind, neither in TMPDIR nor in $OUT/<platform> (the folder
 * tests name in plugins.providers, which must hold the executable alone). The steps that would
 * fetch or run Bun are stood in for by small scripts: a failing `npm` first on PATH, and a Bun in
 * the cache (HOME is the test's own) that writes a file of no platform.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/pulumi-paths";

const SCRIPT = join(REPO_ROOT, "scripts", "plugin-build.sh");
/** A Bun version no cache holds: the script fetches it. */
const BUN_VERSION = "0.0.0-plugin-build-test";
/** The platform built: one the script cross-builds from any host. */
const PLATFORM = "linux-amd64";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "forge-plugin-build-test-"));
  for (const dir of ["home", "tmp", "bin", "out"]) mkdirSync(join(root, dir));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function build(args: string[]) {
  const run = spawnSync("bash", [SCRIPT, "--out", join(root, "out"), ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      HOME: join(root, "home"),
      TMPDIR: join(root, "tmp"),
      BUN_VERSION,
      PATH: [join(root, "bin"), dirname(process.execPath), process.env["PATH"] ?? ""].join(delimiter),
    },
  });
  return { status: run.status, stderr: run.stderr, out: readdirSync(join(root, "out")), tmp: readdirSync(join(root, "tmp")) };
}

/** A script at a path, executable. */
function script(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** A Bun of the cache, for a platform's package, that writes the first bytes of no executable as its output. */
function cachedBun(pkg: string) {
  script(
    join(root, "home", ".cache", "forge-pulumi", `bun-${BUN_VERSION}`, pkg, "bin", "bun"),
    '#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in --outfile) printf "not an executable" >"$2"; shift ;; esac; shift; done\n',
  );
}

/** The host's Bun package (bun_package of the script), on Linux and macOS. */
const HOST_BUN_PACKAGE = `bun-${process.platform}-${process.arch === "arm64" ? "aarch64" : "x64"}`;

describe.skipIf(process.platform === "win32" || !existsSync(join(REPO_ROOT, "dist", "provider", "plugin", "start.js")))(
  "scripts/plugin-build.sh, when a step fails",
  () => {
    it("stops before building when Bun cannot be fetched, and leaves no download behind", () => {
      script(join(root, "bin", "npm"), "#!/bin/sh\necho 'npm: no registry here' >&2\nexit 1\n");
      const run = build(["--host"]);
      expect(run.stderr).toContain(`fetching @oven/${HOST_BUN_PACKAGE}@${BUN_VERSION}`);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`error: could not fetch @oven/${HOST_BUN_PACKAGE}@${BUN_VERSION}`);
      // No step after the failed one ran: neither tar nor the build (which would name the missing Bun).
      expect(run.stderr).not.toMatch(/tar|No such file/);
      expect(run.out).toEqual([]);
      expect(run.tmp).toEqual([]);
    });

    it("leaves no half-built executable in the platform's folder when the built file is not one", () => {
      cachedBun(HOST_BUN_PACKAGE);
      cachedBun("bun-linux-x64");
      const run = build([PLATFORM]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("not an executable, not linux-amd64");
      expect(readdirSync(join(root, "out", PLATFORM))).toEqual([]);
      expect(run.out.filter((name) => name.endsWith(".tmp"))).toEqual([]);
      expect(run.tmp).toEqual([]);
    });
  },
);

describe.skipIf(process.platform === "win32")("scripts/plugin-build.sh --help", () => {
  it("prints the whole header comment, to its last line", () => {
    const run = spawnSync("bash", [SCRIPT, "--help"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^`npm run plugin:build`/);
    expect(run.stdout).toContain("--host: the executable of this machine's platform alone");
    expect(run.stdout).toContain("--out: another directory than dist/plugin");
    expect(run.stdout).toMatch(/cached under ~\/\.cache\/forge-pulumi\/bun-<version>\/<package>\.\n$/);
  });
});
