/**
 * The protobuf encoding of the few messages the provider protocol exchanges with this plugin, on
 * the wire's primitives (bytes.ts: varints, doubles, UTF-8), with `google.protobuf.Struct` read
 * straight into JavaScript values and written straight from them. The SDK's stubs build a message
 * object per value and convert it again (google-protobuf's `toJavaScript`): a fifth of the
 * plugin's time in a large preview (docs/performance.md).
 *
 * A message is read by a plan: each field the plugin uses, by its name in the generated protocol
 * (protocol.ts, from the pinned SDK's stubs: {@link planOf}), with its number and kind. Fields it
 * does not use are skipped, as any protobuf reader skips unknown fields. A message is written by
 * field name too ({@link encodeMessage}): no field number is written by hand.
 */
import { Reader, Writer } from "./bytes";
import type { ProtocolField } from "./protocol";

/** A property bag: what a `Struct` holds. */
export type Values = Record<string, unknown>;

/** Wire types (the tag's low three bits). */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

/** A tag: the field's number and its wire type. */
const tag = (field: number, wire: number) => ((field << 3) | wire) >>> 0;

// google.protobuf.Value's fields: null_value 1, number_value 2, string_value 3, bool_value 4,
// struct_value 5, list_value 6. Struct: fields 1 (a map: entries of key 1, value 2). ListValue: values 1.
const NULL_VALUE = tag(1, VARINT);
const NUMBER_VALUE = tag(2, FIXED64);
const STRING_VALUE = tag(3, LENGTH_DELIMITED);
const BOOL_VALUE = tag(4, VARINT);
const STRUCT_VALUE = tag(5, LENGTH_DELIMITED);
const LIST_VALUE = tag(6, LENGTH_DELIMITED);
const FIRST = tag(1, LENGTH_DELIMITED);
const SECOND = tag(2, LENGTH_DELIMITED);

/** A `Value` ending at `end`, as JavaScript. One with no kind set (which no writer sends) is null. */
function readValue(reader: Reader, end: number): unknown {
  let value: unknown = null;
  while (reader.pos < end) {
    const next = reader.uint32();
    switch (next) {
      case NULL_VALUE:
        reader.int32();
        value = null;
        break;
      case NUMBER_VALUE:
        value = reader.double();
        break;
      case STRING_VALUE:
        value = reader.string();
        break;
      case BOOL_VALUE:
        value = reader.bool();
        break;
      case STRUCT_VALUE:
        value = readStructBody(reader, reader.uint32() + reader.pos);
        break;
      case LIST_VALUE:
        value = readList(reader, reader.uint32() + reader.pos);
        break;
      default:
        reader.skipType(next & 7);
    }
  }
  return value;
}

function readList(reader: Reader, end: number): unknown[] {
  const items: unknown[] = [];
  while (reader.pos < end) {
    const next = reader.uint32();
    if (next === FIRST) items.push(readValue(reader, reader.uint32() + reader.pos));
    else reader.skipType(next & 7);
  }
  return items;
}

/** A `Struct`'s fields ending at `end`, as an object. */
function readStructBody(reader: Reader, end: number): Values {
  const values: Values = {};
  while (reader.pos < end) {
    const next = reader.uint32();
    if (next !== FIRST) {
      reader.skipType(next & 7);
      continue;
    }
    const entryEnd = reader.uint32() + reader.pos;
    let key = "";
    let value: unknown = null;
    while (reader.pos < entryEnd) {
      const field = reader.uint32();
      if (field === FIRST) key = reader.string();
      else if (field === SECOND) value = readValue(reader, reader.uint32() + reader.pos);
      else reader.skipType(field & 7);
    }
    // "__proto__" stays a plain property, as it was on the wire, not the object's prototype.
    if (key === "__proto__") Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
    else values[key] = value;
  }
  return values;
}

function writeValue(writer: Writer, value: unknown): void {
  switch (typeof value) {
    case "string":
      writer.uint32(STRING_VALUE).string(value);
      return;
    case "number":
      writer.uint32(NUMBER_VALUE).double(value);
      return;
    case "boolean":
      writer.uint32(BOOL_VALUE).bool(value);
      return;
    case "object":
      if (value === null) writer.uint32(NULL_VALUE).int32(0);
      else if (Array.isArray(value)) {
        writer.uint32(LIST_VALUE).fork();
        for (const item of value) {
          writer.uint32(FIRST).fork();
          writeValue(writer, item ?? null);
          writer.ldelim();
        }
        writer.ldelim();
      } else {
        writer.uint32(STRUCT_VALUE).fork();
        writeStructBody(writer, value as Values);
        writer.ldelim();
      }
      return;
    default:
      throw new TypeError(`a ${typeof value} cannot be a protobuf Value`);
  }
}

/** An object's fields as a `Struct`'s; an undefined field is left out, as JSON leaves it out. */
function writeStructBody(writer: Writer, values: Values): void {
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value === undefined) continue;
    writer.uint32(FIRST).fork().uint32(FIRST).string(key).uint32(SECOND).fork();
    writeValue(writer, value);
    writer.ldelim().ldelim();
  }
}

