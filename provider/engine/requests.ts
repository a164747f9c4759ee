/**
 * Wire bodies: which fields a request of a declaration carries, under which wire names and in
 * which wire form. One placement rule: path parameters come from the template, the rest is the
 * body (the client puts it in the query for GET and DELETE).
 */
import { parseRoute } from "../client";
import { elementChanges, wireChanges } from "./collections";
import type { AnyDeclaration, CallOptions, OperationContext, Request, Route, State, WireRecord } from "./declaration";
import { fileInputs, inputKeys, optionsOf, routeOf } from "./declaration";
import { fileUpload } from "./files";
import { fromWire, toSnake, toWire } from "./naming";
import { APPLIED_KEY } from "./bookkeeping";

/** The state fields a route's path needs, under their template names. */
export function pathParams(route: Route, state: State): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const field of parseRoute(route).parameters) params[field] = state[field];
  return params;
}

/** Sends a request of the declaration: its route, its accepted statuses, `body` as parameters. */
export function send<T>(
  ctx: OperationContext,
  request: Request,
  state: State,
  body: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<T> {
  const accept = optionsOf(request).accept;
  return ctx.call<T>(routeOf(request), state, body, accept ? { acceptStatuses: accept, ...options } : options);
}

/** The body of a write of `keys` (those set and not in the path), with the request's wire
 *  names, the inputs it always sends and its constant fields. */
export function writeBody(declaration: AnyDeclaration, request: Request, state: State, keys: string[]): Record<string, unknown> {
  const options = optionsOf(request);
  const inPath = new Set(parseRoute(routeOf(request)).parameters);
  const omitted = options.omit ?? [];
  const body: Record<string, unknown> = {};
  for (const key of new Set([...keys, ...(options.always ?? [])])) {
    if (inPath.has(key) || omitted.includes(key) || state[key] === undefined) continue;
    body[options.names?.[key] ?? toSnake(key)] = wireValue(declaration, key, state[key]);
  }
  return { ...body, ...options.body };
}

/** The create's body: every input the program sets, unless the route says otherwise. */
export function createBody(declaration: AnyDeclaration, desired: State): Record<string, unknown> {
  const options = optionsOf(declaration.create);
  const keys = options.sends === "none" ? [] : inputKeys(declaration);
  return writeBody(declaration, declaration.create, desired, keys);
}

/** The inputs an update request carries: the changed ones, or every input the program sets
 *  for a route that wants the whole object (`sends: "set"`). */
export function updateKeys(request: Request, state: State, changed: string[], all: string[]): string[] {
  const sends = optionsOf(request).sends ?? "changed";
  if (sends === "none") return [];
  if (sends === "changed") return changed;
  const applied = Array.isArray(state[APPLIED_KEY]) ? (state[APPLIED_KEY] as string[]) : all;
  return [...new Set([...applied, ...changed])];
}

/**
 * The update body: the inputs the route sends, nested collections as their element changes.
 * `live` reads the object when a nested-attributes collection changed (its elements' server ids).
 */
export async function updateBody(
  declaration: AnyDeclaration,
  request: Request,
  state: State,
  olds: State,
  changed: string[],
  live: () => Promise<WireRecord>,
): Promise<Record<string, unknown>> {
  const collections = declaration.collections ?? {};
  const keys = updateKeys(request, state, changed, inputKeys(declaration));
  const body = writeBody(
    declaration,
    request,
    state,
    keys.filter((key) => !collections[key]),
  );
  const nested = keys.filter((key) => collections[key] && changed.includes(key));
  const record = nested.some((key) => collections[key]?.style === "nested-attributes") ? await live() : undefined;
  const names = optionsOf(request).names ?? {};
  for (const key of nested) {
    const collection = collections[key]!;
    const current =
      collection.style === "nested-attributes" ? liveElements(record, toSnake(key)) : ((olds[key] as State[] | undefined) ?? []);
    const changes = elementChanges(collection, current, (state[key] as State[] | undefined) ?? []);
    body[names[key] ?? toSnake(key)] = wireChanges(collection, changes);
  }
  return body;
}

/** A field's value on the wire: file inputs as their content, declared formats applied, the
 *  rest in wire names. */
export function wireValue(declaration: AnyDeclaration, key: string, value: unknown): unknown {
  if (fileInputs(declaration).includes(key)) return fileUpload(value);
  const format = declaration.wireFormats?.[key];
  return format ? format.toWire(value) : toWire(value);
}

/** The elements of a nested list in the live record, with TypeScript names and nulls dropped. */
function liveElements(record: WireRecord | undefined, wireField: string): State[] {
  const list = record?.[wireField];
  if (!Array.isArray(list)) return [];
  return list.map((element) => Object.fromEntries(Object.entries(fromWire(element) as State).filter(([, value]) => value !== null)));
}
