import { afterAll, beforeAll, beforeEach } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";

/** Tokens of the fixed seed. */
export const TOKEN = {
  root: "forge-root-token",
  olivia: "forge-olivia-token",
  max: "forge-max-token",
  dev: "forge-dev-token",
  rita: "forge-rita-token",
  gus: "forge-gus-token",
  nomad: "forge-nomad-token",
} as const;

export type SeedUser = keyof typeof TOKEN;

/** A decoded answer: status, headers, and the body as JSON (or text when it is not JSON). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface CallOptions {
  as?: SeedUser;
  /** JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** Form body, sent as application/x-www-form-urlencoded exactly as given. */
  form?: string;
  headers?: Record<string, string>;
}

/** Calls the API (`path` relative to /api/v4, may carry a query) over real HTTP. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers["PRIVATE-TOKEN"] = TOKEN[options.as];
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = options.form;
  }
  const url = path.startsWith("http") ? path : `${base}/api/v4${path}`;
  const response = await fetch(url, { method, headers, body });
  return decode(response);
}

export async function decode(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Plain text bodies (429) stay text.
  }
  return { status: response.status, headers: response.headers, text, body };
}

/**
 * Starts one emulator for the file and resets it to the seed before each test. Returns an
 * accessor because the emulator exists only once `beforeAll` has run.
 */
export function useEmulator(): {
  emulator(): RunningEmulator;
  api(method: string, path: string, options?: CallOptions): Promise<Answer>;
  admin(method: string, path: string, json?: unknown): Promise<Answer>;
} {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await running?.close();
  });
  const emulator = () => {
    if (!running) throw new Error("emulator not started");
    return running;
  };
  // Admin endpoints take the administrator's token: RunningEmulator.admin sends it.
  const admin = async (method: string, path: string, json?: unknown) => decode(await emulator().admin(path, { method, json }));
  beforeEach(async () => {
    await admin("POST", "/reset");
  });
  return { emulator, api: (method, path, options) => call(emulator().url, method, path, options), admin };
}
