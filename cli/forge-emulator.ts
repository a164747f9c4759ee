#!/usr/bin/env node
/**
 * `npx forge-emulator --port 8080 [--state <file>] [--tls-cert <file> --tls-key <file>]`: the
 * local forge emulator as a command. The logic lives in emulator/cli-main.ts (tested there).
 */
import { runCli } from "../emulator/cli-main";

runCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
