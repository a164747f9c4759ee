/**
 * provider/holdings/connection.ts `clientsOf`: the resources of one provider and forge share one
 * connection (their settings, CA and key files resolved once, not per resource), another provider
 * has its own, and a connection that fails names each resource it was asked for.
 */
import { describe, expect, it, vi } from "vitest";
import { clientsOf } from "../../provider/holdings/connection";

const resolved = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../provider/client", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../provider/client")>();
  return {
    ...real,
    resolveConnection: (...args: Parameters<typeof real.resolveConnection>) => {
      resolved.count += 1;
      return real.resolveConnection(...args);
    },
  };
});

const DEFAULT_PROVIDER = "urn:pulumi:test::p::pulumi:providers:forge::default";
const subject = (name: string, forge: string, baseUrl: string, providerUrn = DEFAULT_PROVIDER) => ({
  name,
  forge: { url: forge, from: "resource" as const },
  provider: { urn: providerUrn, config: { baseUrl, token: "glpat-0123456789abcdef" } },
});

describe("clientsOf", () => {
  it("resolves one connection for the resources of one provider and forge, and one more for another provider", async () => {
    const clientOf = clientsOf({});
    resolved.count = 0;
    for (const name of ["a", "b", "c", "d"]) await clientOf(subject(name, "http://127.0.0.1:8080", "http://127.0.0.1:8080"));
    expect(resolved.count).toBe(1);
    await clientOf(subject("e", "http://127.0.0.1:8080", "http://127.0.0.1:8080", `${DEFAULT_PROVIDER}-second`));
    expect(resolved.count).toBe(2);
  });

  it("names each resource a failed connection was asked for", async () => {
    const clientOf = clientsOf({});
    await expect(clientOf(subject("first", "http://127.0.0.1:8080", "http://127.0.0.1:9090"))).rejects.toThrow(/^first was made on/);
    await expect(clientOf(subject("second", "http://127.0.0.1:8080", "http://127.0.0.1:9090"))).rejects.toThrow(/^second was made on/);
  });
});
