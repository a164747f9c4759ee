/**
 * Issue 27's emulator findings: the admin gate does not trust the Host header (DNS rebinding), a
 * request that cannot be authorized is refused before its body is read, an avatar named outside
 * Latin-1 is served (its name encoded as HTTP allows), and snippet file paths that leave the
 * repository are refused.
 */
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { call, TOKEN, useEmulator } from "./helpers";

const { api, emulator } = useEmulator();

/** A raw HTTP exchange, with the headers fetch will not let a caller set (Host). */
function raw(method: string, path: string, headers: Record<string, string>, body?: { size: number; send: number }): Promise<{ status: number; body: string }> {
  const { port } = new URL(emulator().url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: Number(port), method, path, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    // Part of the body only: the answer must come without the rest.
    if (body) req.write(Buffer.alloc(body.send, "a"));
    else req.end();
  });
}

describe("the admin gate", () => {
  it("refuses a request for another host name even when its Origin matches it (DNS rebinding)", async () => {
    const { port } = new URL(emulator().url);
    const rebound = await raw("GET", "/__emulator/settings", { Host: `rebind.example:${port}`, Origin: `http://rebind.example:${port}`, "PRIVATE-TOKEN": TOKEN.root });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/own address/);
    expect((await raw("GET", "/__emulator/settings", { Host: `localhost:${port}`, "PRIVATE-TOKEN": TOKEN.root })).status).toBe(200);
    expect((await raw("GET", "/__emulator/settings", { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}`, "PRIVATE-TOKEN": TOKEN.root })).status).toBe(200);
  });
});

describe("a request that cannot be authorized", () => {
  it("is refused before its body is read: an anonymous 19 MB form gets its 401 with one chunk sent, and others are served meanwhile", async () => {
    const size = 19 * 1024 * 1024;
    const refused = await raw("POST", "/api/v4/groups/acme/labels", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(size) }, { size, send: 64 * 1024 });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toEqual({ message: "401 Unauthorized" });
    const unknownToken = await raw("POST", "/api/v4/groups/acme/labels", { "Content-Type": "application/json", "Content-Length": String(size), "PRIVATE-TOKEN": "not-a-token" }, { size, send: 1024 });
    expect(unknownToken.status).toBe(401);
    expect((await api("GET", "/groups/acme", { as: "max" })).status).toBe(200);
    // An anonymous admin request is refused the same way.
    expect((await raw("POST", "/__emulator/reset", { "Content-Type": "application/json", "Content-Length": String(size) }, { size, send: 1024 })).status).toBe(401);
  });

  it("with a known token, is read and answered as usual", async () => {
    expect((await api("POST", "/groups/acme/labels", { as: "max", form: "name=gated&color=red" })).status).toBe(201);
  });
});

describe("avatars named outside Latin-1", () => {
  it("are served with the name in filename* (RFC 8187), also after a restart from the state file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forge-avatar-"));
    const statePath = join(dir, "state.json");
    const name = "ünï-аватар-😀.png";
    try {
      const first = await startEmulator({ statePath });
      const form = new FormData();
      form.append("avatar", new Blob(["PNG"]), name);
      const uploaded = await fetch(`${first.url}/api/v4/groups/acme`, { method: "PUT", headers: { "PRIVATE-TOKEN": TOKEN.olivia }, body: form });
      expect(uploaded.status).toBe(200);
      const served = async (url: string) => fetch(`${url}/api/v4/groups/acme/avatar`, { headers: { "PRIVATE-TOKEN": TOKEN.gus } });
      const file = await served(first.url);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-disposition")).toBe(`inline; filename="${name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`);
      await first.close();
      const second = await startEmulator({ statePath });
      expect((await served(second.url)).status).toBe(200);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("snippet file paths", () => {
  it.each(["../../x", "/abs", ".", "..", "a//b", "dir/", "dir/../x"])("refuses %s on create", async (path) => {
    const res = await api("POST", "/snippets", { as: "max", json: { title: "t", files: [{ file_path: path, content: "x" }] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "files[0][file_path] should be a valid file path" });
  });

  it("refuses them in an update's actions, and takes a path with folders", async () => {
    const created = await api("POST", "/snippets", { as: "max", json: { title: "t", files: [{ file_path: "docs/a.md", content: "x" }] } });
    expect(created.status).toBe(201);
    const update = (files: unknown[]) => api("PUT", `/snippets/${created.body.id}`, { as: "max", json: { files } });
    expect((await update([{ action: "create", file_path: "../escape.md", content: "y" }])).body).toEqual({ error: "files[0][file_path] should be a valid file path" });
    expect((await update([{ action: "move", previous_path: "docs/a.md", file_path: "/etc/passwd" }])).body).toEqual({ error: "files[0][file_path] should be a valid file path" });
    expect((await update([{ action: "move", previous_path: "../docs/a.md", file_path: "b.md" }])).body).toEqual({ error: "files[0][previous_path] should be a valid file path" });
    expect((await update([{ action: "move", previous_path: "docs/a.md", file_path: "notes/b.md" }])).status).toBe(200);
    expect((await call(emulator().url, "GET", `/snippets/${created.body.id}/files/main/${encodeURIComponent("notes/b.md")}/raw`, { as: "max" })).status).toBe(200);
  });
});
