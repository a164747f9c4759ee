import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

const move = (from: string, path: string) => admin("PUT", `/projects/${encodeURIComponent(from)}`, { path });

describe("a moved project", () => {
  it("is moved by the admin endpoint, which answers its new path", async () => {
    const res = await move("acme/web", "website");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 1, path_with_namespace: "acme/website", visibility: "private" });
    expect((await api("GET", "/projects/acme%2Fwebsite", { as: "max" })).body.path_with_namespace).toBe("acme/website");
    expect((await api("GET", "/projects/1", { as: "max" })).status).toBe(200);
  });

  it("answers a GET at its old path with 301 and the same URL at the new path", async () => {
    await move("acme/web", "website");
    const base = `${emulator().url}/api/v4`;
    const plain = await fetch(`${base}/projects/acme%2Fweb`, { headers: { "PRIVATE-TOKEN": "forge-max-token" }, redirect: "manual" });
    expect(plain.status).toBe(301);
    expect(plain.headers.get("location")).toBe(`${base}/projects/acme%2Fwebsite`);
    const below = await fetch(`${base}/projects/ACME%2Fweb/cluster_agents?per_page=5`, {
      headers: { "PRIVATE-TOKEN": "forge-max-token" },
      redirect: "manual",
    });
    expect(below.status).toBe(301);
    expect(below.headers.get("location")).toBe(`${base}/projects/acme%2Fwebsite/cluster_agents?per_page=5`);
  });

  it("answers other methods at its old path with 405", async () => {
    await move("acme/web", "website");
    for (const res of [
      await api("POST", "/projects/acme%2Fweb/cluster_agents", { as: "max", json: { name: "a" } }),
      await api("PATCH", "/projects/acme%2Fweb/job_token_scope", { as: "max", json: { enabled: true } }),
    ]) {
      expect(res.status).toBe(405);
      expect(res.text).toBe('{"message":"405 Method Not Allowed"}');
    }
  });

  it("does not tell callers who cannot see it where it went", async () => {
    await move("acme/web", "website");
    const res = await api("GET", "/projects/acme%2Fweb", { as: "nomad" });
    expect(res.status).toBe(404);
    expect(res.text).toBe('{"message":"404 Project Not Found"}');
  });

  it("refuses a path another project of the namespace has", async () => {
    expect((await move("acme/web", "api")).status).toBe(400);
  });
});
