import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

const { api, emulator } = useEmulator();

/** Seven broadcast messages make a listing with several pages (ids 7..1, newest first). */
async function seedMessages(count = 7): Promise<void> {
  for (let i = 1; i <= count; i++) await api("POST", "/broadcast_messages", { as: "root", json: { message: `m${i}` } });
}

function links(header: string | null): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (header ?? "").split(", ")) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (match) result[match[2]!] = match[1]!;
  }
  return result;
}

describe("offset pagination", () => {
  it("sets every header on a middle page, with absolute links that keep the query", async () => {
    await seedMessages();
    const res = await api("GET", "/broadcast_messages?per_page=3&page=2&extra=keep%20me");
    expect(res.body.map((m: { message: string }) => m.message)).toEqual(["m4", "m3", "m2"]);
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    expect(res.headers.get("x-total")).toBe("7");
    expect(res.headers.get("x-total-pages")).toBe("3");
    const rel = links(res.headers.get("link"));
    expect(Object.keys(rel)).toEqual(["prev", "next", "first", "last"]);
    const base = `${emulator().url}/api/v4/broadcast_messages`;
    expect(rel.next).toBe(`${base}?per_page=3&page=3&extra=keep+me`);
    expect(rel.prev).toBe(`${base}?per_page=3&page=1&extra=keep+me`);
    expect(rel.last).toBe(`${base}?per_page=3&page=3&extra=keep+me`);
  });

  it("walks every page through rel=next, verbatim", async () => {
    await seedMessages();
    const seen: string[] = [];
    let next: string | undefined = `${emulator().url}/api/v4/broadcast_messages?per_page=2`;
    while (next) {
      const res = await call(emulator().url, "GET", next);
      seen.push(...res.body.map((m: { message: string }) => m.message));
      next = links(res.headers.get("link")).next;
    }
    expect(seen).toEqual(["m7", "m6", "m5", "m4", "m3", "m2", "m1"]);
  });

  it("leaves X-Prev-Page and X-Next-Page empty on a single page, and X-Total-Pages at least 1", async () => {
    const res = await api("GET", "/broadcast_messages");
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-prev-page")).toBe("");
    expect(res.headers.get("x-next-page")).toBe("");
    expect(res.headers.get("x-total")).toBe("0");
    expect(res.headers.get("x-total-pages")).toBe("1");
    expect(res.headers.get("x-per-page")).toBe("20");
    expect(Object.keys(links(res.headers.get("link")))).toEqual(["first", "last"]);
  });

  it("clamps per_page to 100", async () => {
    const res = await api("GET", "/broadcast_messages?per_page=500");
    expect(res.headers.get("x-per-page")).toBe("100");
  });

  it("refuses per_page=0", async () => {
    const res = await api("GET", "/broadcast_messages?per_page=0");
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"per_page does not have a valid value"}');
  });

  it("answers 200 [] past the last page", async () => {
    await seedMessages(3);
    const res = await api("GET", "/broadcast_messages?page=9&per_page=2");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("");
  });
});
