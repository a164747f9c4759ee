import type { InstanceSettings } from "./core/settings";
import type { FaultInjector } from "./admin/faults";
import type { RequestLog } from "./admin/request-log";
import type { RateLimiter } from "./http/rate-limit";
import type { Store } from "./registry";

/** Everything a running emulator shares between its HTTP layer and its admin endpoints. */
export interface EmulatorContext {
  store: Store;
  log: RequestLog;
  faults: FaultInjector;
  /** The budget of requests per window (off unless configured). */
  rateLimit: RateLimiter;
  /** The settings given at start (tier, offering): a reset keeps them. */
  startSettings: Partial<InstanceSettings>;
  /** Saves the state when a state file is configured; a no-op otherwise. */
  persist(): void;
}
