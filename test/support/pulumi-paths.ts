/** Where the repository and the Pulumi CLI are, for tests and benches alike (no test framework here). */
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";

/**
 * The CLI and YAML language host versions, as scripts/setup.sh installs them: the same environment
 * variables and defaults as scripts/install-pulumi.sh and scripts/install-pulumi-yaml.sh (3.259.0
 * is the oldest CLI supported; `PULUMI_VERSION=3.274.1` runs the engine layers on the newest tested).
 */
export const PULUMI_VERSION = (process.env["PULUMI_VERSION"] || "3.259.0").replace(/^v/, "");
const PULUMI_YAML_VERSION = (process.env["PULUMI_YAML_VERSION"] || "1.25.0").replace(/^v/, "");
/**
 * The Pulumi SDK release, whatever CLI runs: the `@pulumi/pulumi` of package.json, and the pkg/v3
 * whose code generators make the Python and Go SDKs (scripts/go-tool.sh), so the SDK test installs
 * the Python and Go SDKs of this release (PyPI and npm lag the Go module proxy: no 3.274.1 there).
 */
export const PULUMI_SDK_VERSION = "3.259.0";
/**
 * Where the CLI is: the directory of links that scripts/install-pulumi-yaml.sh makes for the pair of
 * versions (the CLI of ~/.pulumi/versions/<version> with the YAML host beside it), the one
 * scripts/setup.sh puts on PATH; FORGE_E2E_PULUMI_ROOT overrides it.
 */
export const PULUMI_ROOT =
  process.env["FORGE_E2E_PULUMI_ROOT"] || join(homedir(), ".cache", "forge-pulumi", `pulumi-${PULUMI_VERSION}-yaml-${PULUMI_YAML_VERSION}`);
/** The checkout: two levels up from the sources (vitest), three from the compiled copy in dist/ (benches). */
export const REPO_ROOT =
  basename(resolve(__dirname, "..", "..")) === "dist" ? resolve(__dirname, "..", "..", "..") : resolve(__dirname, "..", "..");
