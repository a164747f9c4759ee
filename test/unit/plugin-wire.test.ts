/**
 * The plugin's protobuf codec (provider/plugin/wire/protobuf.ts) against google-protobuf's, the
 * SDK's: what one writes the other reads back the same, for every kind of value a property bag
 * holds, and the provider protocol's requests as the SDK's stubs write them (with the fields this
 * plugin does not read) come out as the plugin's handlers expect.
 */
import { describe, expect, it } from "vitest";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import * as statusPb from "@pulumi/pulumi/proto/status_pb";
import { BinaryWriter } from "google-protobuf";
import { decode, encodeMessage, type Values } from "../../provider/plugin/wire/protobuf";
import { MESSAGES } from "../../provider/plugin/wire/protocol";
import { Reader, Writer } from "../../provider/plugin/wire/bytes";
import { GrpcStatus, percentEncode } from "../../provider/plugin/wire/grpc";
import { providerHandlers, type ProviderService } from "../../provider/plugin/grpc-server";
import { pluginService } from "../../provider/plugin/serve";

const BAGS: Values[] = [
  {},
  { name: "bug", color: "#aa0000", priority: 0, archived: false, description: "" },
  { nested: { deeper: { deepest: [1, "two", null, true, { x: -3.5 }] } }, empty: {}, none: [] },
  { unicode: "ünïcødé ✓ 𝄞 日本", quote: 'a "b" \\ c\n\t', big: 2 ** 53 - 1, small: -(2 ** 31), float: 0.1 + 0.2 },
  { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: { secret: "hunter2" } },
  { "key with spaces": 1, "": "empty key", "a.b[0]": ["x"], nulls: [null, null] },
  { list: [[], [[1]], [{}], [{ a: [] }]] },
];

const viaGoogle = (values: Values) => Struct.fromJavaScript(values as Parameters<typeof Struct.fromJavaScript>[0]).serializeBinary();
const readByGoogle = (bytes: Uint8Array) => Struct.deserializeBinary(bytes).toJavaScript();
/** A bag as CheckResponse.inputs (field 1), written and read by the plugin's codec. */
const wrapped = (values: Values) => encodeMessage(MESSAGES["pulumirpc.CheckResponse"], { inputs: values });
const unwrap = (bytes: Uint8Array) => decode({ 1: ["bag", "struct"] }, bytes).bag;

describe("Struct, both ways against google-protobuf", () => {
  it.each(BAGS.map((bag, index) => [index, bag] as const))("bag %i: written by the plugin, read by google-protobuf", (_index, bag) => {
    const read = providerPb.CheckResponse.deserializeBinary(wrapped(bag)).getInputs()!.toJavaScript();
    expect(read).toEqual(bag);
  });

  it.each(BAGS.map((bag, index) => [index, bag] as const))("bag %i: written by google-protobuf, read by the plugin", (_index, bag) => {
    const response = new providerPb.CheckResponse();
    response.setInputs(Struct.fromJavaScript(bag as Parameters<typeof Struct.fromJavaScript>[0]));
    expect(unwrap(response.serializeBinary())).toEqual(bag);
    // A bare Struct's bytes are the plugin's struct body: the same bag again.
    expect(readByGoogle(viaGoogle(bag))).toEqual(bag);
  });

  it("keeps a `__proto__` key a plain property, not the object's prototype", () => {
    const bag = JSON.parse('{"__proto__": {"polluted": true}, "name": "x"}') as Values;
    const read = unwrap(wrapped(bag))!;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(["__proto__", "name"]);
    expect(({} as Values)["polluted"]).toBeUndefined();
  });

  it("leaves an undefined field out, as JSON does, and refuses what no Value can hold", () => {
    expect(unwrap(wrapped({ kept: 1, dropped: undefined }))).toEqual({ kept: 1 });
    expect(unwrap(wrapped({ list: [undefined, 2] }))).toEqual({ list: [null, 2] });
    expect(() => wrapped({ when: () => 1 })).toThrow(/a function cannot be a protobuf Value/);
  });
});

