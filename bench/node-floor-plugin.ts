/**
 * The floor of a Node provider plugin, for the plugin bench (its face "floor: Node plugin"): the
 * provider protocol's calls of an `up`, a preview, a refresh and a destroy answered with no work
 * of the plugin's own, on the plugin's own gRPC layer over `node:http2`
 * (provider/plugin/wire/grpc.ts). What is left is Node's start, its HTTP/2 per call, and the
 * engine: the time a plugin of this runtime cannot go under, against the Go peer's. Not a
 * provider: it keeps nothing, checks nothing, sends nothing, and decodes no `Struct`: the values
 * it answers are the request's bytes, passed on (fields by name: provider/plugin/wire/protocol.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serveUnary, type UnaryHandler } from "../provider/plugin/wire/grpc";
import { decode, encodeMessage, planOf } from "../provider/plugin/wire/protobuf";
import { ENUMS, MESSAGES, type ProtocolField } from "../provider/plugin/wire/protocol";

const SCHEMA = readFileSync(join(__dirname, "..", "..", "provider", "plugin", "schema.json"), "utf8");
const EMPTY = new Uint8Array(0);

/** A message's fields with each `Struct` read and written as its bytes: the floor passes them on undecoded. */
function structsAsBytes<T extends Readonly<Record<string, ProtocolField>>>(
  table: T,
): { [K in keyof T]: T[K][1] extends "struct" ? readonly [T[K][0], "bytes"] : T[K] } {
  return Object.fromEntries(
    Object.entries(table).map(([name, [number, kind]]) => [name, kind === "struct" ? ([number, "bytes"] as const) : table[name]]),
  ) as never;
}

const CHECK = structsAsBytes(MESSAGES["pulumirpc.CheckRequest"]);
const CREATE = structsAsBytes(MESSAGES["pulumirpc.CreateRequest"]);
const READ = structsAsBytes(MESSAGES["pulumirpc.ReadRequest"]);
const PLANS = {
  Check: planOf(CHECK, ["news"]),
  Create: planOf(CREATE, ["urn", "properties"]),
  Read: planOf(READ, ["id", "properties", "inputs"]),
};
const CHECK_RESPONSE = structsAsBytes(MESSAGES["pulumirpc.CheckResponse"]);
const CREATE_RESPONSE = structsAsBytes(MESSAGES["pulumirpc.CreateResponse"]);
const READ_RESPONSE = structsAsBytes(MESSAGES["pulumirpc.ReadResponse"]);

/** The answers, by method. */
const ANSWERS: Record<string, UnaryHandler> = {
  GetPluginInfo: () => encodeMessage(MESSAGES["pulumirpc.PluginInfo"], { version: "0.0.0" }),
  GetSchema: () => encodeMessage(MESSAGES["pulumirpc.GetSchemaResponse"], { schema: SCHEMA }),
  Configure: () =>
    encodeMessage(MESSAGES["pulumirpc.ConfigureResponse"], { acceptsecrets: true, acceptresources: true, acceptoutputs: true }),
  // The inputs are the request's news (an empty Struct when the request had none).
  Check: (request) => encodeMessage(CHECK_RESPONSE, { inputs: decode(PLANS.Check, request).news ?? EMPTY }),
  Diff: () => encodeMessage(MESSAGES["pulumirpc.DiffResponse"], { changes: ENUMS["pulumirpc.DiffResponse.DiffChanges"].DIFF_NONE }),
  // The id is the URN's name; the properties, the request's.
  Create: (request) => {
    const { urn = "", properties = EMPTY } = decode(PLANS.Create, request);
    return encodeMessage(CREATE_RESPONSE, { id: urn.split("::").pop()!, properties });
  },
  Read: (request) => {
    const { id = "", properties = EMPTY, inputs = EMPTY } = decode(PLANS.Read, request);
    return encodeMessage(READ_RESPONSE, { id, properties, inputs });
  },
  Delete: () => EMPTY,
  Cancel: () => EMPTY,
};

void serveUnary("pulumirpc.ResourceProvider", ANSWERS).then((server) => process.stdout.write(`${server.port}\n`));
process.once("SIGINT", () => process.exit());
process.once("SIGTERM", () => process.exit());
