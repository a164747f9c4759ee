/*
 * Wire details independent clients tripped on: HEAD answers as GET without a body, the token is
 * checked before the edition, and parameters with a NUL or invalid UTF-8 are refused (400) as the
 * service refuses them.
 */
import { expect, it } from "vitest";
import { TOKEN, useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

it("HEAD on a GET route answers as GET, without the body", async () => {
  const get = await api("GET", "/groups/acme/labels", { as: "root" });
  const head = await api("HEAD", "/groups/acme/labels", { as: "root" });
  expect(head.status).toBe(get.status);
  expect(head.text).toBe("");
  expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
  expect((await api("HEAD", "/no/such/route", { as: "root" })).status).toBe(404);
});

it("a bad token is 401 before a route of an edition the instance lacks answers 404", async () => {
  await admin("PUT", "/settings", { tier: "ultimate", offering: "hosted" });
  expect((await api("GET", "/admin/clusters", { headers: { "PRIVATE-TOKEN": "not-a-token" } })).status).toBe(401);
  expect((await api("GET", "/admin/clusters")).status).toBe(401);
  expect((await api("GET", "/admin/clusters", { as: "root" })).status).toBe(404);
});

it("names with a NUL character or invalid UTF-8 are refused with 400, in JSON, forms and queries", async () => {
  const nul = await api("POST", "/groups/acme/labels", { as: "root", json: { name: "bad\u0000name", color: "red" } });
  expect(nul.status).toBe(400);
  expect(nul.text).toContain("name contains a NUL character");
  const form = await api("POST", "/groups/acme/labels", { as: "root", form: "name=bad%FFname&color=red" });
  expect(form.status).toBe(400);
  expect(form.text).toContain("name is not valid UTF-8");
  const raw = await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": TOKEN.root, "Content-Type": "application/json" },
    body: Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from([0xc3, 0x28]), Buffer.from('","color":"red"}')]),
  });
  expect(raw.status).toBe(400);
  expect(await raw.text()).toContain("body is not valid UTF-8");
  expect((await api("GET", "/groups/acme/labels?search=%FF", { as: "root" })).status).toBe(400);
  expect((await api("GET", "/groups/acme/labels", { as: "root" })).body).toEqual([]);
  // Valid UTF-8 beyond ASCII is fine.
  expect((await api("POST", "/groups/acme/labels", { as: "root", json: { name: "bug 🐛 ü", color: "red" } })).status).toBe(201);
});

it("a direct project role below the role a user inherits from the project's groups is refused, naming the inherited level", async () => {
  // dev is a Developer of acme: a Reporter role in acme/web is below it.
  const dev = (await api("GET", "/users?username=dev", { as: "root" })).body[0].id;
  const lower = await api("POST", "/projects/acme%2Fweb/members", { as: "root", json: { user_id: dev, access_level: 20 } });
  expect(lower.status).toBe(400);
  expect(lower.body).toEqual({
    message: { access_level: ["should be greater than or equal to Developer inherited membership from group acme"] },
  });
  expect((await api("POST", "/projects/acme%2Fweb/members", { as: "root", json: { user_id: dev, access_level: 40 } })).status).toBe(201);
  const down = await api("PUT", `/projects/acme%2Fweb/members/${dev}`, { as: "root", json: { access_level: 20 } });
  expect(down.status).toBe(400);
});
