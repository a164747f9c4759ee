/**
 * The plugin's first module: on a Node older than the package supports, it says so and exits,
 * before anything that needs a newer Node loads (the compile cache, the undici it ships with).
 * Kept to syntax that any Node in use parses. The launcher once asked `node --version` first: a
 * second process at every start, 6 to 10 ms of each of an operation's plugin starts.
 */

/** The oldest Node the plugin runs on: package.json's `engines`. */
const OLDEST = { major: 22, minor: 19 };

/** Whether a Node version (`process.versions.node`: "24.21.0") is one the plugin runs on. */
export function supportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > OLDEST.major || (major === OLDEST.major && minor >= OLDEST.minor);
}

if (!supportedNode(process.versions.node)) {
  process.stderr.write(
    `pulumi-resource-forge: needs Node >= ${OLDEST.major}.${OLDEST.minor} (found: v${process.versions.node} at ${process.execPath}); ` +
      "put one first on PATH or set FORGE_PLUGIN_NODE to its path\n",
  );
  process.exit(1);
}
