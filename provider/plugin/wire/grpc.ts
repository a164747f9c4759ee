/**
 * Unary gRPC calls served on `node:http2`: what the provider protocol needs of gRPC (the engine's
 * calls are all unary) without grpc-js, whose channel and call machinery cost the plugin about a
 * third of its time per call in a large preview, and a tenth of its start (docs/performance.md).
 *
 * gRPC over HTTP/2, as its protocol document says it: a `POST` to `/<service>/<method>`, one
 * message framed by a byte (compressed or not) and its length in four bytes, answered with the
 * same frame and the status in trailers (`grpc-status`, a percent-encoded `grpc-message`, and
 * optionally `grpc-status-details-bin`: a `google.rpc.Status`'s bytes in base64). A failure before
 * any answer is "trailers only": the status in the response's headers.
 */
import {
  connect,
  createServer,
  type ClientHttp2Session,
  type Http2Session,
  type OutgoingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";

/** The gRPC status codes this server answers with. */
export const GrpcStatus = { OK: 0, UNKNOWN: 2, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

/** A failed call, with its status code and, optionally, a `google.rpc.Status`'s bytes for the details header. */
export class CallFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details?: Uint8Array,
  ) {
    super(message);
  }
}

/** A method: the request message's bytes to the response's. A thrown {@link CallFailure} answers
 *  its status; any other error answers UNKNOWN with its message (as grpc-js did). */
export type UnaryHandler = (request: Buffer) => Uint8Array | Promise<Uint8Array>;

/** A listening server. */
export interface UnaryServer {
  port: number;
  /** No new calls; `done` once the calls in flight are answered and the connections closed. */
  shutdown(done: () => void): void;
}

/** The largest request accepted: the SDK's server took 400 MB. */
const MAX_REQUEST_BYTES = 400 * 1024 * 1024;
const FRAME_PREFIX = 5;

/** `grpc-message`'s encoding: bytes outside printable ASCII, and `%`, as `%XX` of their UTF-8. */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function answer(stream: ServerHttp2Stream, message: Uint8Array): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
  stream.end(framed(message));
}

function fail(stream: ServerHttp2Stream, error: unknown): void {
  if (stream.destroyed || stream.closed || stream.headersSent) return;
  const failure =
    error instanceof CallFailure ? error : new CallFailure(GrpcStatus.UNKNOWN, error instanceof Error ? error.message : String(error));
  const headers: OutgoingHttpHeaders = {
    ":status": 200,
    "content-type": "application/grpc",
    "grpc-status": String(failure.code),
    "grpc-message": percentEncode(failure.message),
  };
  if (failure.details) headers["grpc-status-details-bin"] = Buffer.from(failure.details).toString("base64");
  stream.respond(headers, { endStream: true });
}

/** `grpc-message` as text; one not encoded as the protocol says stays as it came. */
function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A message in gRPC's frame: a byte saying it is not compressed, its length, the message. */
function framed(message: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(FRAME_PREFIX + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, FRAME_PREFIX);
  return frame;
}

/** The one message of a unary request's body. */
function unframe(body: Buffer): Buffer {
  if (body.length < FRAME_PREFIX) throw new CallFailure(GrpcStatus.INTERNAL, "a request without its message");
  if (body[0] !== 0) throw new CallFailure(GrpcStatus.UNIMPLEMENTED, "compressed requests are not accepted");
  const length = body.readUInt32BE(1);
  if (length !== body.length - FRAME_PREFIX) throw new CallFailure(GrpcStatus.INTERNAL, "a unary request holds one message");
  return body.subarray(FRAME_PREFIX);
}

/** Serves `handlers` (by method name) as `service` on a free port of loopback. */
export function serveUnary(service: string, handlers: Readonly<Record<string, UnaryHandler | undefined>>): Promise<UnaryServer> {
  const server = createServer();
  const sessions = new Set<Http2Session>();
  const prefix = `/${service}/`;

  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  // A connection or a call the client dropped has no one left to answer.
  server.on("sessionError", () => {});
  server.on("stream", (stream, headers) => {
    stream.on("error", () => {});
    const path = String(headers[":path"] ?? "");
    const handler = path.startsWith(prefix) ? handlers[path.slice(prefix.length)] : undefined;
    if (!handler || headers[":method"] !== "POST") {
      stream.resume();
      fail(stream, new CallFailure(GrpcStatus.UNIMPLEMENTED, `The server does not implement the method ${path}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES + FRAME_PREFIX) chunks.push(chunk);
    });
    stream.on("end", () => {
      if (size > MAX_REQUEST_BYTES + FRAME_PREFIX) {
        fail(stream, new CallFailure(GrpcStatus.RESOURCE_EXHAUSTED, `a request of ${size} bytes: over ${MAX_REQUEST_BYTES}`));
        return;
      }
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      Promise.resolve()
        .then(() => handler(unframe(body)))
        .then(
          (response) => answer(stream, response),
          (error: unknown) => fail(stream, error),
        );
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as { port: number }).port,
        shutdown(done) {
          server.close(() => done());
          // Each connection says GOAWAY, answers the calls it has, then closes.
          for (const session of sessions) session.close();
        },
      });
    });
  });
}

/** A client of unary calls to one address (host:port, plain HTTP/2), connected at its first call. */
export interface UnaryClient {
  /** Sends `request` to `/<service>/<method>`; resolves once the server answered OK, rejects
   *  with its status otherwise, or when the connection fails. The answer's message is not read. */
  call(method: string, request: Uint8Array): Promise<void>;
  close(): void;
}

export function unaryClient(address: string, service: string): UnaryClient {
  let session: ClientHttp2Session | undefined;
  const open = (): ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = connect(`http://${address}`);
    // A refused or dropped connection fails the calls on it (their streams' errors say it).
    opened.on("error", () => {});
    // The plugin's process ends when the engine says so, not when this connection is idle.
    opened.unref();
    return (session = opened);
  };
  return {
    call(method, request) {
      return new Promise<void>((resolve, reject) => {
        const stream = open().request({
          ":method": "POST",
          ":path": `/${service}/${method}`,
          "content-type": "application/grpc",
          te: "trailers",
        });
        let status: string | undefined;
        let message = "";
        const read = (headers: Record<string, unknown>) => {
          if (headers["grpc-status"] !== undefined) status = String(headers["grpc-status"]);
          if (headers["grpc-message"] !== undefined) message = percentDecode(String(headers["grpc-message"]));
        };
        stream.on("response", read);
        stream.on("trailers", read);
        stream.on("data", () => {});
        stream.on("error", reject);
        stream.on("close", () =>
          status === "0" ? resolve() : reject(new CallFailure(Number(status ?? GrpcStatus.UNKNOWN), message || `${method}: no status`)),
        );
        stream.end(framed(request));
      });
    },
    close: () => session?.close(),
  };
}
