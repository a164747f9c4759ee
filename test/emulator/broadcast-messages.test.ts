import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const { api } = useEmulator();

describe("broadcast messages", () => {
  it("applies the defaults: now, one hour, banner, indigo, not dismissable, active", async () => {
    const before = Date.now();
    const res = await api("POST", "/broadcast_messages", { as: "root", json: { message: "Maintenance" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: "Maintenance",
      broadcast_type: "banner",
      theme: "indigo",
      dismissable: false,
      active: true,
      target_access_levels: [],
      target_path: "",
    });
    const startsAt = Date.parse(res.body.starts_at);
    expect(startsAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(res.body.ends_at) - startsAt).toBeGreaterThanOrEqual(3_599_000);
    expect(res.body.starts_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("computes active from the time window and keeps given values", async () => {
    const res = await api("POST", "/broadcast_messages", {
      as: "root",
      json: {
        message: "Later",
        starts_at: "2099-01-01T00:00:00Z",
        ends_at: "2099-01-02T00:00:00Z",
        target_access_levels: [30, 40],
        broadcast_type: "notification",
        theme: "light-blue",
        dismissable: true,
      },
    });
    expect(res.body).toMatchObject({
      active: false,
      starts_at: "2099-01-01T00:00:00.000Z",
      ends_at: "2099-01-02T00:00:00.000Z",
      target_access_levels: [30, 40],
      broadcast_type: "notification",
      theme: "light-blue",
      dismissable: true,
    });
  });

  it("accepts target_access_levels in form bracket notation", async () => {
    const res = await api("POST", "/broadcast_messages", {
      as: "root",
      form: "message=hi&target_access_levels[]=10&target_access_levels[]=50&dismissable=true",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ target_access_levels: [10, 50], dismissable: true });
  });

  it("takes null optional parameters as not given", async () => {
    const res = await api("POST", "/broadcast_messages", {
      as: "root",
      json: { message: "n", font: null, target_path: null, theme: null, ends_at: null },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ font: "#FFFFFF", target_path: "", theme: "indigo" });
  });

  it.each([
    [{ message: "m", theme: "purple" }, '{"error":"theme does not have a valid value"}'],
    [{ message: "m", broadcast_type: "popup" }, '{"error":"broadcast_type does not have a valid value"}'],
    [{ message: "m", target_access_levels: [10, 60] }, '{"error":"target_access_levels does not have a valid value"}'],
    [{}, '{"error":"message is missing"}'],
  ])("refuses %j with a parameter error", async (json, expected) => {
    const res = await api("POST", "/broadcast_messages", { as: "root", json });
    expect(res.status).toBe(400);
    expect(res.text).toBe(expected);
  });

  it("needs an administrator to write: 401 without or with a bad token, 403 for a user", async () => {
    const anonymous = await api("POST", "/broadcast_messages", { json: { message: "m" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toBe('{"message":"401 Unauthorized"}');
    const badToken = await api("POST", "/broadcast_messages", { json: { message: "m" }, headers: { "PRIVATE-TOKEN": "nope" } });
    expect(badToken.status).toBe(401);
    for (const as of ["olivia", "nomad"] as const) {
      const res = await api("POST", "/broadcast_messages", { as, json: { message: "m" } });
      expect(res.status).toBe(403);
      expect(res.text).toBe('{"message":"403 Forbidden"}');
    }
  });

  it("is readable without authentication, updated and deleted by an administrator", async () => {
    const id = (await api("POST", "/broadcast_messages", { as: "root", json: { message: "one" } })).body.id;
    expect((await api("GET", `/broadcast_messages/${id}`)).body.message).toBe("one");
    const updated = await api("PUT", `/broadcast_messages/${id}`, { as: "root", json: { theme: "dark" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ message: "one", theme: "dark" });
    expect((await api("PUT", `/broadcast_messages/${id}`, { as: "max", json: { theme: "red" } })).status).toBe(403);
    const deleted = await api("DELETE", `/broadcast_messages/${id}`, { as: "root" });
    expect(deleted.status).toBe(204);
    const gone = await api("GET", `/broadcast_messages/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('{"message":"404 Not found"}');
  });

  it("refuses a non-integer id", async () => {
    const res = await api("GET", "/broadcast_messages/abc");
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"id is invalid"}');
  });

  it("lists newest first, paginated", async () => {
    for (const message of ["a", "b", "c"]) await api("POST", "/broadcast_messages", { as: "root", json: { message } });
    const res = await api("GET", "/broadcast_messages?per_page=2");
    expect(res.body.map((m: { message: string }) => m.message)).toEqual(["c", "b"]);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("2");
  });
});
