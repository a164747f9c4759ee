/**
 * Typed errors of the emulated service. Each carries the HTTP status and the exact JSON body
 * the real service answers with (see api-semantics.md, "Error bodies"), so the HTTP layer only
 * has to write them out.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === "object" && body !== null ? JSON.stringify(body) : String(body));
    this.name = "ApiError";
  }
}

/** 404 from a "find or fail" helper: `404 Group Not Found`, `404 Label Not Found`, ... */
export function thingNotFound(thing: string): ApiError {
  return new ApiError(404, { message: `404 ${thing} Not Found` });
}

/** 404 from a plain record lookup by id (lower-case "found", as the service writes it). */
export function recordNotFound(): ApiError {
  return new ApiError(404, { message: "404 Not found" });
}

/** 404 for a path no route serves (note the `error` key). */
export function routeNotFound(): ApiError {
  return new ApiError(404, { error: "404 Not Found" });
}

/** 401 for missing or unknown credentials. */
export function unauthorized(): ApiError {
  return new ApiError(401, { message: "401 Unauthorized" });
}

/** 403, optionally with a reason (`403 Forbidden - <reason>`). */
export function forbidden(reason?: string): ApiError {
  return new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : "403 Forbidden" });
}

/** 400 from parameter validation: `{"error": "name is missing, color is missing"}`. */
export function parameterError(messages: string | string[]): ApiError {
  return new ApiError(400, { error: Array.isArray(messages) ? messages.join(", ") : messages });
}

/** 400 from model validation: `{"message": {"color": ["must be a valid color code"]}}`. */
export function modelValidationError(field: string, ...messages: string[]): ApiError {
  return new ApiError(400, { message: { [field]: messages } });
}

/** 400 with a free-text reason: `{"message": "400 Bad request - <reason>"}`. */
export function badRequest(reason: string): ApiError {
  return new ApiError(400, { message: `400 Bad request - ${reason}` });
}

/** 409 with the reason as the message. */
export function conflict(reason: string): ApiError {
  return new ApiError(409, { message: reason });
}

/** 422 with the model's full error messages as an array. */
export function unprocessable(messages: string[]): ApiError {
  return new ApiError(422, { message: messages });
}

/**
 * A project was addressed by a path it had before it moved. The HTTP layer answers it (301 with
 * `Location` for GET, 405 otherwise), because only it knows the method and the URL.
 */
export class ProjectMoved extends ApiError {
  constructor(
    /** The old full path, as the request gave it. */
    readonly from: string,
    /** The project's full path now. */
    readonly to: string,
  ) {
    super(301, { message: "301 Moved Permanently" });
    this.name = "ProjectMoved";
  }
}
