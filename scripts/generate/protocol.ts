/**
 * The provider protocol as the plugin's wire needs it (provider/plugin/wire/protocol.ts), read from
 * the Pulumi SDK the package pins: its gRPC service definitions (`@pulumi/pulumi/proto/*_grpc_pb`,
 * generated from provider.proto and engine.proto) name each method's path and its request and
 * response messages, and each message's generated decoder (google-protobuf's
 * `deserializeBinaryFromReader`) says, field number by field number, how it reads the field and
 * which setter takes it. Driving that decoder with a reader that offers every field number gives
 * each field's number, name and kind as the SDK's stubs have them. A Pulumi release that renames,
 * renumbers or retypes a field the plugin uses then changes this file (the unit test of generated
 * files fails until `npm run generate`), and a field the plugin names that is gone fails the build.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as jspbModule from "google-protobuf";
import type * as anyModule from "google-protobuf/google/protobuf/any_pb";
import type * as engineRpcModule from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineModule from "@pulumi/pulumi/proto/engine_pb";
import type * as providerRpcModule from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerModule from "@pulumi/pulumi/proto/provider_pb";
import type * as statusModule from "@pulumi/pulumi/proto/status_pb";

// Node's `require`, not `import`: the stubs fill their exports at run time (`goog.object.extend`),
// which an ES namespace (vitest's, for the test of generated files) does not see, and the classes
// must be the very ones the service definitions name.
/* eslint-disable @typescript-eslint/no-require-imports */
const jspb = require("google-protobuf") as typeof jspbModule;
const anyPb = require("google-protobuf/google/protobuf/any_pb") as typeof anyModule;
const emptyPb = require("google-protobuf/google/protobuf/empty_pb") as Record<string, unknown>;
const structPb = require("google-protobuf/google/protobuf/struct_pb") as Record<string, unknown>;
const engineRpc = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof engineRpcModule;
const enginePb = require("@pulumi/pulumi/proto/engine_pb") as typeof engineModule;
const pluginPb = require("@pulumi/pulumi/proto/plugin_pb") as Record<string, unknown>;
const providerRpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof providerRpcModule;
const providerPb = require("@pulumi/pulumi/proto/provider_pb") as typeof providerModule;
const statusPb = require("@pulumi/pulumi/proto/status_pb") as typeof statusModule;
/* eslint-enable @typescript-eslint/no-require-imports */

/** A field's kind, as the plugin's codec (provider/plugin/wire/protobuf.ts) reads and writes it. */
type Kind = "string" | "strings" | "varint" | "varints" | "double" | "bytes" | "struct" | "message" | "messages" | "stringMap" | "map";

interface Field {
  number: number;
  kind: Kind;
  /** The message type of a message field (`pulumirpc.CheckFailure`). */
  type?: string;
}

type MessageClass = { new (): unknown; deserializeBinaryFromReader(message: unknown, reader: unknown): unknown };

/** The highest field number looked for (the protocol's messages stay well under it). */
const MAX_FIELD = 64;

/** Every message class of the SDK's modules, by class, with its full protobuf name. */
function messageNames(): Map<unknown, string> {
  const names = new Map<unknown, string>();
  const modules: [string, Record<string, unknown>][] = [
    ["pulumirpc", providerPb as unknown as Record<string, unknown>],
    ["pulumirpc", pluginPb as unknown as Record<string, unknown>],
    ["pulumirpc", enginePb as unknown as Record<string, unknown>],
    ["google.rpc", statusPb as unknown as Record<string, unknown>],
    ["google.protobuf", structPb as unknown as Record<string, unknown>],
    ["google.protobuf", anyPb as unknown as Record<string, unknown>],
    ["google.protobuf", emptyPb as unknown as Record<string, unknown>],
  ];
  const walk = (prefix: string, scope: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(scope)) {
      if (typeof value !== "function" || !/^[A-Z]/.test(key) || names.has(value)) continue;
      names.set(value, `${prefix}.${key}`);
      walk(`${prefix}.${key}`, value as unknown as Record<string, unknown>);
    }
  };
  for (const [prefix, module] of modules) walk(prefix, module);
  return names;
}

