import { z } from "zod";
import { parameterError } from "./errors";

/*
 * Request parameter validation with the service's own wording: `name is missing`,
 * `enabled is invalid`, `theme does not have a valid value`. Values may arrive as JSON types or
 * as strings (query and form encoding), so scalar helpers accept both.
 */

const missingOrInvalid = (issue: { input?: unknown }): string => (issue.input === undefined ? "is missing" : "is invalid");

/** A string; numbers are taken as their decimal text, as form encoding would send them. */
export const paramString = () =>
  z.preprocess((value) => (typeof value === "number" ? String(value) : value), z.string({ error: missingOrInvalid }));

/** An integer given as a JSON number or as a decimal string. */
export const paramInteger = () =>
  z.preprocess(
    (value) => (typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value),
    z.number({ error: missingOrInvalid }).int({ error: "is invalid" }),
  );

/**
 * A boolean: JSON `true`/`false`, or the words `true`/`false` (query strings and form bodies carry
 * text). The API's rule "null versus false": the service treats `null` as false, so a null argument
 * is false, not "not given". Only true or false are to be sent: the service's framework would
 * also take `1`, `yes`, `on`, `t`, ..., but the emulator answers `<name> is invalid` to them, so
 * that a client tested against it keeps to what the spec lets it send.
 */
export const paramBoolean = () =>
  z.preprocess(
    (value) => {
      if (value === null) return false;
      if (typeof value !== "string") return value;
      const word = value.trim().toLowerCase();
      return word === "true" ? true : word === "false" ? false : value;
    },
    z.boolean({ error: missingOrInvalid }),
  );

/** One value of a fixed list. */
export const paramEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) => (issue.input === undefined ? "is missing" : "does not have a valid value"),
  });

/** One integer of a fixed list. */
export const paramIntegerOf = (allowed: readonly number[]) =>
  paramInteger().refine((n) => allowed.includes(n), { error: "does not have a valid value" });

/**
 * An array of integers from a fixed list. A bad element fails the whole parameter, as the
 * service reports it (`target_access_levels does not have a valid value`).
 */
export const paramIntegerArrayOf = (allowed: readonly number[]) =>
  z.preprocess(
    (value) => (Array.isArray(value) ? value.map((v) => (typeof v === "string" ? Number(v) : v)) : value),
    z
      .array(z.unknown(), { error: missingOrInvalid })
      .refine((list) => list.every((n) => typeof n === "number" && allowed.includes(n)), {
        error: "does not have a valid value",
      })
      .transform((list) => list as number[]),
  );

/** An ISO 8601 datetime; normalised to UTC with milliseconds. */
export const paramDatetime = () =>
  paramString()
    .refine((text) => !Number.isNaN(Date.parse(text)), { error: "is invalid" })
    .transform((text) => new Date(Date.parse(text)).toISOString());

/** Wire name of a nested parameter: `deploy_access_levels[0][user_id]`. */
export function paramName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return (head ?? "") + rest.map((part) => `[${part}]`).join("");
}

/**
 * Drops `null` values a field does not accept: the service takes a null optional parameter as
 * not given (clients send `null` for unset fields), while fields that accept null keep it (a
 * boolean accepts it, as false).
 */
export function withoutUnacceptedNulls(schema: z.ZodType, params: unknown): unknown {
  if (!(schema instanceof z.ZodObject) || typeof params !== "object" || params === null || Array.isArray(params)) {
    return params;
  }
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(params).filter(([key, value]) => value !== null || shape[key]?.safeParse(null).success === true),
  );
}

/** Parses `params` or throws the 400 `{"error": "..."}` the service answers with. */
export function validate<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const result = schema.safeParse(withoutUnacceptedNulls(schema, params));
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => {
    const name = paramName(issue.path);
    return name ? `${name} ${issue.message}` : issue.message;
  });
  throw parameterError([...new Set(messages)]);
}

/** `a, b are missing, at least one parameter must be provided` unless one of `names` is present. */
export function requireAtLeastOne(params: Record<string, unknown>, names: readonly string[]): void {
  if (names.some((name) => params[name] !== undefined)) return;
  throw parameterError(`${names.join(", ")} are missing, at least one parameter must be provided`);
}

/** `a, b provide all or none of parameters` when only some of `names` are present. */
export function requireAllOrNone(params: Record<string, unknown>, names: readonly string[]): void {
  const present = names.filter((name) => params[name] !== undefined).length;
  if (present === 0 || present === names.length) return;
  throw parameterError(`${names.join(", ")} provide all or none of parameters`);
}

/** An integer path parameter (`:agent_id`, `:token_id`, ...): anything else is `<name> is invalid`. */
export function integerPathParam(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw parameterError(`${name} is invalid`);
  return Number(value);
}
