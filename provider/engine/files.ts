/**
 * File inputs (a group's avatar): the program names a local file; the state keeps the path and
 * the SHA-256 of its content, so an unchanged file is no diff wherever it is read from, and a
 * changed file is an update even under the same path.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { File } from "node:buffer";
import type { AnyDeclaration, State } from "./declaration";
import { fileInputs, fileMaxBytes } from "./declaration";
import { isUnknown } from "./unknowns";
import { digestKey } from "./bookkeeping";

/** The content of a file input, or a reason it cannot be read. */
function readInput(path: string): Buffer {
  return readFileSync(resolve(path));
}

/** The SHA-256 of a file's content, `sha256:<hex>`. */
export function fileDigest(content: Buffer): string {
  return `sha256:${createHash("sha256").update(content).digest("hex")}`;
}

/**
 * Adds the digest of every file input to the inputs (check's result), or a failure naming the
 * field when the file cannot be read. A blank value (the API's way to remove a file) has none.
 */
export function withFileDigests(
  declaration: AnyDeclaration,
  news: State,
): { inputs: State; failures: { property: string; reason: string }[] } {
  const inputs = { ...news };
  const failures: { property: string; reason: string }[] = [];
  for (const field of fileInputs(declaration)) {
    const path = news[field];
    delete inputs[digestKey(field)];
    if (typeof path !== "string" || path === "" || isUnknown(path)) continue;
    let content: Buffer;
    try {
      content = readInput(path);
    } catch (error) {
      failures.push({ property: field, reason: `cannot read the file ${path}: ${(error as Error).message}` });
      continue;
    }
    const limit = fileMaxBytes(declaration, field);
    if (limit !== undefined && content.length > limit) {
      failures.push({
        property: field,
        reason: `the file ${path} is ${kibibytes(content.length)}; the forge takes at most ${kibibytes(limit)}. Use a smaller file.`,
      });
      continue;
    }
    inputs[digestKey(field)] = fileDigest(content);
  }
  return { inputs, failures };
}

function kibibytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes)`;
}

/** The value a file input is sent as: the file's content with its name (multipart). */
export function fileUpload(path: unknown): unknown {
  if (typeof path !== "string" || path === "") return path;
  return new File([readInput(path)], basename(path));
}

/** The digest a file input stands for: the one check recorded, else its content's now; none when blank or unreadable. */
export function desiredDigest(field: string, state: State): string | undefined {
  const recorded = state[digestKey(field)];
  if (typeof recorded === "string") return recorded;
  const path = state[field];
  if (typeof path !== "string" || path === "" || isUnknown(path)) return undefined;
  try {
    return fileDigest(readInput(path));
  } catch {
    return undefined;
  }
}

/**
 * The desired state with the digest of each file input it writes (create and update run without
 * check in some callers), and none for a blank one: the forge then has no file.
 */
export function withDesiredDigests(declaration: AnyDeclaration, desired: State): State {
  const state = { ...desired };
  for (const field of fileInputs(declaration)) {
    if (state[field] === undefined) continue;
    const digest = desiredDigest(field, state);
    if (digest === undefined) delete state[digestKey(field)];
    else state[digestKey(field)] = digest;
  }
  return state;
}