describe("the provider protocol's messages", () => {
  it("reads a request as the SDK writes it, skipping the fields the plugin does not use", () => {
    const request = new providerPb.CheckRequest();
    request.setUrn("urn:pulumi:dev::p::forge:index:GroupLabel::bug");
    request.setOlds(Struct.fromJavaScript({ name: "old" }));
    request.setNews(Struct.fromJavaScript({ name: "new", tags: ["a", "b"] }));
    request.setRandomseed(new Uint8Array([1, 2, 3, 250]));
    request.setName("bug");
    request.setType("forge:index:GroupLabel");
    request.setAutonaming(new providerPb.CheckRequest.AutonamingOptions().setProposedName("bug-1").setMode(2));
    const plan = { 1: ["urn", "string"], 2: ["olds", "struct"], 3: ["news", "struct"] } as const;
    expect(decode(plan, request.serializeBinary())).toEqual({
      urn: "urn:pulumi:dev::p::forge:index:GroupLabel::bug",
      olds: { name: "old" },
      news: { name: "new", tags: ["a", "b"] },
    });
  });

  it("reads Configure's map of variables and a schema request's version", () => {
    const request = new providerPb.ConfigureRequest();
    request.getVariablesMap().set("forge:config:baseUrl", "http://forge").set("forge:config:token", "t");
    request.setArgs(Struct.fromJavaScript({ baseUrl: "http://forge" }));
    request.setAcceptsecrets(true);
    expect(decode({ 1: ["variables", "stringMap"], 2: ["args", "struct"] }, request.serializeBinary())).toEqual({
      variables: { "forge:config:baseUrl": "http://forge", "forge:config:token": "t" },
      args: { baseUrl: "http://forge" },
    });
    expect(decode({ 1: ["version", "varint"] }, new providerPb.GetSchemaRequest().setVersion(2).serializeBinary())).toEqual({ version: 2 });
    expect(() => decode({ 1: ["version", "string"] }, new providerPb.GetSchemaRequest().setVersion(2).serializeBinary())).toThrow(
      /field 1 \(version\) has wire type 0, not a string/,
    );
  });

  it("writes responses the SDK reads: repeated strings, enums, booleans and nested messages, proto3's defaults left out", () => {
    const diff = providerPb.DiffResponse.deserializeBinary(
      encodeMessage(MESSAGES["pulumirpc.DiffResponse"], { replaces: ["group", "name"], deletebeforereplace: true, changes: 2 }),
    );
    expect(diff.getReplacesList()).toEqual(["group", "name"]);
    expect(diff.getDeletebeforereplace()).toBe(true);
    expect(diff.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(encodeMessage(MESSAGES["pulumirpc.DiffResponse"], { replaces: [], deletebeforereplace: false, changes: 0 })).toHaveLength(0);
    // In the order of field numbers, whatever the order of the values: google-protobuf's bytes.
    expect(encodeMessage(MESSAGES["pulumirpc.DiffResponse"], { changes: 2, deletebeforereplace: true, replaces: ["group"] })).toEqual(
      Buffer.from(new providerPb.DiffResponse().setChanges(2).setDeletebeforereplace(true).setReplacesList(["group"]).serializeBinary()),
    );
    expect(encodeMessage(MESSAGES["pulumirpc.CheckFailure"], { property: "", reason: "" })).toHaveLength(0);

    const failure = encodeMessage(MESSAGES["pulumirpc.CheckFailure"], { property: "color", reason: "must be a hex colour, like #aa0000" });
    const check = providerPb.CheckResponse.deserializeBinary(
      encodeMessage(MESSAGES["pulumirpc.CheckResponse"], { inputs: {}, failures: [failure, failure] }),
    );
    expect(check.getInputs()!.toJavaScript()).toEqual({});
    expect(check.getFailuresList().map((each) => each.toObject())).toEqual([
      { property: "color", reason: "must be a hex colour, like #aa0000" },
      { property: "color", reason: "must be a hex colour, like #aa0000" },
    ]);

    const status = statusPb.Status.deserializeBinary(
      encodeMessage(MESSAGES["google.rpc.Status"], { code: 2, message: "disk full", details: [] }),
    );
    expect(status.toObject()).toMatchObject({ code: 2, message: "disk full" });
  });
});

it("percent-encodes a gRPC message as the protocol says: printable ASCII kept but %, everything else as UTF-8 bytes", () => {
  expect(percentEncode("plain text: 100 ok")).toBe("plain text: 100 ok");
  expect(percentEncode("50% done\nnext")).toBe("50%25 done%0Anext");
  expect(percentEncode("ü✓")).toBe("%C3%BC%E2%9C%93");
  expect(decodeURIComponent(percentEncode("naïve 100% — ✓\r\n"))).toBe("naïve 100% — ✓\r\n");
});

describe("the wire's primitives against google-protobuf's", () => {
  const NUMBERS = [0, 1, 127, 128, 300, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, 2 ** 31 - 1, 2 ** 32 - 1];

  it("writes varints, negative int32s, doubles, booleans, strings and bytes as google-protobuf does", () => {
    const ours = Writer.create();
    const theirs = new BinaryWriter();
    NUMBERS.forEach((value, index) => {
      ours.uint32(((index + 1) << 3) | 0).uint32(value);
      theirs.writeUint32(index + 1, value);
    });
    for (const value of [-1, -(2 ** 31), -300]) {
      ours.uint32((20 << 3) | 0).int32(value);
      theirs.writeInt32(20, value);
    }
    for (const value of [0, -0.5, 1e300, Number.MIN_VALUE, Infinity]) {
      ours.uint32((21 << 3) | 1).double(value);
      theirs.writeDouble(21, value);
    }
    ours.uint32((22 << 3) | 0).bool(true);
    theirs.writeBool(22, true);
    for (const value of ["", "ascii", "ünïcødé ✓ 𝄞", "x".repeat(70_000)]) {
      ours.uint32((23 << 3) | 2).string(value);
      theirs.writeString(23, value);
    }
    ours.uint32((24 << 3) | 2).bytes(new Uint8Array([0, 255, 7]));
    theirs.writeBytes(24, new Uint8Array([0, 255, 7]));
    expect(Buffer.from(ours.finish())).toEqual(Buffer.from(theirs.getResultBuffer()));
  });

  it("reads back what google-protobuf writes, and skips what it is told to", () => {
    const theirs = new BinaryWriter();
    NUMBERS.forEach((value) => theirs.writeUint32(1, value));
    theirs.writeInt32(2, -7);
    theirs.writeFixed32(3, 9);
    theirs.writeDouble(4, -2.25);
    theirs.writeString(5, "ünïcødé ✓");
    theirs.writeInt64(6, 2 ** 40);
    theirs.writeBool(7, true);
    const reader = Reader.create(theirs.getResultBuffer());
    const read: unknown[] = [];
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      if (field === 1) read.push(reader.uint32());
      else if (field === 2) read.push(reader.int32());
      else if (field === 4) read.push(reader.double());
      else if (field === 5) read.push(reader.string());
      else if (field === 7) read.push(reader.bool());
      else reader.skipType(tag & 7);
    }
    expect(read).toEqual([...NUMBERS, -7, -2.25, "ünïcødé ✓", true]);
  });

  it("nests length-delimited parts of any size, and a truncated message throws rather than reading past its end", () => {
    const ours = Writer.create();
    ours
      .uint32((1 << 3) | 2)
      .fork()
      .uint32((2 << 3) | 2)
      .fork()
      .string("y".repeat(20_000))
      .ldelim()
      .uint32((3 << 3) | 0)
      .uint32(5)
      .ldelim();
    const outer = Reader.create(ours.finish());
    expect(outer.uint32()).toBe((1 << 3) | 2);
    const part = Reader.create(outer.bytes());
    expect(outer.pos).toBe(outer.len);
    expect(part.uint32()).toBe((2 << 3) | 2);
    const inner = Reader.create(part.bytes());
    expect(inner.string()).toBe("y".repeat(20_000));
    expect([part.uint32(), part.uint32(), part.pos === part.len]).toEqual([(3 << 3) | 0, 5, true]);
    // The same bag through google-protobuf: a 20,000-character value nests the same way.
    const bag = { deep: { deeper: { text: "y".repeat(20_000) } } };
    expect(providerPb.CheckResponse.deserializeBinary(wrapped(bag)).getInputs()!.toJavaScript()).toEqual(bag);
    const truncated = Buffer.from(encodeMessage(MESSAGES["pulumirpc.PluginInfo"], { version: "hello" })).subarray(0, 4);
    expect(() => decode({ 1: ["name", "string"] }, truncated)).toThrow(/past the end/);
  });
});

