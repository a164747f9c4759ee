/**
 * The grammar of a route: an endpoint of the route table (api/routes.ts: a method and a path
 * template, where a `:name` segment is a parameter). The client fills templates with it, the
 * engine reads a declaration's routes with it, and the lookups place their arguments with it.
 */

import type { HttpMethod } from "../../api";
import type { Endpoint, PathParams } from "../../api/routes";

export type { HttpMethod, Endpoint };

/** The parameters a request of `E` takes: its path parameters (required, by their template
 *  names) and any others (query or body, in wire names). */
export type RouteParams<E extends Endpoint> = { [Name in keyof PathParams<E["path"]>]: unknown } & Record<string, unknown>;

/** A `:name` parameter of a path template (letters, digits, `_`; not starting with a digit). */
const PARAMETER = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** A route taken apart. */
export interface ParsedRoute {
  method: HttpMethod;
  /** The path template, e.g. `/groups/:group/labels`. */
  path: string;
  /** The names of the template's parameters, in order. */
  parameters: readonly string[];
}

const parsed = new WeakMap<Endpoint, ParsedRoute>();

/** An endpoint taken apart (once per endpoint). */
export function parseRoute(route: Endpoint): ParsedRoute {
  let result = parsed.get(route);
  if (!result) {
    result = { method: route.method, path: route.path, parameters: templateParameters(route.path) };
    parsed.set(route, result);
  }
  return result;
}

/** The parameter names of a path template, in order. */
function templateParameters(template: string): string[] {
  return [...template.matchAll(PARAMETER)].map((match) => match[1] as string);
}

/** Replaces each `:name` of a template with what `fill` gives for it. */
export function fillTemplate(template: string, fill: (name: string) => string): string {
  return template.replace(PARAMETER, (_match, name: string) => fill(name));
}

/** True for an object literal or a parsed JSON object (not an array, Buffer, Date, Blob...). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
