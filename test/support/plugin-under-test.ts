/**
 * Which build of the provider plugin the engine layers start. By default the single executable of
 * this machine's platform (scripts/plugin-build.sh: `npm run plugin:build`; scripts/setup.sh builds
 * it for the host), as Python, Go, C# and YAML users install it; `FORGE_TEST_PLUGIN=node` runs the
 * same tests on the Node launcher (plugin/pulumi-resource-forge) instead. The Node launcher keeps
 * its own smaller set whatever this says (test/e2e/plugin.test.ts, the consumer layer, the
 * contract's plugin-server.test.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./pulumi-paths";

/** The repository's Node launcher directory: what `plugins.providers` names in a checkout or an npm install. */
export const NODE_PLUGIN_DIR = join(REPO_ROOT, "plugin");

/** Pulumi's name of this machine's platform (`linux-amd64`), as the executables and archives are named. */
export const HOST_PLATFORM = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;

/** Where scripts/plugin-build.sh puts the host's executable (a directory holding `pulumi-resource-forge` alone). */
export const EXECUTABLE_DIR = join(REPO_ROOT, "dist", "plugin", HOST_PLATFORM);

/** The executable itself. */
export const EXECUTABLE = join(EXECUTABLE_DIR, process.platform === "win32" ? "pulumi-resource-forge.exe" : "pulumi-resource-forge");

/** `node` when FORGE_TEST_PLUGIN=node, else `executable`. */
export const PLUGIN_BUILD: "executable" | "node" = process.env["FORGE_TEST_PLUGIN"] === "node" ? "node" : "executable";

/** The directory the engine layers' programs name in `plugins.providers`. */
export const PLUGIN_DIR_UNDER_TEST = PLUGIN_BUILD === "node" ? NODE_PLUGIN_DIR : EXECUTABLE_DIR;

/** Throws, saying how to build it, when the plugin under test is the executable and it is not built. */
export function assertPluginBuilt(): void {
  if (PLUGIN_BUILD === "executable" && !existsSync(EXECUTABLE)) {
    throw new Error(
      `the plugin's executable is not built (${EXECUTABLE}): run \`. scripts/setup.sh\` or \`npm run plugin:build\`, or set FORGE_TEST_PLUGIN=node`,
    );
  }
}