/**
 * A message's fields, by the SDK's JavaScript name (`urn`, `olds`, `acceptsecrets`): its decoder
 * is offered each field number in turn, and what it reads and which setter it calls are recorded.
 */
function fieldsOf(message: MessageClass, names: Map<unknown, string>): Record<string, Field> {
  const fields: Record<string, Field> = {};
  for (let number = 1; number <= MAX_FIELD; number += 1) {
    let kind: Kind | undefined;
    let type: string | undefined;
    let offered = false;
    let skipped = false;
    let name: string | undefined;
    const reads = (read: Kind) => () => {
      kind = read;
      return read === "string" ? "" : read === "bytes" ? new Uint8Array() : 0;
    };
    const reader = {
      nextField: () => (offered ? false : (offered = true)),
      isEndGroup: () => false,
      isDelimited: () => false,
      getFieldNumber: () => number,
      skipField: () => void (skipped = true),
      readString: reads("string"),
      readBool: reads("varint"),
      readEnum: reads("varint"),
      readInt32: reads("varint"),
      readUint32: reads("varint"),
      readSint32: reads("varint"),
      readInt64: reads("varint"),
      readUint64: reads("varint"),
      readDouble: reads("double"),
      readFloat: reads("double"),
      readBytes: reads("bytes"),
      readPackedEnum: () => ((kind = "varint"), []),
      readMessage(value: unknown, read: (target: unknown, reader: unknown) => void) {
        if (isMap(value)) {
          // map<K, V>: the entry's key and value readers, as the decoder hands them to jspb.Map.
          const original = jspb.Map.deserializeBinary;
          let stringMap = false;
          (jspb.Map as unknown as { deserializeBinary: unknown }).deserializeBinary = (
            _map: unknown,
            _reader: unknown,
            key: unknown,
            val: unknown,
          ) => {
            const readString = jspb.BinaryReader.prototype.readString;
            stringMap = key === readString && val === readString;
          };
          try {
            read(value, reader);
          } finally {
            (jspb.Map as unknown as { deserializeBinary: unknown }).deserializeBinary = original;
          }
          kind = stringMap ? "stringMap" : "map";
          return;
        }
        type = names.get((value as object).constructor);
        kind = type === "google.protobuf.Struct" ? "struct" : "message";
      },
    };
    const isMap = (value: unknown) => value instanceof jspb.Map;
    const target = new Proxy(new message() as object, {
      get(object, property: string | symbol) {
        if (typeof property !== "string") return Reflect.get(object, property);
        if (property.startsWith("set") || property.startsWith("add")) {
          return () => {
            name = property.slice(3, 4).toLowerCase() + property.slice(4);
            if (property.startsWith("add")) kind = kind === "string" ? "strings" : kind === "varint" ? "varints" : "messages";
          };
        }
        if (property.startsWith("get") && property.endsWith("Map")) {
          name = property.slice(3, 4).toLowerCase() + property.slice(4, -3);
        }
        return Reflect.get(object, property);
      },
    });
    message.deserializeBinaryFromReader(target, reader);
    if (skipped || !kind || !name) continue;
    fields[name] = {
      number,
      kind,
      ...(type && kind !== "struct" ? { type } : {}),
    };
  }
  return fields;
}

/** The SDK version whose stubs these are (the package's pinned @pulumi/pulumi). */
function sdkVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
}

/** The messages the plugin sends or reads outside the services' requests and responses. */
const OTHER_MESSAGES: [string, MessageClass][] = [
  ["pulumirpc.ErrorResourceInitFailed", providerPb.ErrorResourceInitFailed as unknown as MessageClass],
  ["google.rpc.Status", statusPb.Status as unknown as MessageClass],
  ["google.protobuf.Any", anyPb.Any as unknown as MessageClass],
];

