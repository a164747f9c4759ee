import type { AddressInfo } from "node:net";
import type { Edition, Offering, Tier } from "../api/editions";
import { FaultInjector } from "./admin/faults";
import { RequestLog } from "./admin/request-log";
import { ADMIN_PREFIX } from "./admin/admin-routes";
import { seedInfo, seedState, seedToken, type SeedInfo } from "./admin/seed";
import { StateFile, StateWriteError } from "./admin/state-file";
import type { EmulatorContext } from "./context";
import { createEmulatorServer } from "./http/server";
import { RateLimiter, type RateLimitSettings } from "./http/rate-limit";
import { createStore, type EmulatorState, type Store } from "./registry";

export type { SeedInfo } from "./admin/seed";
export { seedToken } from "./admin/seed";

/** Where and how to start the emulator. */
export interface EmulatorOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /**
   * State file. When it exists the state is loaded from it (a file of another shape refuses the
   * start); after every mutating request the state is written back atomically, readable by its
   * owner only (0600). A lock file beside it (`<file>.lock`, removed on close) keeps a second
   * emulator off the file. A write that fails answers 500 and leaves the state as the file has
   * it. Without it the state lives in memory only.
   */
  statePath?: string;
  /** Licence tier of the instance; default `ultimate`. Given, it overrides a loaded state's. */
  tier?: Tier;
  /** Offering the instance emulates; default `self-managed`. Given, it overrides a loaded state's. */
  offering?: Offering;
  /** How long a repository storage move takes, in ms (default 1000). Given, it overrides a loaded state's. */
  storageMoveMs?: number;
  /**
   * The release `GET /version` reports (default `17.11.0`; `-ee` is added on a paid tier), for a
   * client that checks it. Nothing else changes: the endpoints are the spec's whatever it says.
   * Given, it overrides a loaded state's.
   */
  version?: string;
  /** A budget of API requests per window for each caller: 429 past it, RateLimit-* headers on every answer. Off by default. */
  rateLimit?: RateLimitSettings;
  /** How many API requests the request log keeps (a ring buffer); default 10 000. */
  requestLogSize?: number;
  /** Serve HTTPS with this PEM certificate (chain) and key; the URL is then `https://...`. */
  tls?: { cert: string; key: string };
}

/** A listening emulator. */
export interface RunningEmulator {
  /** Base URL without /api/v4, e.g. `http://127.0.0.1:41234` (`https://` with `tls`). */
  url: string;
  /** The seeded users (with tokens), groups and projects; same JSON as `GET /__emulator/seed`. */
  seed: SeedInfo;
  /** The edition it runs (tier and offering); `PUT /__emulator/settings` changes it. */
  edition(): Edition;
  /**
   * Calls an admin endpoint: `fetch` of `<url>/__emulator<path>` with the administrator's token
   * (the admin endpoints refuse callers without it), e.g. `admin("/faults", {method: "DELETE"})`.
   * A `json` body is sent as JSON.
   */
  admin(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /**
   * Stops listening and drops open connections for `ms` (clients get "connection refused", as
   * from a forge restarting), then listens again on the same port; resolves once it does.
   */
  refuseConnections(ms: number): Promise<void>;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Starts the emulated forge API (and its `/__emulator` admin endpoints). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = "127.0.0.1", statePath } = options;
  const opened = statePath ? StateFile.open(statePath) : undefined;
  try {
    return await listen(options, port, host, opened?.file, opened?.state);
  } catch (error) {
    opened?.file.release();
    throw error;
  }
}

async function listen(
  options: EmulatorOptions,
  port: number,
  host: string,
  stateFile: StateFile | undefined,
  loaded: EmulatorState | undefined,
): Promise<RunningEmulator> {
  const store = createStore(loaded ?? seedState());
  const startSettings = {
    ...(options.tier !== undefined ? { tier: options.tier } : {}),
    ...(options.offering !== undefined ? { offering: options.offering } : {}),
    ...(options.storageMoveMs !== undefined ? { storage_move_ms: options.storageMoveMs } : {}),
    ...(options.version !== undefined ? { version: options.version } : {}),
  };
  Object.assign(store.state.settings, startSettings);
  const context: EmulatorContext = {
    store,
    startSettings,
    log: new RequestLog(options.requestLogSize),
    faults: new FaultInjector(),
    rateLimit: new RateLimiter(options.rateLimit),
    persist: stateFile ? () => persist(stateFile, store) : () => {},
  };
  try {
    stateFile?.save(store);
  } catch (error) {
    throw error instanceof StateWriteError ? new Error(error.reason) : error;
  }

  const server = createEmulatorServer(context, options.tls);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `${options.tls ? "https" : "http"}://${urlHost}:${address.port}`;
  store.baseUrl = url;

  return {
    url,
    seed: seedInfo(store),
    edition: () => store.editions.current(),
    admin(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set("PRIVATE-TOKEN", administratorToken(store));
      if (json !== undefined) headers.set("content-type", "application/json");
      return fetch(`${url}${ADMIN_PREFIX}${path.startsWith("/") ? path : `/${path}`}`, {
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    },
    async refuseConnections(ms) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await new Promise((resolve) => setTimeout(resolve, ms));
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(address.port, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          stateFile?.release();
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** Writes the state after a change; a failed write is logged and thrown (the change is undone). */
function persist(stateFile: StateFile, store: Store): void {
  try {
    stateFile.save(store);
  } catch (error) {
    if (error instanceof StateWriteError) console.error(`emulator: ${error.reason}; the change was not applied`);
    throw error;
  }
}

/** The token the admin endpoints take: the first active administrator's (root's in the seed). */
function administratorToken(store: Store): string {
  return store.users.all().find((user) => user.admin && user.state === "active")?.token ?? seedToken("root");
}
