import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { StateData } from "../core/state";
import { type EmulatorState, parseState } from "../registry";

/** Loads a persisted state, or undefined when the file does not exist. */
export function loadStateFile(path: string): EmulatorState | undefined {
  if (!existsSync(path)) return undefined;
  return parseState(readFileSync(path, "utf8"));
}

/**
 * Writes the state atomically: a temporary file in the same directory (same file system), then
 * a rename over the target, so a crash never leaves a half-written state behind.
 */
export function saveStateFile(path: string, state: StateData): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(state, null, 2));
  renameSync(temporary, path);
}
