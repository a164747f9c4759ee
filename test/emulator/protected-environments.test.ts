import { describe, expect, it } from "vitest";
import { seedState } from "../../emulator/admin/seed";
import { createStore } from "../../emulator/registry";
import { AccessLevel } from "../../api";
import { type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const PROJECT_ENVS = "/projects/acme%2Fweb/protected_environments";
const GROUP_ENVS = "/groups/acme/protected_environments";

describe("project protected environments", () => {
  it("protects a name with user, group and access-level elements", async () => {
    const res = await api("POST", PROJECT_ENVS, {
      as: "max",
      json: {
        name: "review/app",
        deploy_access_levels: [{ access_level: 40 }, { user_id: 4 }, { group_id: 2, group_inheritance_type: 1 }],
        approval_rules: [{ access_level: 30, required_approvals: 2 }],
      },
    });
    expect(res.status).toBe(201);
    const [a, b, c] = res.body.deploy_access_levels;
    expect(a).toEqual({
      id: a.id,
      access_level: 40,
      access_level_description: "Maintainers",
      user_id: null,
      group_id: null,
      group_inheritance_type: 0,
    });
    // A user's entry reports the Maintainer level, an integer as the API types it.
    expect(b).toMatchObject({ access_level: 40, access_level_description: "Dev Developer", user_id: 4 });
    expect(c).toMatchObject({ access_level_description: "Platform", group_id: 2, group_inheritance_type: 1 });
    expect(res.body.approval_rules).toEqual([
      {
        id: expect.any(Number),
        user_id: null,
        group_id: null,
        access_level: 30,
        access_level_description: "Developers + Maintainers",
        required_approvals: 2,
        group_inheritance_type: 0,
      },
    ]);
    expect(res.body.required_approval_count).toBe(0);
    const read = await api("GET", `${PROJECT_ENVS}/review%2Fapp`, { as: "max" });
    expect(read.body).toEqual(res.body);
  });

  it("accepts elements in form bracket notation", async () => {
    const res = await api("POST", PROJECT_ENVS, {
      as: "max",
      form: "name=production&deploy_access_levels[0][access_level]=60&deploy_access_levels[1][user_id]=3",
    });
    expect(res.status).toBe(201);
    expect(res.body.deploy_access_levels.map((e: { access_level_description: string }) => e.access_level_description)).toEqual([
      "Administrators",
      "Max Maintainer",
    ]);
  });

  it("takes null entity fields of an element as absent (clients echo what they read)", async () => {
    const res = await api("POST", PROJECT_ENVS, {
      as: "max",
      json: { name: "echo", deploy_access_levels: [{ access_level: 40, user_id: null, group_id: null }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.deploy_access_levels[0]).toMatchObject({ access_level: 40, user_id: null, group_id: null });
  });

  it("answers 409 when the name is already protected", async () => {
    const json = { name: "production", deploy_access_levels: [{ access_level: 40 }] };
    await api("POST", PROJECT_ENVS, { as: "max", json });
    const res = await api("POST", PROJECT_ENVS, { as: "max", json });
    expect(res.status).toBe(409);
    expect(res.text).toBe(`{"message":"Protected environment 'production' already exists"}`);
  });

  it("requires exactly one of user_id, group_id, access_level per element", async () => {
    const none = await api("POST", PROJECT_ENVS, { as: "max", json: { name: "p", deploy_access_levels: [{}] } });
    expect(none.status).toBe(400);
    expect(none.text).toBe(
      '{"error":"deploy_access_levels[0][access_level], deploy_access_levels[0][group_id], deploy_access_levels[0][user_id] are missing, exactly one parameter must be provided"}',
    );
    const two = await api("POST", PROJECT_ENVS, {
      as: "max",
      json: { name: "p", deploy_access_levels: [{ access_level: 40, user_id: 3 }] },
    });
    expect(two.text).toBe('{"error":"deploy_access_levels[0][access_level], deploy_access_levels[0][user_id] are mutually exclusive"}');
    const bad = await api("POST", PROJECT_ENVS, { as: "max", json: { name: "p", deploy_access_levels: [{ access_level: 50 }] } });
    expect(bad.text).toBe('{"error":"deploy_access_levels[0][access_level] does not have a valid value"}');
    const missing = await api("POST", PROJECT_ENVS, { as: "max", json: { name: "p" } });
    expect(missing.text).toBe('{"error":"deploy_access_levels is missing"}');
  });

  it("refuses unassignable users and groups with 422 on create", async () => {
    const res = await api("POST", PROJECT_ENVS, {
      as: "max",
      json: { name: "p", deploy_access_levels: [{ user_id: 7 }, { group_id: 1 }] },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: [
        "Deploy access levels user 7 must have access to the project",
        "Deploy access levels group 1 must have the project shared with it",
      ],
    });
  });

  it("updates elements by id, creates without id, destroys with _destroy, keeps the rest", async () => {
    const created = await api("POST", PROJECT_ENVS, {
      as: "max",
      json: { name: "staging", deploy_access_levels: [{ access_level: 40 }, { access_level: 30 }] },
    });
    const [keep, change] = created.body.deploy_access_levels;
    const res = await api("PUT", `${PROJECT_ENVS}/staging`, {
      as: "max",
      json: { deploy_access_levels: [{ id: change.id, user_id: 5 }, { access_level: 60 }] },
    });
    expect(res.status).toBe(200);
    // Only deploy access levels touched: name, deploy_access_levels, required_approval_count.
    expect(Object.keys(res.body)).toEqual(["name", "deploy_access_levels", "required_approval_count"]);
    expect(res.body.deploy_access_levels.map((e: any) => [e.id, e.access_level, e.user_id])).toEqual([
      [keep.id, 40, null],
      [change.id, 40, 5], // a user's entry reports the Maintainer level
      [expect.any(Number), 60, null],
    ]);
    const destroyed = await api("PUT", `${PROJECT_ENVS}/staging`, {
      as: "max",
      json: { deploy_access_levels: [{ id: keep.id, _destroy: true }] },
    });
    expect(destroyed.body.deploy_access_levels.map((e: any) => e.id)).not.toContain(keep.id);
    expect(destroyed.body.deploy_access_levels).toHaveLength(2);
  });

  it("answers an approval-only update with name and approval_rules, and refuses bad users with 400", async () => {
    await api("POST", PROJECT_ENVS, { as: "max", json: { name: "prod", deploy_access_levels: [{ access_level: 40 }] } });
    const res = await api("PUT", `${PROJECT_ENVS}/prod`, { as: "max", json: { approval_rules: [{ user_id: 2 }] } });
    expect(res.body).toEqual({
      name: "prod",
      approval_rules: [expect.objectContaining({ user_id: 2, access_level_description: "Olivia Owner", required_approvals: 1 })],
    });
    const bad = await api("PUT", `${PROJECT_ENVS}/prod`, { as: "max", json: { approval_rules: [{ user_id: 7 }] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toBe('{"message":{"approval_rules":["user 7 must have access to the project"]}}');
    const unknownId = await api("PUT", `${PROJECT_ENVS}/prod`, { as: "max", json: { approval_rules: [{ id: 999, _destroy: true }] } });
    expect(unknownId.status).toBe(404);
  });

  it("unprotects with 204 and then answers 404", async () => {
    await api("POST", PROJECT_ENVS, { as: "max", json: { name: "prod", deploy_access_levels: [{ access_level: 40 }] } });
    expect((await api("DELETE", `${PROJECT_ENVS}/prod`, { as: "max" })).status).toBe(204);
    const gone = await api("GET", `${PROJECT_ENVS}/prod`, { as: "max" });
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('{"message":"404 Not found"}');
  });

  it.each<[SeedUser, number]>([
    ["max", 200],
    ["dev", 403],
    ["nomad", 404],
  ])("listing as %s answers %i (Maintainer needed)", async (as, status) => {
    expect((await api("GET", PROJECT_ENVS, { as })).status).toBe(status);
  });
});

describe("group protected environments", () => {
  it("takes a tier as name, omits group_inheritance_type outside updates, DELETE answers 200", async () => {
    const res = await api("POST", GROUP_ENVS, {
      as: "max",
      json: { name: "production", deploy_access_levels: [{ access_level: 40 }, { group_id: 2 }, { user_id: 3 }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.deploy_access_levels[0]).toEqual({
      id: expect.any(Number),
      access_level: 40,
      access_level_description: "Maintainers",
      user_id: null,
      group_id: null,
    });
    const updated = await api("PUT", `${GROUP_ENVS}/production`, { as: "max", json: { required_approval_count: 2 } });
    expect(updated.body.required_approval_count).toBe(2);
    expect(updated.body.deploy_access_levels[0]).toHaveProperty("group_inheritance_type", 0);
    const deleted = await api("DELETE", `${GROUP_ENVS}/production`, { as: "max" });
    expect(deleted.status).toBe(200);
  });

  it("refuses a name that is not a tier", async () => {
    const res = await api("POST", GROUP_ENVS, { as: "max", json: { name: "review", deploy_access_levels: [{ access_level: 40 }] } });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"name does not have a valid value"}');
  });

  it("assigns only Maintainer+ group members and subgroups", async () => {
    const res = await api("POST", GROUP_ENVS, {
      as: "max",
      json: { name: "staging", deploy_access_levels: [{ user_id: 4 }, { group_id: 1 }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toEqual([
      "Deploy access levels user 4 must be a member of the group with the Maintainer role or above",
      "Deploy access levels group 1 must be a subgroup of the group",
    ]);
  });

  it.each<[SeedUser, number]>([
    ["max", 201],
    ["dev", 403],
  ])("creating as %s answers %i", async (as, status) => {
    const json = { name: "testing", deploy_access_levels: [{ access_level: 40 }] };
    expect((await api("POST", GROUP_ENVS, { as, json })).status).toBe(status);
  });
});

describe("required_approval_count (a field of every protected environment)", () => {
  it("is taken on POST at both levels and on the project-level PUT, as the service takes it", async () => {
    const json = { name: "production", deploy_access_levels: [{ access_level: 40 }], required_approval_count: 1 };
    for (const base of [PROJECT_ENVS, GROUP_ENVS]) {
      const res = await api("POST", base, { as: "max", json });
      expect(res.status).toBe(201);
      expect(res.body.required_approval_count).toBe(1);
      expect((await api("GET", `${base}/production`, { as: "max" })).body.required_approval_count).toBe(1);
    }
    const put = await api("PUT", `${PROJECT_ENVS}/production`, { as: "max", json: { required_approval_count: 2 } });
    expect(put.status).toBe(200);
    expect(put.body.required_approval_count).toBe(2);
    const log = (await admin("GET", "/requests")).body as { ignored?: string[] }[];
    expect(log.filter((entry) => entry.ignored !== undefined)).toEqual([]);
  });

  it("is taken by the group-level PUT, not below 0", async () => {
    await api("POST", GROUP_ENVS, { as: "max", json: { name: "production", deploy_access_levels: [{ access_level: 40 }] } });
    const ok = await api("PUT", `${GROUP_ENVS}/production`, { as: "max", json: { required_approval_count: 3 } });
    expect(ok.body.required_approval_count).toBe(3);
    const negative = await api("PUT", `${GROUP_ENVS}/production`, { as: "max", json: { required_approval_count: -1 } });
    expect(negative.status).toBe(400);
    expect(negative.text).toBe('{"message":{"required_approval_count":["must be greater than or equal to 0"]}}');
  });
});

describe("element rules", () => {
  it("ignores group_inheritance_type in group-level elements (not a parameter there) and logs it", async () => {
    const deploy = await api("POST", GROUP_ENVS, {
      as: "max",
      json: { name: "production", deploy_access_levels: [{ access_level: 40, group_inheritance_type: 1 }] },
    });
    expect(deploy.status).toBe(201);
    expect(deploy.body.deploy_access_levels[0].access_level).toBe(40);
    const approval = await api("PUT", `${GROUP_ENVS}/production`, {
      as: "max",
      json: { approval_rules: [{ access_level: 40, group_inheritance_type: 1 }] },
    });
    expect(approval.status).toBe(200);
    // Group-level update answers carry the element's group_inheritance_type (a field of every element): the default, not what was sent.
    expect(approval.body.approval_rules[0]).toMatchObject({ access_level: 40, group_inheritance_type: 0 });
    const log = (await admin("GET", "/requests")).body as { method: string; ignored?: string[] }[];
    expect(log.filter((entry) => entry.method !== "GET").map((entry) => entry.ignored)).toEqual([
      ["deploy_access_levels[0][group_inheritance_type]"],
      ["approval_rules[0][group_inheritance_type]"],
    ]);
  });

  it("refuses a create element that names nobody, even with an id", async () => {
    const res = await api("POST", PROJECT_ENVS, { as: "max", json: { name: "p", deploy_access_levels: [{ id: 5 }] } });
    expect(res.status).toBe(400);
    expect(res.text).toBe(
      '{"error":"deploy_access_levels[0][access_level], deploy_access_levels[0][group_id], deploy_access_levels[0][user_id] are missing, exactly one parameter must be provided"}',
    );
  });

  it("needs at least one deploy access level, on create and after an update", async () => {
    const empty = await api("POST", PROJECT_ENVS, { as: "max", json: { name: "p", deploy_access_levels: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ message: ["Deploy access levels is too short (minimum is 1 character)"] });
    const created = await api("POST", PROJECT_ENVS, { as: "max", json: { name: "p", deploy_access_levels: [{ access_level: 40 }] } });
    const last = created.body.deploy_access_levels[0].id;
    const emptied = await api("PUT", `${PROJECT_ENVS}/p`, { as: "max", json: { deploy_access_levels: [{ id: last, _destroy: true }] } });
    expect(emptied.status).toBe(400);
    expect(emptied.text).toBe('{"message":{"deploy_access_levels":["is too short (minimum is 1 character)"]}}');
    expect((await api("GET", `${PROJECT_ENVS}/p`, { as: "max" })).body.deploy_access_levels).toHaveLength(1);
  });

  it("needs required_approvals above 0", async () => {
    const json = { name: "p", deploy_access_levels: [{ access_level: 40 }], approval_rules: [{ access_level: 40, required_approvals: 0 }] };
    const zero = await api("POST", PROJECT_ENVS, { as: "max", json });
    expect(zero.status).toBe(422);
    expect(zero.body).toEqual({ message: ["Approval rules required approvals must be greater than 0"] });
    await api("POST", PROJECT_ENVS, { as: "max", json: { ...json, approval_rules: [] } });
    const negative = await api("PUT", `${PROJECT_ENVS}/p`, {
      as: "max",
      json: { approval_rules: [{ user_id: 2, required_approvals: -1 }] },
    });
    expect(negative.status).toBe(400);
    expect(negative.text).toBe('{"message":{"approval_rules.required_approvals":["must be greater than 0"]}}');
  });
});

describe("assignable users at project level", () => {
  it("does not count Minimal access as access to the project; Guest does", () => {
    const store = createStore(seedState());
    const web = store.projects.byRef("acme/web")!;
    const max = store.users.byUsername("max")!;
    web.members.push({ user_id: 7, access_level: AccessLevel.MinimalAccess }); // nomad
    const params = { name: "p", deploy_access_levels: [{ user_id: 7 }] };
    expect(() => store.protectedEnvironments.create(max, "project", "acme/web", params)).toThrow(
      expect.objectContaining({ status: 422, body: { message: ["Deploy access levels user 7 must have access to the project"] } }),
    );
    web.members[0]!.access_level = AccessLevel.Guest;
    expect(store.protectedEnvironments.create(max, "project", "acme/web", params)).toMatchObject({ name: "p" });
  });
});
