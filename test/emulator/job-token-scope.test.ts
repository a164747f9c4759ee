import { describe, expect, it } from "vitest";
import { type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const SCOPE = "/projects/acme%2Fweb/job_token_scope";

describe("job token scope settings", () => {
  it("starts disabled, PATCH answers 204 and the switch reads back", async () => {
    expect((await api("GET", SCOPE, { as: "max" })).body).toEqual({ inbound_enabled: false, outbound_enabled: true });
    const patch = await api("PATCH", SCOPE, { as: "max", json: { enabled: true } });
    expect(patch.status).toBe(204);
    expect(patch.text).toBe("");
    expect((await api("GET", SCOPE, { as: "max" })).body.inbound_enabled).toBe(true);
    expect((await api("PATCH", SCOPE, { as: "max", form: "enabled=false" })).status).toBe(204);
    expect((await api("GET", SCOPE, { as: "max" })).body.inbound_enabled).toBe(false);
  });

  it("reads outbound_enabled as whether this project's job tokens can reach another project", async () => {
    const outbound = async () => (await api("GET", SCOPE, { as: "max" })).body.outbound_enabled;
    for (const other of ["acme%2Fapi", "acme%2Fplatform%2Fdeployer"]) {
      await api("PATCH", `/projects/${other}/job_token_scope`, { as: "max", json: { enabled: true } });
    }
    expect(await outbound()).toBe(false);
    await api("POST", "/projects/acme%2Fapi/job_token_scope/allowlist", { as: "max", json: { target_project_id: 1 } });
    expect(await outbound()).toBe(true);
    await api("DELETE", "/projects/acme%2Fapi/job_token_scope/allowlist/1", { as: "max" });
    // A group on the allowlist lets in the projects below it.
    await api("POST", "/projects/acme%2Fplatform%2Fdeployer/job_token_scope/groups_allowlist", { as: "max", json: { target_group_id: 1 } });
    expect(await outbound()).toBe(true);
  });

  it("reads outbound_enabled false while the instance enforces allowlists that do not list the project", async () => {
    await admin("PUT", "/settings", { job_token_scope_enforced: true });
    expect((await api("GET", SCOPE, { as: "max" })).body.outbound_enabled).toBe(false);
  });

  it("requires enabled", async () => {
    const res = await api("PATCH", SCOPE, { as: "max", json: {} });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"enabled is missing"}');
  });

  it("refuses to disable while the instance enforces allowlists, and reads as enabled", async () => {
    await admin("PUT", "/settings", { job_token_scope_enforced: true });
    expect((await api("GET", SCOPE, { as: "max" })).body.inbound_enabled).toBe(true);
    const res = await api("PATCH", SCOPE, { as: "max", json: { enabled: false } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^400 Bad request - .*enforced/);
    expect((await api("PATCH", SCOPE, { as: "max", json: { enabled: true } })).status).toBe(204);
  });

  it.each<[SeedUser, number]>([
    ["root", 200],
    ["olivia", 200],
    ["max", 200],
    ["dev", 403],
    ["nomad", 404],
  ])("as %s answers %i (Maintainer needed)", async (as, status) => {
    expect((await api("GET", SCOPE, { as })).status).toBe(status);
  });
});

describe("job token project allowlist", () => {
  it("adds, lists (limited records of the added projects), refuses duplicates and removes", async () => {
    const added = await api("POST", `${SCOPE}/allowlist`, { as: "max", json: { target_project_id: 2 } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ source_project_id: 1, target_project_id: 2 });

    const list = await api("GET", `${SCOPE}/allowlist`, { as: "max" });
    expect(list.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(["acme/api"]);
    expect(list.headers.get("x-total")).toBe("1");
    expect(Object.keys(list.body[0]).sort()).toEqual(
      [
        "avatar_url",
        "created_at",
        "default_branch",
        "description",
        "http_url_to_repo",
        "id",
        "last_activity_at",
        "name",
        "name_with_namespace",
        "namespace",
        "path",
        "path_with_namespace",
        "ssh_url_to_repo",
        "star_count",
        "tag_list",
        "topics",
        "web_url",
      ].sort(),
    );
    expect(list.body[0].namespace).toMatchObject({ id: 1, kind: "group", full_path: "acme", parent_id: null });

    const duplicate = await api("POST", `${SCOPE}/allowlist`, { as: "max", json: { target_project_id: 2 } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.text).toBe('{"message":"400 Bad request - This project is already in the job token allowlist."}');

    expect((await api("DELETE", `${SCOPE}/allowlist/2`, { as: "max" })).status).toBe(204);
    expect((await api("GET", `${SCOPE}/allowlist`, { as: "max" })).body).toEqual([]);
  });

  it("does not list the source project, which is no entry: it cannot be added or removed", async () => {
    expect((await api("GET", `${SCOPE}/allowlist`, { as: "max" })).body).toEqual([]);
    const added = await api("POST", `${SCOPE}/allowlist`, { as: "max", json: { target_project_id: 1 } });
    expect(added.status).toBe(400);
    expect(added.text).toBe('{"message":"400 Bad request - This project is already in the job token allowlist."}');
    const removed = await api("DELETE", `${SCOPE}/allowlist/1`, { as: "max" });
    expect(removed.status).toBe(400);
    expect(removed.text).toBe('{"message":"400 Bad request - Source project cannot be removed from the job token scope"}');
  });

  it("answers 404 for an unknown target", async () => {
    const res = await api("POST", `${SCOPE}/allowlist`, { as: "max", json: { target_project_id: 999 } });
    expect(res.status).toBe(404);
    expect(res.text).toBe('{"message":"404 Project Not Found"}');
  });

  it("needs Maintainer to add", async () => {
    expect((await api("POST", `${SCOPE}/allowlist`, { as: "dev", json: { target_project_id: 2 } })).status).toBe(403);
  });
});

describe("job token group allowlist", () => {
  it("adds, lists {id, web_url, name}, refuses duplicates and removes", async () => {
    const added = await api("POST", `${SCOPE}/groups_allowlist`, { as: "max", json: { target_group_id: 2 } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ source_project_id: 1, target_group_id: 2 });
    const list = await api("GET", `${SCOPE}/groups_allowlist`, { as: "max" });
    expect(list.body).toEqual([{ id: 2, web_url: expect.stringMatching(/\/groups\/acme\/platform$/), name: "Platform" }]);
    expect(list.headers.get("x-total")).toBe("1");
    const duplicate = await api("POST", `${SCOPE}/groups_allowlist`, { as: "max", json: { target_group_id: 2 } });
    expect(duplicate.text).toBe('{"message":"400 Bad request - This group is already in the job token allowlist."}');
    const unknown = await api("POST", `${SCOPE}/groups_allowlist`, { as: "max", json: { target_group_id: 42 } });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('{"message":"404 Group Not Found"}');
    expect((await api("DELETE", `${SCOPE}/groups_allowlist/2`, { as: "max" })).status).toBe(204);
    expect((await api("GET", `${SCOPE}/groups_allowlist`, { as: "max" })).body).toEqual([]);
  });
});
