/**
 * The one grammar of a route: `"<METHOD> <path template>"`, where a `:name` segment of the
 * template is a parameter. The client fills templates with it, the engine reads a declaration's
 * routes with it, and the lookups place their arguments with it.
 */

import { HTTP_METHODS, type HttpMethod } from "../../api";

export { HTTP_METHODS, type HttpMethod };

/** `"<METHOD> <path template>"`, e.g. `"PUT /groups/:group/labels/:labelId"`. */
export type Route = `${HttpMethod} /${string}`;

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

const parsed = new Map<string, ParsedRoute>();

/** Takes a route apart (once per route string). */
export function parseRoute(route: Route): ParsedRoute {
  let result = parsed.get(route);
  if (!result) {
    const space = route.indexOf(" ");
    const method = route.slice(0, space) as HttpMethod;
    if (space < 0 || !HTTP_METHODS.includes(method)) throw new Error(`not a route: "${route}" (expected "<METHOD> /path")`);
    const path = route.slice(space + 1);
    result = { method, path, parameters: templateParameters(path) };
    parsed.set(route, result);
  }
  return result;
}

/** The parameter names of a path template, in order. */
export function templateParameters(template: string): string[] {
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
