#!/usr/bin/env node
/**
 * `npx forge-emulator --port 8080 [--state <file>] [--tls-cert <file> --tls-key <file>]`: the
 * local forge emulator as a command. The logic lives in emulator/cli-main.ts (tested there).
 */
import "../provider/compile-cache";
import { runCli, USAGE } from "../emulator/cli-main";

const argv = process.argv.slice(2);
// The first thing people type: the usage, exit 0, nothing started.
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(USAGE);
} else {
  runCli(argv).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
