/**
 * What each face adds to the engine's answers, on the adapters alone (the life cycle itself runs
 * against the emulator in the contract layer): the dynamic face's provider and `import` input,
 * the plugin face's secret marks, both on the object a half-done create leaves.
 */
import { describe, expect, it } from "vitest";
import type { State } from "../../provider/engine/declaration";
import type { ResourceOperations } from "../../provider/engine/operations";
import { PartialCreateError } from "../../provider/engine/outcomes";
import { dynamicOperations } from "../../provider/faces/dynamic";
import { conceal, pluginFaceProvider, reveal } from "../../provider/plugin/face";
import { redact } from "../../provider/redaction";
import { declarations } from "../../provider/resources";

/** Operations of a cluster agent token whose create records what it was given, and can fail half-way. */
function recordingOperations(failHalfWay: boolean) {
  const calls: { inputs: State; options: unknown }[] = [];
  const operations = {
    declaration: declarations.clusterAgentToken,
    async create(inputs: State, options: unknown) {
      calls.push({ inputs, options });
      if (failHalfWay) throw new PartialCreateError("read back failed", "acme/web:1:2", { ...inputs, tokenId: 2, token: "glagent-plain" });
      return { id: "acme/web:1:2", outs: { ...inputs, tokenId: 2, token: "glagent-plain" } };
    },
  } as unknown as ResourceOperations;
  return { operations, calls };
}

const INPUTS = { project: "acme/web", agentId: 1, name: "ci" };

describe("the dynamic face", () => {
  it("hands the engine neither its provider nor the import input, and the import id as an option", async () => {
    const { operations, calls } = recordingOperations(false);
    await dynamicOperations(operations).create({ ...INPUTS, __provider: "code", importId: "acme/web:1:2" });
    expect(calls).toEqual([{ inputs: INPUTS, options: { importId: "acme/web:1:2" } }]);
  });

  it("keeps the import id in the inputs check returns, which the engine creates with; the create that imports is checked as the importing run", async () => {
    const importing: unknown[] = [];
    const operations = {
      async check(_olds: State, news: State, options: { importing?: boolean } = {}) {
        importing.push(options.importing);
        return { inputs: { ...news, __createdAfter: "t" } };
      },
    } as unknown as ResourceOperations;
    const checked = await dynamicOperations(operations).check({}, { ...INPUTS, __provider: "code", importId: "acme/web:1:2" });
    expect(checked.inputs).toEqual({ ...INPUTS, __createdAfter: "t", importId: "acme/web:1:2" });
    // Later runs keep the option: a resource in the state is not imported again.
    await dynamicOperations(operations).check(
      { ...INPUTS, __provider: "code", importId: "acme/web:1:2" },
      { ...INPUTS, __provider: "code", importId: "acme/web:1:2" },
    );
    const plain = await dynamicOperations(operations).check({}, { ...INPUTS, __provider: "code" });
    expect(plain.inputs).toEqual({ ...INPUTS, __createdAfter: "t" });
    expect(importing).toEqual([true, false, false]);
  });

  it("puts its provider on the object a half-done create records", async () => {
    const { operations } = recordingOperations(true);
    const error = await dynamicOperations(operations)
      .create({ ...INPUTS, __provider: "code" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PartialCreateError);
    expect((error as PartialCreateError).properties).toMatchObject({ tokenId: 2, __provider: "code" });
  });
});

describe("the plugin face", () => {
  const plugin = (operations: ResourceOperations) =>
    pluginFaceProvider({
      version: "0.0.0",
      schema: "{}",
      operationsOf: () => operations,
      invokables: async () => ({ lookups: {}, actions: [] }),
      clientOf: () => {
        throw new Error("no client");
      },
    });
  const urn = "urn:pulumi:dev::p::forge:index:ClusterAgentToken::ci";

  it("marks the declared secrets of what it creates", async () => {
    const { operations } = recordingOperations(false);
    const result = await plugin(operations).create!(urn, INPUTS);
    expect([...reveal(result.outs).secret]).toEqual(["token"]);
  });

  it("marks them on the object a half-done create records, so the state never holds them in plain text", async () => {
    const { operations } = recordingOperations(true);
    const error = (await plugin(operations).create!(urn, INPUTS).catch((caught: unknown) => caught)) as PartialCreateError;
    expect(error).toBeInstanceOf(PartialCreateError);
    expect(JSON.stringify(error.properties)).not.toContain('"token":"glagent-plain"');
    expect([...reveal(error.properties).secret]).toEqual(["token"]);
  });
});

describe("reveal, the plugin face's reading of the wire's secret marks", () => {
  it("finds a mark at any depth, strips every one, and remembers each value so that no message shows it", () => {
    const bag: State = {
      name: "plain",
      token: conceal({ token: "tok-top-3f9a" }, ["token"])!["token"],
      nested: { rules: [{ value: conceal({ v: "tok-deep-77c1" }, ["v"])!["v"] }, { value: "open" }] },
      list: ["a", conceal({ v: "tok-list-5e20" }, ["v"])!["v"]],
    };
    const { plain, secret } = reveal(bag);
    expect(plain).toEqual({
      name: "plain",
      token: "tok-top-3f9a",
      nested: { rules: [{ value: "tok-deep-77c1" }, { value: "open" }] },
      list: ["a", "tok-list-5e20"],
    });
    expect([...secret].sort()).toEqual(["list", "nested", "token"]);
    expect(redact("tok-top-3f9a tok-deep-77c1 tok-list-5e20")).not.toMatch(/tok-/);
  });

  it("leaves a value with no mark as it came, and never changes what it was given", () => {
    const untouched = { group: "acme", rules: [{ level: 30 }] };
    const marked = { kept: untouched, token: conceal({ token: "tok-given-91b2" }, ["token"])!["token"] };
    const before = JSON.stringify(marked);
    const { plain, secret } = reveal(marked);
    expect(plain["kept"]).toBe(untouched);
    expect([...secret]).toEqual(["token"]);
    expect(JSON.stringify(marked)).toBe(before);
  });
});