/** The enums the plugin writes. */
const ENUMS: [string, Record<string, number>][] = [
  ["pulumirpc.DiffResponse.DiffChanges", providerPb.DiffResponse.DiffChanges as unknown as Record<string, number>],
  ["pulumirpc.LogSeverity", enginePb.LogSeverity as unknown as Record<string, number>],
];

/** provider/plugin/wire/protocol.ts: the services' methods and the messages' fields. */
export function protocolModule(root: string): string {
  const names = messageNames();
  // Each name's message class (the first of that name), for the message types that fields hold.
  const classes = new Map<string, MessageClass>();
  for (const [message, name] of names) if (!classes.has(name)) classes.set(name, message as MessageClass);
  const services = [
    ["PROVIDER", providerRpc.ResourceProviderService],
    ["ENGINE", engineRpc.EngineService],
  ] as const;
  const messages = new Map<string, MessageClass>();
  const lines: string[] = [
    `// Generated by scripts/generate/protocol.ts from the gRPC stubs of @pulumi/pulumi ${sdkVersion(root)} (provider.proto, engine.proto,`,
    "// plugin.proto, status.proto); do not edit: run `npm run generate`.",
    "",
    "/** A field of a message: its number, its kind as wire/protobuf.ts reads and writes it, and a message field's type. */",
    "export type ProtocolField = readonly [number: number, kind: string, type?: string];",
    "",
  ];
  for (const [constant, service] of services) {
    const methods = Object.values(service as unknown as Record<string, { path: string; requestType: unknown; responseType: unknown }>);
    const serviceName = methods[0]!.path.split("/")[1]!;
    lines.push(`/** The service \`${serviceName}\`. */`, `export const ${constant}_SERVICE = "${serviceName}";`, "");
    lines.push(`/** Each method of \`${serviceName}\`: its request and response messages. */`, `export const ${constant}_METHODS = {`);
    for (const method of methods) {
      const request = names.get(method.requestType)!;
      const response = names.get(method.responseType)!;
      messages.set(request, method.requestType as MessageClass);
      messages.set(response, method.responseType as MessageClass);
      lines.push(`  ${method.path.split("/")[2]}: { request: "${request}", response: "${response}" },`);
    }
    lines.push("} as const;", "");
  }
  for (const [name, message] of OTHER_MESSAGES) messages.set(name, message);
  // The message types those messages hold, down to the leaves.
  const pending = [...messages.values()];
  const tables = new Map<string, Record<string, Field>>();
  while (pending.length > 0) {
    const message = pending.pop()!;
    const name = names.get(message)!;
    if (tables.has(name) || name === "google.protobuf.Struct" || name === "google.protobuf.Empty") continue;
    const fields = fieldsOf(message, names);
    tables.set(name, fields);
    for (const field of Object.values(fields)) {
      const held = field.type === undefined ? undefined : classes.get(field.type);
      if (held && !tables.has(field.type!)) pending.push(held);
    }
  }
  lines.push("/** The enums the plugin writes, by value name. */", "export const ENUMS = {");
  for (const [name, values] of ENUMS) {
    lines.push(
      `  "${name}": { ${Object.entries(values)
        .map(([key, value]) => `${key}: ${value}`)
        .join(", ")} },`,
    );
  }
  lines.push("} as const;", "");
  lines.push("/** Each message's fields, by the SDK's JavaScript name: [number, kind, message type]. */", "export const MESSAGES = {");
  for (const name of [...tables.keys()].sort()) {
    const fields = Object.entries(tables.get(name)!).sort(([, a], [, b]) => a.number - b.number);
    if (fields.length === 0) {
      lines.push(`  "${name}": {},`);
      continue;
    }
    lines.push(`  "${name}": {`);
    for (const [field, { number, kind, type }] of fields) lines.push(`    ${field}: [${number}, "${kind}"${type ? `, "${type}"` : ""}],`);
    lines.push("  },");
  }
  lines.push("} as const satisfies Record<string, Record<string, ProtocolField>>;", "");
  return lines.join("\n");
}
