import { z } from "zod";
import { parameterError } from "../core/errors";
import { paramBoolean, paramInteger, paramString, validate } from "../core/validation";
import { compilePathPattern, type PathPattern, PatternError } from "./path-pattern";

/** A fault as posted to `POST /__emulator/faults`. */
const faultSpecSchema = z.object({
  method: paramString().optional(),
  /**
   * Regex source, matched against the path after /api/v4 in linear time (path-pattern.ts):
   * back-references and lookaround are refused.
   */
  path: paramString(),
  /**
   * Query parameters the request must carry, each with exactly this value (`{ "page": "2" }`
   * holds the second page of a listing and no other).
   */
  query: z.record(z.string(), z.coerce.string()).optional(),
  status: paramInteger().optional(),
  body: z.unknown().optional(),
  retryAfter: paramInteger().optional(),
  /** Delay before the request is handled; clearing the faults ends every delay still running. */
  latencyMs: paramInteger().optional(),
  /** Destroy the socket without answering. */
  drop: paramBoolean().optional(),
  /** How many matching requests the fault affects; unlimited when omitted. */
  times: paramInteger().optional(),
  /** Handle the request first, then lose its answer (a gateway timing out after the work was done). */
  after: paramBoolean().optional(),
  /** Chance (0 to 1) that a matching request is hit; every matching request when omitted. */
  probability: z.coerce.number().min(0, { error: "must be between 0 and 1" }).max(1, { error: "must be between 0 and 1" }).optional(),
  /** Seed of the fault's own random sequence (with `probability`): the same seed hits the same requests. */
  seed: paramInteger().optional(),
});

/** A validated fault. */
export type FaultSpec = z.output<typeof faultSpecSchema>;

/** A fault as it fires for one request: its spec and its id (the id releases what it holds). */
export type FiredFault = FaultSpec & { id: number };

interface ActiveFault {
  id: number;
  spec: FaultSpec;
  pattern: PathPattern;
  remaining: number;
  /** The fault's random sequence, when it has a probability. */
  random?: () => number;
}

/** mulberry32: a small seeded generator, so that a run with faults can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Injected faults, first match wins; each firing counts against `times`. A fault with a
 * `probability` that does not fire for a request lets the next matching fault try: several faults
 * on the same paths make a mix (four at 5.4% each hit about 20% of requests).
 */
export class FaultInjector {
  private faults: ActiveFault[] = [];
  private lastId = 0;
  /** Delays still running, by the fault that holds them, ended early by clear() so a test can hold a request and then let it go. */
  private delays = new Map<() => void, number>();

  /** Validates and registers a fault; 400 for a missing path or a pattern it does not take, with the reason. */
  add(params: unknown): { id: number } {
    const spec = validate(faultSpecSchema, params);
    let pattern: PathPattern;
    try {
      pattern = compilePathPattern(spec.path);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      throw parameterError(`path is invalid: ${error.message}`);
    }
    this.lastId += 1;
    const random = spec.probability === undefined ? undefined : seeded(spec.seed ?? this.lastId);
    this.faults.push({ id: this.lastId, spec, pattern, remaining: spec.times ?? Infinity, ...(random ? { random } : {}) });
    return { id: this.lastId };
  }

  clear(): void {
    this.faults = [];
    for (const end of [...this.delays.keys()]) end();
  }

  /** Removes one fault and lets the requests it holds go on (`DELETE /__emulator/faults/<id>`); the others stay. */
  release(id: number): void {
    this.faults = this.faults.filter((fault) => fault.id !== id);
    for (const [end, holder] of [...this.delays]) if (holder === id) end();
  }

  /** The faults still active and how many requests their latency holds now (`GET /__emulator/faults`): a test waits for its request to be held. */
  current(): { faults: { id: number; spec: FaultSpec; remaining: number | null }[]; held: number } {
    return {
      faults: this.faults.map((fault) => ({
        id: fault.id,
        spec: fault.spec,
        remaining: Number.isFinite(fault.remaining) ? fault.remaining : null,
      })),
      held: this.delays.size,
    };
  }

  /** Waits a fault's latency, or less if the fault is released or the faults are cleared meanwhile. */
  delay(fault: FiredFault): Promise<void> {
    return new Promise((done) => {
      const end = () => {
        clearTimeout(timer);
        this.delays.delete(end);
        done();
      };
      const timer = setTimeout(end, fault.latencyMs ?? 0);
      this.delays.set(end, fault.id);
    });
  }

  /** The fault that fires for this request, if any (its remaining count is decremented). */
  take(method: string, apiPath: string, query: Record<string, unknown> = {}): FiredFault | undefined {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.spec.method === undefined || f.spec.method.toUpperCase() === method) &&
        f.pattern.test(apiPath) &&
        Object.entries(f.spec.query ?? {}).every(([name, value]) => String(query[name]) === value) &&
        (!f.random || f.random() < (f.spec.probability ?? 1)),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault.spec, id: fault.id };
  }
}
