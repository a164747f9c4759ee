#!/usr/bin/env node
/**
 * `pulumi-resource-forge` on Node: the library's declarations served as a Pulumi provider plugin,
 * for programs in any language. The engine starts it (found through `plugins.providers` in
 * Pulumi.yaml, or installed) and speaks the provider protocol (start.ts). The same plugin as one
 * executable, without Node: scripts/plugin-build.sh.
 */
import "./node-version";
import { keepCompiled } from "../compile-cache";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startPlugin } from "./start";

const PACKAGE_ROOT = join(__dirname, "..", "..", "..");
const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };

startPlugin(
  {
    version,
    schema: readFileSync(join(PACKAGE_ROOT, "provider", "plugin", "schema.json"), "utf8"),
    schemaSource: "provider/plugin/schema.json in the package",
    loaded: keepCompiled,
  },
  process.argv.slice(2),
);
keepCompiled();