/** The kinds of field a plan reads. */
const FIELD_KINDS = ["string", "struct", "varint", "strings", "stringMap", "bytes"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A message's plan: the JavaScript name and kind of each field number the plugin uses. */
export type MessagePlan = Record<number, readonly [name: string, kind: FieldKind]>;

/** The JavaScript value of each kind of field. */
interface KindValues {
  string: string;
  struct: Values;
  varint: number;
  strings: string[];
  stringMap: Record<string, string>;
  /** A length-delimited field's bytes, undecoded. */
  bytes: Uint8Array;
}

/** What a plan reads: each named field's value. */
export type Decoded<P extends MessagePlan> = {
  [K in keyof P as P[K] extends readonly [infer N extends string, FieldKind] ? N : never]?: P[K] extends readonly [
    string,
    infer T extends FieldKind,
  ]
    ? KindValues[T]
    : never;
};

/** A map<string, string> entry. */
function readStringEntry(reader: Reader, end: number, into: Record<string, string>): void {
  let key = "";
  let value = "";
  while (reader.pos < end) {
    const field = reader.uint32();
    if (field === FIRST) key = reader.string();
    else if (field === SECOND) value = reader.string();
    else reader.skipType(field & 7);
  }
  into[key] = value;
}

/** Reads `bytes` as the message of `plan`; a field missing from the bytes is missing from the result. */
export function decode<P extends MessagePlan>(plan: P, bytes: Uint8Array): Decoded<P> {
  const reader = Reader.create(bytes);
  const out: Record<string, unknown> = {};
  while (reader.pos < reader.len) {
    const next = reader.uint32();
    const wire = next & 7;
    const field = plan[next >>> 3];
    if (!field) {
      reader.skipType(wire);
      continue;
    }
    const [name, kind] = field;
    if (kind === "varint" ? wire !== VARINT : wire !== LENGTH_DELIMITED) {
      throw new Error(`field ${next >>> 3} (${name}) has wire type ${wire}, not a ${kind}`);
    }
    switch (kind) {
      case "string":
        out[name] = reader.string();
        break;
      case "varint":
        out[name] = reader.int32();
        break;
      case "struct":
        out[name] = readStructBody(reader, reader.uint32() + reader.pos);
        break;
      case "strings":
        ((out[name] ??= []) as string[]).push(reader.string());
        break;
      case "stringMap":
        readStringEntry(reader, reader.uint32() + reader.pos, (out[name] ??= {}) as Record<string, string>);
        break;
      case "bytes":
        out[name] = reader.bytes();
        break;
    }
  }
  return out as Decoded<P>;
}

/** A generated message's fields (protocol.ts `MESSAGES`): name to [number, kind, type]. */
type MessageTable = Readonly<Record<string, ProtocolField>>;

/** The plan that reads the fields `names` of a generated message (a name the SDK no longer has fails the build). */
export function planOf<T extends MessageTable, const N extends keyof T & string>(
  table: T,
  names: readonly N[],
): { [K in N as T[K][0]]: readonly [K, T[K][1] & FieldKind] } {
  const plan: Record<number, readonly [string, string]> = {};
  for (const name of names) {
    const [number, kind] = table[name]!;
    if (!(FIELD_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`protobuf: field ${name} is a ${kind}, which the plugin does not read`);
    }
    plan[number] = [name, kind];
  }
  return plan as never;
}

/** What a field of each kind is written from. */
interface WrittenValues {
  string: string;
  struct: Values;
  varint: number | boolean;
  strings: readonly string[];
  /** An already encoded message. */
  message: Uint8Array;
  bytes: Uint8Array;
  /** Already encoded messages. */
  messages: readonly Uint8Array[];
}

/** The fields of a generated message that the plugin writes, by name, each from its kind's value. */
export type MessageValues<T extends MessageTable> = {
  [K in keyof T as T[K][1] extends keyof WrittenValues ? K : never]?: T[K][1] extends keyof WrittenValues ? WrittenValues[T[K][1]] : never;
};

/**
 * The bytes of a generated message with `values` by field name, in the order of field numbers (the
 * table's, as protocol.ts lists them), as proto3 writes them: an empty string, a zero or false and
 * an empty list are left out; a `Struct` is written even when empty (a message field set), and so
 * are bytes and messages.
 */
export function encodeMessage<T extends MessageTable>(table: T, values: MessageValues<T>): Uint8Array {
  const writer = Writer.create();
  const given = values as Record<string, unknown>;
  for (const name in table) {
    const value = given[name];
    if (value === undefined) continue;
    const [number, kind] = table[name]!;
    switch (kind) {
      case "string":
        if (value !== "") writer.uint32(tag(number, LENGTH_DELIMITED)).string(value as string);
        break;
      case "struct":
        writer.uint32(tag(number, LENGTH_DELIMITED)).fork();
        writeStructBody(writer, value as Values);
        writer.ldelim();
        break;
      case "varint": {
        const varint = typeof value === "boolean" ? (value ? 1 : 0) : (value as number);
        if (varint !== 0) writer.uint32(tag(number, VARINT)).int32(varint);
        break;
      }
      case "strings":
        for (const each of value as readonly string[]) writer.uint32(tag(number, LENGTH_DELIMITED)).string(each);
        break;
      case "message":
      case "bytes":
        writer.uint32(tag(number, LENGTH_DELIMITED)).bytes(value as Uint8Array);
        break;
      case "messages":
        for (const each of value as readonly Uint8Array[]) writer.uint32(tag(number, LENGTH_DELIMITED)).bytes(each);
        break;
      default:
        throw new Error(`protobuf: field ${name} is a ${kind}, which the plugin does not write`);
    }
  }
  return writer.finish();
}
