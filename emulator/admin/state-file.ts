import { closeSync, existsSync, fchmodSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ApiError } from "../core/errors";
import type { StateData } from "../core/state";
import { type EmulatorState, parseState } from "../registry";

/*
 * The `--state` file holds every token and key of the emulated instance: it is written for its
 * owner only (0600), one emulator at a time (a lock file beside it), and all or nothing (a
 * temporary file renamed over it; a failed write puts the memory back as the file has it).
 */

/** What a state file writes to and restores: the store's live state. */
interface StateHolder {
  readonly state: StateData;
  replaceState(state: StateData): void;
}

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** A write of the state file failed: a 500 whose message names the file and the reason. */
export class StateWriteError extends ApiError {
  constructor(readonly reason: string) {
    super(500, { message: `500 Internal Server Error - ${reason}; the change was not applied` });
    this.name = "StateWriteError";
  }
}

/** Whether a process with this id runs (EPERM: it runs under another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** An open state file: locked for this process until {@link StateFile.release}. */
export class StateFile {
  private readonly lockPath: string;
  /** The text last written (or read): what a failed write restores. */
  private saved: string | undefined;
  private locked = false;
  private readonly releaseOnExit = () => this.release();

  /**
   * Locks the file and reads it: the state it holds, or undefined when it does not exist yet.
   * Throws an error naming the file when another emulator holds it or it cannot be read as a
   * state (not JSON, another format, a collection that is not a list); nothing is written then.
   */
  static open(path: string): { file: StateFile; state: EmulatorState | undefined } {
    const file = new StateFile(path);
    file.lock();
    try {
      return { file, state: file.load() };
    } catch (error) {
      file.release();
      throw error;
    }
  }

  private constructor(readonly path: string) {
    this.lockPath = `${path}.lock`;
  }

  /**
   * Writes the state: a temporary file (0600) in the same directory, then a rename over the
   * target, so a crash never leaves a half-written state behind. When the write fails the
   * holder's state goes back to what the file holds and a {@link StateWriteError} is thrown:
   * the request that made the change is answered with it and its change is gone.
   */
  save(holder: StateHolder): void {
    const text = JSON.stringify(holder.state, null, 2);
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    try {
      const fd = openSync(temporary, "w", 0o600);
      try {
        fchmodSync(fd, 0o600); // a leftover temporary file keeps its old mode otherwise
        writeFileSync(fd, text);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
    } catch (error) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Nothing more to undo.
      }
      if (this.saved !== undefined) holder.replaceState(parseState(this.saved));
      throw new StateWriteError(`could not write the state file ${this.path}: ${errorCode(error)}`);
    }
    this.saved = text;
  }

  /** Removes the lock (on close, and at exit); the file stays. */
  release(): void {
    if (!this.locked) return;
    this.locked = false;
    process.off("exit", this.releaseOnExit);
    try {
      if (readFileSync(this.lockPath, "utf8").trim() === String(process.pid)) rmSync(this.lockPath, { force: true });
    } catch {
      // Already gone.
    }
  }

  /**
   * Takes the lock file beside the state: created exclusively with this process's id. A lock
   * whose process is gone (killed, crashed) is taken over; a live one refuses the start.
   */
  private lock(): void {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const fd = openSync(this.lockPath, "wx", 0o600);
        try {
          writeFileSync(fd, `${process.pid}\n`);
        } finally {
          closeSync(fd);
        }
        this.locked = true;
        process.on("exit", this.releaseOnExit);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
          throw new Error(`state file ${this.path}: cannot create its lock file ${this.lockPath}: ${errorCode(error)}`);
        }
      }
      let holder = Number.NaN;
      try {
        holder = Number.parseInt(readFileSync(this.lockPath, "utf8"), 10);
      } catch {
        continue; // removed in the meantime: try again
      }
      if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
        throw new Error(
          `state file ${this.path} is in use by another emulator (pid ${holder}); stop it, or remove ${this.lockPath} if no emulator uses the file`,
        );
      }
      rmSync(this.lockPath, { force: true }); // stale: its process is gone
    }
    throw new Error(`state file ${this.path}: could not take its lock file ${this.lockPath}`);
  }

  private load(): EmulatorState | undefined {
    if (!existsSync(this.path)) return undefined;
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      throw new Error(`state file ${this.path}: cannot read it: ${errorCode(error)}`);
    }
    let state: EmulatorState;
    try {
      state = parseState(text);
    } catch (error) {
      throw new Error(`state file ${this.path}: ${error instanceof Error ? error.message : String(error)}; it was left as it is`);
    }
    this.saved = text;
    return state;
  }
}
