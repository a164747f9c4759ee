import { describe, expect, it } from "vitest";
import { TOKEN, useEmulator } from "./helpers";

const { api, emulator } = useEmulator();

describe("routing", () => {
  it("answers an unknown route with the error key", async () => {
    for (const path of ["/nothing/here", "/groups/acme/nope"]) {
      const res = await api("GET", path, { as: "root" });
      expect(res.status).toBe(404);
      expect(res.text).toBe('{"error":"404 Not Found"}');
    }
    const outside = await fetch(`${emulator().url}/elsewhere`);
    expect(outside.status).toBe(404);
  });

  it("tolerates doubled and trailing slashes", async () => {
    expect((await api("GET", "//groups//acme/", { as: "dev" })).body.full_path).toBe("acme");
    const res = await fetch(`${emulator().url}/api/v4//broadcast_messages/`);
    expect(res.status).toBe(200);
  });

  it("takes a project or group :id as a number or an encoded full path, not an unencoded one", async () => {
    expect((await api("GET", "/groups/2", { as: "dev" })).body.full_path).toBe("acme/platform");
    expect((await api("GET", "/groups/acme%2Fplatform", { as: "dev" })).body.id).toBe(2);
    expect((await api("GET", "/projects/acme%2Fplatform%2Fdeployer", { as: "dev" })).body.id).toBe(3);
    expect((await api("GET", "/groups/acme/platform", { as: "dev" })).text).toBe('{"error":"404 Not Found"}');
  });
});

describe("request parsing", () => {
  it("accepts JSON bodies with any method, including {} on DELETE and a JSON content type on GET", async () => {
    const res = await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
      method: "GET",
      headers: { "PRIVATE-TOKEN": TOKEN.dev, "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    await api("POST", "/groups/acme/labels", { as: "max", json: { name: "x", color: "red" } });
    expect((await api("DELETE", "/groups/acme/labels/x", { as: "max", json: {} })).status).toBe(204);
  });

  it("reads nested form parameters name[0][key] and name[][key]", async () => {
    const indexed = await api("POST", "/projects/1/protected_environments", {
      as: "max",
      form: "name=a&deploy_access_levels[0][access_level]=40&deploy_access_levels[1][access_level]=30",
    });
    expect(indexed.body.deploy_access_levels.map((e: { access_level: number }) => e.access_level)).toEqual([40, 30]);
    const appended = await api("POST", "/projects/1/protected_environments", {
      as: "max",
      // A repeated key starts the next hash (Rack's rule): two elements, the second with two keys.
      form:
        "name=b&deploy_access_levels[][access_level]=40&deploy_access_levels[][access_level]=30" +
        "&deploy_access_levels[][group_inheritance_type]=1",
    });
    expect(appended.body.deploy_access_levels.map((e: any) => [e.access_level, e.group_inheritance_type])).toEqual([
      [40, 0],
      [30, 1],
    ]);
  });

  it("reads query parameters with bracket notation on GET", async () => {
    const res = await api("GET", "/broadcast_messages?per_page=1&filter[kind]=x", {});
    expect(res.status).toBe(200);
  });

  it("accepts multipart bodies", async () => {
    const form = new FormData();
    form.set("name", "multi");
    form.set("color", "#123456");
    const res = await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": TOKEN.max },
      body: form,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: "multi", color: "#123456" });
  });

  it("answers invalid JSON with 400", async () => {
    const res = await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": TOKEN.max, "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(res.status).toBe(400);
  });
});

describe("authentication", () => {
  it("takes the token from PRIVATE-TOKEN, Authorization: Bearer or private_token", async () => {
    expect((await api("GET", "/user", { as: "dev" })).body.username).toBe("dev");
    expect((await api("GET", "/user", { headers: { Authorization: `Bearer ${TOKEN.rita}` } })).body.username).toBe("rita");
    expect((await api("GET", `/user?private_token=${TOKEN.gus}`)).body.username).toBe("gus");
  });

  it("answers 401 without a token where one is needed, and for an unknown token anywhere", async () => {
    const none = await api("GET", "/user");
    expect(none.status).toBe(401);
    expect(none.text).toBe('{"message":"401 Unauthorized"}');
    const bad = await api("GET", "/broadcast_messages", { headers: { "PRIVATE-TOKEN": "wrong" } });
    expect(bad.status).toBe(401);
  });

  it("lets only administrators use sudo", async () => {
    const denied = await api("GET", "/user?sudo=dev", { as: "max" });
    expect(denied.status).toBe(403);
    expect(denied.text).toBe('{"message":"403 Forbidden - Must be admin to use sudo"}');
    expect((await api("GET", "/user", { as: "root", headers: { Sudo: "rita" } })).body.username).toBe("rita");
    expect((await api("GET", "/user?sudo=4", { as: "root" })).body.username).toBe("dev");
  });
});

describe("lookups", () => {
  it("serves the group record", async () => {
    const res = await api("GET", "/groups/acme%2Fplatform", { as: "gus" });
    expect(res.body).toMatchObject({
      id: 2,
      name: "Platform",
      path: "platform",
      full_path: "acme/platform",
      full_name: "Acme / Platform",
      parent_id: 1,
      visibility: "private",
      description: "",
      created_at: "2024-01-01T00:00:00.000Z",
      web_url: `${emulator().url}/groups/acme/platform`,
    });
  });

  it("serves the project record and hides private ones from outsiders", async () => {
    const res = await api("GET", "/projects/acme%2Fweb", { as: "gus" });
    expect(res.body).toMatchObject({
      id: 1,
      name: "Web",
      path: "web",
      path_with_namespace: "acme/web",
      namespace: { id: 1, full_path: "acme" },
      web_url: `${emulator().url}/acme/web`,
    });
    const hidden = await api("GET", "/projects/acme%2Fweb", { as: "nomad" });
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe('{"message":"404 Project Not Found"}');
    expect((await api("GET", "/groups/acme")).text).toBe('{"message":"404 Group Not Found"}');
  });

  it("serves the current user", async () => {
    const res = await api("GET", "/user", { as: "root" });
    expect(res.body).toMatchObject({ id: 1, username: "root", name: "Administrator", is_admin: true, state: "active" });
  });
});
