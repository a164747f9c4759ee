#!/usr/bin/env node
/**
 * `npx forge-adopt --group <path> | --project <path> | --instance | --from-terraform <state> [--out <file>] [--list]`:
 * writes the Pulumi program that declares what the forge holds (or what a Terraform state of the
 * GitLab provider manages), every resource with the `import` option. Exit 0 done, 1 error, 2
 * wrong usage. Logic: cli/adopt.ts.
 */
import "../provider/compile-cache";
import { runAdoptCli } from "./adopt";

runAdoptCli(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error(`forge-adopt: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
