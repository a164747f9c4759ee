/**
 * The floor of a Node provider plugin, for the plugin bench (its face "floor: Node plugin"): the
 * provider protocol's calls of an `up`, a preview, a refresh and a destroy answered with no work
 * of the plugin's own, on `node:http2` alone (no grpc-js, no google-protobuf). What is left is
 * Node's start, its HTTP/2 per call, and the engine: the time a plugin of this runtime cannot go
 * under, against the Go peer's. Not a provider: it keeps nothing, checks nothing, sends nothing.
 *
 * The gRPC framing (a 5-byte prefix, the status in trailers) and the few fields it touches are
 * written by hand on purpose: a codec's cost is what the floor leaves out. Field numbers are
 * those of pulumirpc's provider.proto and plugin.proto (3.259's generated stubs).
 */
import { createServer } from "node:http2";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const SCHEMA = readFileSync(join(__dirname, "..", "..", "provider", "plugin", "schema.json"));

function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value > 127) {
    bytes.push((value & 127) | 128);
    value >>>= 7;
  }
  bytes.push(value);
  return Buffer.from(bytes);
}

/** A length-delimited field (wire type 2). */
const field = (number: number, bytes: Buffer) => Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);

/** The length-delimited fields of a message, by number (the last of each). */
function fieldsOf(message: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  let at = 0;
  const read = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = message[at++]!;
      value += (byte & 127) * 2 ** shift;
      shift += 7;
    } while (byte & 128);
    return value;
  };
  while (at < message.length) {
    const tag = read();
    const wire = tag & 7;
    if (wire === 2) {
      const length = read();
      fields.set(tag >>> 3, message.subarray(at, at + length));
      at += length;
    } else if (wire === 0) read();
    else throw new Error(`node floor plugin: wire type ${wire} not expected`);
  }
  return fields;
}

const empty = Buffer.alloc(0);
/** The answers, by method: request bytes to response bytes. */
const ANSWERS: Record<string, (request: Map<number, Buffer>) => Buffer> = {
  GetPluginInfo: () => field(1, Buffer.from("0.0.0")),
  GetSchema: () => field(1, SCHEMA),
  // acceptSecrets (1), acceptResources (3), acceptOutputs (4)
  Configure: () => Buffer.from([0x08, 1, 0x18, 1, 0x20, 1]),
  // CheckResponse.inputs (1) = CheckRequest.news (3)
  Check: (request) => field(1, request.get(3) ?? empty),
  // DiffResponse.changes (4) = DIFF_NONE (1)
  Diff: () => Buffer.from([0x20, 1]),
  // CreateResponse id (1) = the URN's name, properties (2) = CreateRequest.properties (2)
  Create: (request) =>
    Buffer.concat([
      field(
        1,
        Buffer.from(
          String(request.get(1) ?? "")
            .split("::")
            .pop()!,
        ),
      ),
      field(2, request.get(2) ?? empty),
    ]),
  // ReadResponse id (1), properties (2), inputs (3) = ReadRequest's id (1), properties (3), inputs (4)
  Read: (request) =>
    Buffer.concat([field(1, request.get(1) ?? empty), field(2, request.get(3) ?? empty), field(3, request.get(4) ?? empty)]),
  Delete: () => empty,
  Cancel: () => empty,
};

const server = createServer();
server.on("stream", (stream, headers) => {
  const method = String(headers[":path"]).split("/").pop()!;
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  stream.on("end", () => {
    const answer = ANSWERS[method];
    if (!answer) {
      stream.respond(
        { ":status": 200, "content-type": "application/grpc", "grpc-status": "12", "grpc-message": method },
        { endStream: true },
      );
      return;
    }
    const body = answer(fieldsOf(Buffer.concat(chunks).subarray(5)));
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(body.length, 1);
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(Buffer.concat([prefix, body]));
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
process.once("SIGINT", () => process.exit());
process.once("SIGTERM", () => process.exit());
