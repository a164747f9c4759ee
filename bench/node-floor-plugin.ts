/**
 * The floor of a Node provider plugin, for the plugin bench (its face "floor: Node plugin"): the
 * provider protocol's calls of an `up`, a preview, a refresh and a destroy answered with no work
 * of the plugin's own, on the plugin's own gRPC layer over `node:http2`
 * (provider/plugin/wire/grpc.ts). What is left is Node's start, its HTTP/2 per call, and the
 * engine: the time a plugin of this runtime cannot go under, against the Go peer's. Not a
 * provider: it keeps nothing, checks nothing, sends nothing, and decodes no `Struct`: the values
 * it answers are the request's bytes, passed on (field numbers: provider/plugin/grpc-server.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serveUnary, type UnaryHandler } from "../provider/plugin/wire/grpc";
import { decode, encode } from "../provider/plugin/wire/protobuf";

const SCHEMA = readFileSync(join(__dirname, "..", "..", "provider", "plugin", "schema.json"), "utf8");
const EMPTY = new Uint8Array(0);
/** A field's bytes passed on as the answer's field (an empty message when the request had none). */
const passed = (bytes: Uint8Array | undefined) => ({ messages: [bytes ?? EMPTY] });

/** The answers, by method. */
const ANSWERS: Record<string, UnaryHandler> = {
  GetPluginInfo: () => encode({ 1: { string: "0.0.0" } }),
  GetSchema: () => encode({ 1: { string: SCHEMA } }),
  // acceptSecrets (1), acceptResources (3), acceptOutputs (4)
  Configure: () => encode({ 1: { varint: 1 }, 3: { varint: 1 }, 4: { varint: 1 } }),
  // CheckResponse.inputs (1) = CheckRequest.news (3)
  Check: (request) => encode({ 1: passed(decode({ 3: ["news", "bytes"] } as const, request).news) }),
  // DiffResponse.changes (4) = DIFF_NONE (1)
  Diff: () => encode({ 4: { varint: 1 } }),
  // CreateResponse id (1) = the URN's name, properties (2) = CreateRequest.properties (2)
  Create: (request) => {
    const { urn = "", properties } = decode({ 1: ["urn", "string"], 2: ["properties", "bytes"] } as const, request);
    return encode({ 1: { string: urn.split("::").pop()! }, 2: passed(properties) });
  },
  // ReadResponse id (1), properties (2), inputs (3) = ReadRequest's id (1), properties (3), inputs (4)
  Read: (request) => {
    const read = decode({ 1: ["id", "string"], 3: ["properties", "bytes"], 4: ["inputs", "bytes"] } as const, request);
    return encode({ 1: { string: read.id ?? "" }, 2: passed(read.properties), 3: passed(read.inputs) });
  },
  Delete: () => EMPTY,
  Cancel: () => EMPTY,
};

void serveUnary("pulumirpc.ResourceProvider", ANSWERS).then((server) => process.stdout.write(`${server.port}\n`));
process.once("SIGINT", () => process.exit());
process.once("SIGTERM", () => process.exit());
