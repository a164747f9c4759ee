import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const { api, admin } = useEmulator();

const UNAUTHORIZED = '{"message":"401 Unauthorized"}';

/**
 * The API's rule on reads without a token: only broadcast message reads, a public
 * group's read and the group listing work. Everything else answers 401, even when what it reads
 * is public.
 */
describe("anonymous callers", () => {
  it("read broadcast messages, public groups and the group listing", async () => {
    await admin("PUT", "/groups/acme", { visibility: "public" });
    expect((await api("GET", "/broadcast_messages")).status).toBe(200);
    expect((await api("GET", "/groups/acme")).status).toBe(200);
    expect((await api("GET", "/groups")).body.map((g: { full_path: string }) => g.full_path)).toEqual(["acme"]);
  });

  it("still get 404 for a private group", async () => {
    expect((await api("GET", "/groups/acme")).text).toBe('{"message":"404 Group Not Found"}');
  });

  it("get 401 everywhere else, even for public groups and projects", async () => {
    await admin("PUT", "/groups/acme", { visibility: "public" });
    await admin("PUT", "/projects/acme%2Fweb", { visibility: "public" });
    for (const path of [
      "/groups/acme/labels",
      "/groups/acme/protected_environments",
      "/projects/acme%2Fweb",
      "/projects",
      "/projects/acme%2Fweb/cluster_agents",
      "/projects/acme%2Fweb/job_token_scope",
      "/users",
      "/user",
    ]) {
      const res = await api("GET", path);
      expect(res.status, path).toBe(401);
      expect(res.text).toBe(UNAUTHORIZED);
    }
  });

  it("are still told an unknown route is not there (404 before 401)", async () => {
    expect((await api("GET", "/nowhere")).text).toBe('{"error":"404 Not Found"}');
  });
});
