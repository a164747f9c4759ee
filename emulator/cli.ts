import { runCli } from "./cli-main";

// `npm run emulator -- --port 8080 [--state <file>]`; the logic lives in cli-main.ts (tested).
runCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
