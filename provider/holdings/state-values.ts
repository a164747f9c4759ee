/** The values of an exported state: secrets as the state stores them, decoded for comparisons (never for printing). */
import { rememberSecrets } from "../redaction";
import { SIG_KEY } from "../secret-marks";

/** True for a secret as the state stores it, or anything holding one. */
export function holdsSecret(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (SIG_KEY in value) return true;
  return Object.values(value).some(holdsSecret);
}

/**
 * A value of a state exported with `--show-secrets` (the Automation API's `exportStack`) with its
 * secrets (`{ [SIG_KEY]: SECRET_SIG, plaintext }`, provider/secret-marks.ts) decoded: for
 * comparisons in this process, never for printing. Each secret decoded is remembered
 * (provider/redaction.ts): every output of the CLI masks it.
 */
export function plainState(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainState);
  if (typeof value !== "object" || value === null) return value;
  if (SIG_KEY in value) {
    const text = (value as { plaintext?: unknown }).plaintext;
    if (typeof text !== "string") return value;
    let decoded: unknown = text;
    try {
      decoded = plainState(JSON.parse(text));
    } catch {
      // a plain string
    }
    rememberSecrets([decoded]);
    return decoded;
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainState(inner)]));
}
