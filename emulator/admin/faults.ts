import { z } from "zod";
import { parameterError } from "../core/errors";
import { paramBoolean, paramInteger, paramString, validate } from "../core/validation";

/** A fault as posted to `POST /__emulator/faults`. */
const faultSpecSchema = z.object({
  method: paramString().optional(),
  /** Regex source, matched against the path after /api/v4. */
  path: paramString(),
  status: paramInteger().optional(),
  body: z.unknown().optional(),
  retryAfter: paramInteger().optional(),
  latencyMs: paramInteger().optional(),
  /** Destroy the socket without answering. */
  drop: paramBoolean().optional(),
  /** How many matching requests the fault affects; unlimited when omitted. */
  times: paramInteger().optional(),
  /** Handle the request first, then lose its answer (a gateway timing out after the work was done). */
  after: paramBoolean().optional(),
});

/** A validated fault. */
export type FaultSpec = z.output<typeof faultSpecSchema>;

interface ActiveFault {
  id: number;
  spec: FaultSpec;
  pattern: RegExp;
  remaining: number;
}

/** Injected faults, first match wins; each firing counts against `times`. */
export class FaultInjector {
  private faults: ActiveFault[] = [];
  private lastId = 0;

  /** Validates and registers a fault; 400 for a missing path or an invalid regex. */
  add(params: unknown): { id: number } {
    const spec = validate(faultSpecSchema, params);
    let pattern: RegExp;
    try {
      pattern = new RegExp(spec.path);
    } catch {
      throw parameterError("path is invalid");
    }
    this.lastId += 1;
    this.faults.push({ id: this.lastId, spec, pattern, remaining: spec.times ?? Infinity });
    return { id: this.lastId };
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault that fires for this request, if any (its remaining count is decremented). */
  take(method: string, apiPath: string): FaultSpec | undefined {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.spec.method === undefined || f.spec.method.toUpperCase() === method) &&
        f.pattern.test(apiPath),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault.spec;
  }
}