describe("the engine's handshake", () => {
  /** The handlers over a service that only counts `prepare` (the handshake touches nothing else). */
  function handshake(request: providerPb.ProviderHandshakeRequest) {
    const prepared = { count: 0 };
    const service = { prepare: () => (prepared.count += 1) } as unknown as ProviderService;
    const answer = providerHandlers(service)["Handshake"]!(Buffer.from(request.serializeBinary()));
    return { answer: Promise.resolve(answer), prepared };
  }
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it("is answered UNIMPLEMENTED, as before it was read, and starts loading the provider only when the engine hands its loader over", async () => {
    const deploying = new providerPb.ProviderHandshakeRequest();
    deploying.setEngineAddress("127.0.0.1:1");
    deploying.setRootDirectory("/p");
    deploying.setLoaderTarget("127.0.0.1:2");
    const engine = handshake(deploying);
    await expect(engine.answer).rejects.toMatchObject({ code: GrpcStatus.UNIMPLEMENTED });
    expect(engine.prepared.count).toBe(0); // after the answer, not before it
    await nextTurn();
    expect(engine.prepared.count).toBe(1);

    const schemaOnly = new providerPb.ProviderHandshakeRequest();
    schemaOnly.setEngineAddress("127.0.0.1:1");
    schemaOnly.setRootDirectory("/p");
    const host = handshake(schemaOnly);
    await expect(host.answer).rejects.toMatchObject({ code: GrpcStatus.UNIMPLEMENTED });
    await nextTurn();
    expect(host.prepared.count).toBe(0);
  });

  it("a provider that cannot load says so to the request that needs it, not at the handshake", () => {
    let loads = 0;
    const service = pluginService(
      { version: "0.0.0", schema: "{}" },
      () => {
        loads += 1;
        throw new Error("a broken install");
      },
      () => {},
      () => {},
    );
    expect(() => service.prepare()).not.toThrow();
    expect(() => service.configure({ args: {}, variables: {} })).toThrow("a broken install");
    expect(loads).toBe(2);
  });
});
