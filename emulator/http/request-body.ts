import type { IncomingMessage } from "node:http";
import { badRequest } from "../core/errors";
import { buildParams, parseUrlEncoded } from "./bracket-params";
import { parseMultipart } from "./multipart";
import { bodyTooLarge, checkParams, MAX_BODY_BYTES, utf8Text } from "./param-limits";

const EMPTY = Buffer.alloc(0);

/**
 * Reads the whole request body. A request that declares none (most reads) is answered without
 * waiting for the stream; the rest is read with plain events, which cost far less per request
 * than an async iterator (bench/emulator-throughput.ts). A body over `limit` (declared or
 * counted) rejects with a 413 ApiError; the caller answers it and closes the connection.
 */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = request.headers["content-length"];
  if (declared === undefined && request.headers["transfer-encoding"] === undefined) {
    request.resume();
    return Promise.resolve(EMPTY);
  }
  if (declared !== undefined && Number(declared) > limit) {
    request.pause();
    return Promise.reject(bodyTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off("data", onData);
        request.pause();
        chunks.length = 0;
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once("error", reject);
  });
}

/**
 * Parses a body by its content type: JSON (also `{}` and empty bodies on GET/DELETE), form
 * encoding with bracket notation, or multipart. Without a content type a body that looks like
 * JSON is read as JSON, anything else as a form.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "multipart/form-data") return buildParams(parseMultipart(raw, contentType ?? ""));
  const text = utf8Text(raw);
  if (text.trim() === "") return {};
  const looksJson = type === "application/json" || type.endsWith("+json") || (type === "" && /^\s*[{[]/.test(text));
  if (looksJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest("The request body is not valid JSON");
    }
    checkParams(parsed);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  }
  return parseUrlEncoded(text);
}
