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
        broadcast_type: "banner",
        theme: "light-blue",
        dismissable: true,
      },
    });
    expect(res.body).toMatchObject({
      active: false,
      starts_at: "2099-01-01T00:00:00.000Z",
      ends_at: "2099-01-02T00:00:00.000Z",
      target_access_levels: [30, 40],
      broadcast_type: "banner",
      theme: "light-blue",
      dismissable: true,
    });
  });

  it("gives notifications no theme, and refuses one sent for a notification", async () => {
    const notification = await api("POST", "/broadcast_messages", { as: "root", json: { message: "n", broadcast_type: "notification" } });
    expect(notification.status).toBe(201);
    expect(notification.body.theme).toBeNull();
    const refused = await api("POST", "/broadcast_messages", {
      as: "root",
      json: { message: "n", broadcast_type: "notification", theme: "red" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { theme: ["is only available for banners"] } });

    // A banner turned into a notification keeps no visible theme; a theme sent with the change is refused.
    const banner = (await api("POST", "/broadcast_messages", { as: "root", json: { message: "b", theme: "dark" } })).body.id;
    expect(
      (await api("PUT", `/broadcast_messages/${banner}`, { as: "root", json: { broadcast_type: "notification", theme: "red" } })).status,
    ).toBe(400);
    const turned = await api("PUT", `/broadcast_messages/${banner}`, { as: "root", json: { broadcast_type: "notification" } });
    expect(turned.body).toMatchObject({ broadcast_type: "notification", theme: null });
    expect((await api("PUT", `/broadcast_messages/${banner}`, { as: "root", json: { theme: "red" } })).status).toBe(400);
    const back = await api("PUT", `/broadcast_messages/${banner}`, { as: "root", json: { broadcast_type: "banner" } });
    expect(back.body).toMatchObject({ broadcast_type: "banner", theme: "dark" });
  });

  it("takes font as a hex code of 3 or 6 digits, kept as sent, and refuses colour names", async () => {
    for (const font of ["#FFF", "#1f1E24", "#FFFFFF"]) {
      const res = await api("POST", "/broadcast_messages", { as: "root", json: { message: "m", font } });
      expect(res.status, font).toBe(201);
      expect(res.body.font).toBe(font);
    }
    for (const font of ["white", "FFFFFF", "#FFFF", "#GGGGGG"]) {
      const res = await api("POST", "/broadcast_messages", { as: "root", json: { message: "m", font } });
      expect(res.status, font).toBe(400);
      expect(res.body).toEqual({ message: { font: ["must be a valid color code"] } });
    }
  });

  it("refuses a window that ends when or before it starts", async () => {
    for (const ends_at of ["2099-01-01T00:00:00Z", "2098-12-31T23:59:59Z"]) {
      const res = await api("POST", "/broadcast_messages", {
        as: "root",
        json: { message: "m", starts_at: "2099-01-01T00:00:00Z", ends_at },
      });
      expect(res.status, ends_at).toBe(400);
      expect(res.body).toEqual({ message: { ends_at: ["must be after the start date"] } });
    }
  });

  it("refuses a blank message on create and update", async () => {
    expect((await api("POST", "/broadcast_messages", { as: "root", json: { message: "  " } })).body).toEqual({
      message: { message: ["can't be blank"] },
    });
    const id = (await api("POST", "/broadcast_messages", { as: "root", json: { message: "m" } })).body.id;
    expect((await api("PUT", `/broadcast_messages/${id}`, { as: "root", json: { message: "\t" } })).status).toBe(400);
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
