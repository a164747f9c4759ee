/**
 * A stack's state as `pulumi stack export` writes it, read by the tools that look at many stacks:
 * one CLI call per stack, nothing locked, nothing written. With `showSecrets`, the state's
 * secrets come decrypted: they stay in this process's memory, and each one read is remembered by
 * the one mask (provider/redaction.ts), so no output of the tool shows it (cli/state.ts).
 */
import { execFile } from "node:child_process";
import type { ExportedDeployment } from "../provider/holdings/holdings";
import { maskUrls } from "../provider/redaction";

/** Which stack, where, and how long its export may take. */
export interface ExportRequest {
  stack: string;
  /** The project's directory, where the CLI runs. */
  workDir: string;
  /** The CLI's environment (backend, passphrase); default this process's. */
  env?: NodeJS.ProcessEnv;
  /** With the secrets decrypted (`--show-secrets`): the CLI needs the stack's secrets provider. */
  showSecrets?: boolean;
  /** Ends the export (SIGKILL) when it fires. */
  signal?: AbortSignal;
}

/** The stack's deployment. Throws with the CLI's own lines, a backend URL's password masked. */
export async function exportDeployment(request: ExportRequest): Promise<ExportedDeployment> {
  const args = ["stack", "export", "--stack", request.stack, "--non-interactive", ...(request.showSecrets ? ["--show-secrets"] : [])];
  const text = await new Promise<string>((resolve, reject) => {
    execFile(
      "pulumi",
      args,
      {
        cwd: request.workDir,
        env: request.env ?? process.env,
        maxBuffer: 512 * 1024 * 1024,
        killSignal: "SIGKILL",
        ...(request.signal ? { signal: request.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if (request.signal?.aborted) return reject(new Error("the state's export was ended"));
        const lines = stderr.split("\n").filter((line) => line.trim() !== "");
        reject(new Error(maskUrls(`pulumi ${args.join(" ")} failed: ${lines.slice(0, 8).join("\n") || error.message}`)));
      },
    );
  });
  return ((JSON.parse(text) as { deployment?: ExportedDeployment }).deployment ?? {}) as ExportedDeployment;
}
