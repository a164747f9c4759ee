#!/usr/bin/env node
/**
 * `npx forge-recover [--stack <name>] [--dry-run]`: after a killed run, resolves the stack's
 * pending creates under the ownership rule. Logic: cli/recover.ts.
 */
import "../provider/compile-cache";
import { runRecoverCli } from "./recover";

runRecoverCli(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error(`forge-recover: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
