#!/usr/bin/env node
/**
 * `npx forge-drift [--stack <name>] [--format text|markdown|json]`: refreshes the stack without
 * writing it and prints what drifted; exit 0 no drift, 2 drift, 1 error. Logic: cli/drift-cli.ts, cli/drift.ts, cli/fleet.ts.
 */
import "../provider/compile-cache";
import { runDriftCli } from "./drift-cli";

runDriftCli(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
    // A fleet stack that ran past --timeout may leave reads waiting on a forge that holds its
    // answers: the report is out, so they end with the run (once what was written is flushed).
    process.stdout.write("", () => process.stderr.write("", () => process.exit(status)));
  },
  (error: unknown) => {
    console.error(`forge-drift: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
