/** A route as the router needs it: method, a template with `:params`, and what to call. */
interface RouteDefinition<Handler> {
  method: string;
  path: string;
  handler: Handler;
}

interface CompiledRoute<Handler> {
  method: string;
  segments: string[];
  literalCount: number;
  handler: Handler;
}

/** The result of a match: the handler and the decoded path parameters, by name. */
interface RouteMatch<Handler> {
  handler: Handler;
  params: Record<string, string>;
}

/**
 * Splits a raw path into segments, dropping empty ones: doubled and trailing slashes are
 * tolerated, as the service does. Segments stay URL-encoded so that `%2F` does not split.
 */
export function pathSegments(rawPath: string): string[] {
  return rawPath.split("/").filter((segment) => segment.length > 0);
}

/** Method + path template router. Literal segments win over `:params` when both match. */
export class Router<Handler> {
  private readonly routes: CompiledRoute<Handler>[] = [];

  add(definition: RouteDefinition<Handler>): void {
    const segments = pathSegments(definition.path);
    this.routes.push({
      method: definition.method,
      segments,
      literalCount: segments.filter((s) => !s.startsWith(":")).length,
      handler: definition.handler,
    });
  }

  addAll(definitions: readonly RouteDefinition<Handler>[]): void {
    for (const definition of definitions) this.add(definition);
  }

  /** Matches raw (still encoded) segments; undefined when no route serves them. */
  match(method: string, rawSegments: readonly string[]): RouteMatch<Handler> | undefined {
    let best: { route: CompiledRoute<Handler>; params: Record<string, string> } | undefined;
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== rawSegments.length) continue;
      const params = matchSegments(route.segments, rawSegments);
      if (params && (!best || route.literalCount > best.route.literalCount)) best = { route, params };
    }
    return best && { handler: best.route.handler, params: best.params };
  }
}

function matchSegments(template: string[], raw: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const expected = template[i]!;
    const actual = raw[i]!;
    if (expected.startsWith(":")) {
      const decoded = safeDecode(actual);
      if (decoded === undefined) return undefined;
      params[expected.slice(1)] = decoded;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
