/**
 * The plugin binary's provider service on the wire, without the engine: the built
 * `pulumi-resource-forge`, the executable and the Node bin, started as the engine starts it (the
 * address of the engine's services as its argument; here a LogService of the test's), spoken to
 * with the SDK's generated client (support/plugin-process.ts). What the engine-level tests cannot
 * see or reach cheaply: the answers the engine relies on, the provider's messages under their
 * resource's URN, a half-done create's record, the exit on a signal. The life cycle itself is the
 * contract layer's (life-cycle.test.ts, over both faces).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as grpc from "@grpc/grpc-js";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import * as statusPb from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { conceal } from "../../provider/plugin/face";
import { pluginToken } from "../../provider/type-tokens";
import { pluginBuilds, startPluginProcess, struct, type PluginProcess } from "./support/plugin-process";
import { startWorld, type World } from "./world";

const urnOf = (type: string, name: string) => `urn:pulumi:test::forge::${pluginToken(type)}::${name}`;

describe.each(pluginBuilds())("the plugin, %s", (_label, command, args) => {
  let world: World;
  let plugin: PluginProcess;
  const call = <Res>(method: string, request: unknown) => plugin.call<Res>(method, request);

  beforeAll(async () => {
    world = await startWorld();
    plugin = await startPluginProcess(command, args);
  }, 60_000);

  afterAll(async () => {
    plugin?.close();
    await world?.close();
  });

  it("answers the engine as before: its info and schema, configuration with secrets accepted and no preview of creates, CheckConfig left to the engine", async () => {
    const info = await call<{ getVersion(): string }>("getPluginInfo", new Empty());
    expect(info.getVersion()).toMatch(/^\d+\.\d+\.\d+/);
    const schema = await call<providerPb.GetSchemaResponse>("getSchema", new providerPb.GetSchemaRequest());
    expect(JSON.parse(schema.getSchema())).toMatchObject({ name: "forge" });

    const configure = new providerPb.ConfigureRequest();
    configure.setArgs(struct(conceal({ baseUrl: world.emulator.url, token: world.user("root").token }, ["token"])!));
    const configured = await call<providerPb.ConfigureResponse>("configure", configure);
    expect(configured.toObject()).toMatchObject({
      acceptsecrets: true,
      acceptresources: true,
      acceptoutputs: true,
      supportspreview: false,
    });
    await expect(call("checkConfig", new providerPb.CheckRequest())).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("answers check failures, a replacing diff and an unknown method as the engine reads them", async () => {
    const check = new providerPb.CheckRequest();
    check.setUrn(urnOf("GroupLabel", "bad"));
    check.setNews(struct({ group: "acme", name: "bad", color: "not a colour" }));
    const checked = await call<providerPb.CheckResponse>("check", check);
    expect(checked.getFailuresList().map((failure) => failure.getReason())).toEqual([
      expect.stringMatching(/^color: "not a colour" is not/),
    ]);

    const diff = new providerPb.DiffRequest();
    diff.setId("acme:1");
    diff.setUrn(urnOf("GroupLabel", "moved"));
    diff.setOlds(struct({ group: "acme", name: "moved", color: "#aa0000" }));
    diff.setNews(struct({ group: "other", name: "moved", color: "#aa0000" }));
    const differs = await call<providerPb.DiffResponse>("diff", diff);
    expect(differs.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(differs.getReplacesList()).toContain("group");

    await expect(call("construct", new providerPb.ConstructRequest())).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("reads an object by its id alone, marked as an import; deleting it unmatched leaves it on the forge and says so in the engine's log, under its URN", async () => {
    const { body: label } = await world.api.request<{ id: number; name: string }>("POST", "/groups/:group/labels", {
      group: "acme",
      name: "by-hand",
      color: "#00aa00",
    });
    const urn = urnOf("GroupLabel", "adopted");
    const read = new providerPb.ReadRequest();
    read.setId(`acme:${label.id}`);
    read.setUrn(urn);
    const found = await call<providerPb.ReadResponse>("read", read);
    expect(found.getProperties()!.toJavaScript()).toMatchObject({ name: "by-hand", color: "#00aa00" });
    const inputs = found.getInputs()!.toJavaScript();
    expect(inputs).toHaveProperty("__importedAs");

    const drop = new providerPb.DeleteRequest();
    drop.setId(found.getId());
    drop.setUrn(urn);
    drop.setProperties(found.getProperties());
    drop.setOldInputs(found.getInputs());
    await call("delete", drop);
    expect((await world.api.list<{ name: string }>("/groups/:group/labels", { group: "acme" })).map((each) => each.name)).toContain(
      "by-hand",
    );
    // Answered once the message arrived: it is there now.
    expect(plugin.logged).toContainEqual({
      severity: 1,
      urn,
      message: expect.stringContaining("imported but never matched by the program"),
    });
  });

  it("a create that fails after the object exists answers the object's id and state, so that the engine records it", async () => {
    await world.emulator.admin("/settings", {
      method: "PUT",
      json: { storage_move_ms: 0, storage_move_error: "disk 100% full — ✓\nsecondary" },
    });
    const create = new providerPb.CreateRequest();
    create.setUrn(urnOf("RepositoryStorageMove", "move"));
    create.setProperties(struct({ kind: "project", sourceStorageName: "default", destinationStorageName: "secondary" }));
    const failure = await call("create", create).catch((error: grpc.ServiceError) => error);
    expect(failure).toMatchObject({ code: grpc.status.UNKNOWN, details: expect.stringContaining("disk 100% full — ✓\nsecondary") });
    const details = (failure as grpc.ServiceError).metadata.get("grpc-status-details-bin")[0] as Buffer;
    const [packed] = statusPb.Status.deserializeBinary(new Uint8Array(details)).getDetailsList();
    expect(packed!.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
    const recorded = providerPb.ErrorResourceInitFailed.deserializeBinary(packed!.getValue_asU8());
    expect(recorded.getId()).toBe("project:default:secondary");
    expect(recorded.getProperties()!.toJavaScript()).toMatchObject({ state: "failed" });
  });

  it("ends on the engine's signal, promptly and cleanly", async () => {
    const exited = new Promise<number | null>((resolve) => plugin.process.on("exit", resolve));
    plugin.process.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
