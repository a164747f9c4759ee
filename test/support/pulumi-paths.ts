/** Where the repository and the pinned Pulumi CLI are, for tests and benches alike (no test framework here). */
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";

export const PULUMI_VERSION = "3.259.0";
/** Where the CLI is installed (scripts/install-pulumi.sh); FORGE_E2E_PULUMI_ROOT overrides it. */
export const PULUMI_ROOT = process.env["FORGE_E2E_PULUMI_ROOT"] ?? join(homedir(), ".pulumi", "versions", PULUMI_VERSION);
/** The checkout: two levels up from the sources (vitest), three from the compiled copy in dist/ (benches). */
export const REPO_ROOT = basename(resolve(__dirname, "..", "..")) === "dist" ? resolve(__dirname, "..", "..", "..") : resolve(__dirname, "..", "..");
