/**
 * The plugin's start, shared by its two builds: the Node bin (main.ts, which reads its version and
 * schema from the package's files) and the single executable (scripts/plugin-build.sh bundles this
 * module with the version and schema written in). `--help` prints the usage; otherwise it serves
 * (serve.ts), the provider (loaded.ts: the plugin face over the composition root's operations)
 * loaded at the first request that needs it.
 */
import { servePlugin, type PluginIdentity, type PluginRuntime } from "./serve";

/** What runs the plugin: the package's Node bin or the executable. */
export interface PluginBuild extends PluginIdentity {
  /** Where its schema is, for `--help`. */
  schemaSource: string;
  /** Called after the provider loaded (main.ts writes Node's compile cache). */
  loaded?: () => void;
}

function usage(build: PluginBuild): string {
  return `Usage: pulumi-resource-forge <engine address> (version ${build.version})
The forge provider plugin: the Pulumi engine starts it, people do not. Programs find it installed
(pulumi plugin install resource forge ${build.version} --file <archive>) or through Pulumi.yaml:
  plugins:
    providers:
      - name: forge
        path: <a directory holding pulumi-resource-forge>
Configuration: forge:baseUrl, forge:token (secret), and the connection settings of docs/installation-configuration.md
(forge:caBundle, forge:httpsProxy, ...), with the same FORGE_* environment fallbacks.
Its schema: ${build.schemaSource}.`;
}

/** Prints the usage for `--help`, or serves the plugin to the engine at the address in `args`. */
export function startPlugin(build: PluginBuild, args: string[]): void {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage(build));
    process.exit(0);
  }
  const runtime = () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require("./loaded") as PluginRuntime;
    build.loaded?.();
    return loaded;
  };
  void servePlugin({ version: build.version, schema: build.schema }, runtime, args);
}
