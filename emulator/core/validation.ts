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

/*
 * Parameters nobody declared. The service's framework drops a parameter its endpoint does not
 * declare and answers as if it had not been sent; the emulator does the same (zod objects strip
 * unknown keys) and tells the request log which ones it dropped. While a request is handled (the
 * handlers are synchronous), every `validate` of its input notes the names its schema declares
 * and the nested names it dropped; what is left of the input afterwards was ignored.
 */
interface ParameterAudit {
  input: Record<string, unknown>;
  declared: Set<string>;
  droppedNested: Set<string>;
}

let audit: ParameterAudit | undefined;

/**
 * Runs `handle` over a request's `input` and returns, beside its outcome, the parameters no
 * schema declared (wire names: `required_approval_count`, `deploy_access_levels[0][group_inheritance_type]`),
 * less those `known` says are read elsewhere (names the HTTP layer reads itself, path parameters).
 */
export function auditParameters<T>(
  input: Record<string, unknown>,
  known: (name: string) => boolean,
  handle: () => T,
): { outcome: { value: T } | { error: unknown }; ignored: string[] } {
  const previous = audit;
  const current: ParameterAudit = { input, declared: new Set(), droppedNested: new Set() };
  audit = current;
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: handle() };
  } catch (error) {
    outcome = { error };
  } finally {
    audit = previous;
  }
  const topLevel = Object.keys(input).filter((name) => !current.declared.has(name) && !known(name));
  return { outcome, ignored: [...topLevel, ...current.droppedNested] };
}

/** Counts parameters as declared for the request being handled: a name taken under another (the service's wire name of a spec's name). */
export function declareParameters(names: Iterable<string>): void {
  for (const name of names) audit?.declared.add(name);
}

/** One wrapper less (optional, nullable, default, a preprocess or a transform); undefined when none. */
function unwrapped(schema: z.ZodType): z.ZodType | undefined {
  const def: Record<string, unknown> = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def["innerType"] instanceof z.ZodType) return def["innerType"];
  if (def["type"] !== "pipe") return undefined;
  const side = def["in"] instanceof z.ZodTransform ? def["out"] : def["in"];
  return side instanceof z.ZodType ? side : undefined;
}

/** The first schema of `kind` inside wrappers. */
function inside<T extends z.ZodType>(schema: z.ZodType, kind: abstract new (...args: never[]) => T): T | undefined {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; depth < 8 && current; depth += 1) {
    if (current instanceof kind) return current;
    current = unwrapped(current);
  }
  return undefined;
}

const objectSchemaOf = (schema: z.ZodType) => inside(schema, z.ZodObject);
const arrayElementOf = (schema: z.ZodType) => inside(schema, z.ZodArray)?.element as z.ZodType | undefined;

/** Notes, for the request being handled, the names `schema` declares and the nested ones it drops. */
function noteParameters(schema: z.ZodType, params: unknown): void {
  if (!audit || typeof params !== "object" || params === null || Array.isArray(params)) return;
  const object = objectSchemaOf(schema);
  if (!object) return;
  const input = audit.input;
  // The request's own parameters (or a copy of some of them, renamed ones aside): its declared names count.
  const entries = Object.entries(params);
  const ofRequest =
    entries.some(([name, value]) => input[name] === value) && entries.every(([name, value]) => !(name in input) || input[name] === value);
  const shape = object.shape as Record<string, z.ZodType>;
  if (ofRequest) for (const name of Object.keys(shape)) audit.declared.add(name);
  for (const [name, value] of Object.entries(params)) {
    if (shape[name]) noteNested(shape[name], value, name, audit.droppedNested, 0);
  }
}

function noteNested(schema: z.ZodType, value: unknown, name: string, dropped: Set<string>, depth: number): void {
  if (depth > 4 || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    const element = arrayElementOf(schema);
    if (element) value.forEach((item, index) => noteNested(element, item, `${name}[${index}]`, dropped, depth + 1));
    return;
  }
  const object = objectSchemaOf(schema);
  if (!object) return;
  const shape = object.shape as Record<string, z.ZodType>;
  for (const [key, inner] of Object.entries(value)) {
    if (shape[key]) noteNested(shape[key], inner, `${name}[${key}]`, dropped, depth + 1);
    else dropped.add(`${name}[${key}]`);
  }
}

/** Parses `params` or throws the 400 `{"error": "..."}` the service answers with. */
export function validate<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  noteParameters(schema, params);
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
