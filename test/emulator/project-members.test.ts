import { describe, expect, it } from "vitest";
import { seedState } from "../../emulator/admin/seed";
import { createStore } from "../../emulator/registry";
import { type SeedUser, useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const WEB = "/projects/acme%2Fweb/members";
const NOMAD = 7;
const DEV = 4;
const RITA = 5;

describe("project members", () => {
  it("adds a member by username or id with the default Developer role, and reads it back", async () => {
    const added = await api("POST", WEB, { as: "max", json: { username: "nomad" } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: NOMAD,
      username: "nomad",
      access_level: 30,
      expires_at: null,
      membership_state: "active",
      created_by: { username: "max" },
    });
    expect((await api("GET", `${WEB}/${NOMAD}`, { as: "gus" })).body).toMatchObject({ id: NOMAD, access_level: 30 });
    const byId = await api("POST", "/projects/acme%2Fapi/members", {
      as: "root",
      form: `user_id=${NOMAD}&access_level=20&expires_at=2099-01-31`,
    });
    expect(byId.body).toMatchObject({ id: NOMAD, access_level: 20, expires_at: "2099-01-31" });
  });

  it("adds several users at once, comma-separated", async () => {
    const added = await api("POST", WEB, { as: "root", json: { user_id: `${NOMAD},${DEV}`, access_level: 30 } });
    expect(added).toMatchObject({ status: 201, body: { status: "success" } });
    expect((await api("GET", WEB, { as: "root" })).body.map((member: { id: number }) => member.id)).toEqual([NOMAD, DEV]);
  });

  it.each<[string, unknown, number, unknown]>([
    [
      "an access level outside the list",
      { username: "nomad", access_level: 35 },
      400,
      { error: "access_level does not have a valid value" },
    ],
    ["no user", { access_level: 30 }, 400, { error: "user_id, username are missing, exactly one parameter must be provided" }],
    ["an unknown user", { username: "ghost" }, 404, { message: "404 User Not Found" }],
    [
      "an expiry in the past",
      { username: "nomad", expires_at: "2020-01-01" },
      400,
      { message: { expires_at: ["cannot be a date in the past"] } },
    ],
    ["an impossible date", { username: "nomad", expires_at: "2030-02-30" }, 400, { error: "expires_at is invalid" }],
    ["a custom role on a real project", { username: "nomad", member_role_id: 0 }, 400, { message: { member_role: ["not found"] } }],
  ])("refuses %s", async (_case, json, status, body) => {
    expect(await api("POST", WEB, { as: "root", json })).toMatchObject({ status, body });
  });

  it("refuses a second membership of a user (409), Owner from a Maintainer (403), and writes below Maintainer", async () => {
    await api("POST", WEB, { as: "root", json: { username: "nomad" } });
    expect(await api("POST", WEB, { as: "root", json: { username: "nomad" } })).toMatchObject({
      status: 409,
      body: { message: "Member already exists" },
    });
    expect((await api("POST", WEB, { as: "max", json: { username: "dev", access_level: 50 } })).status).toBe(403);
    expect((await api("POST", WEB, { as: "dev", json: { username: "rita" } })).status).toBe(403);
    expect((await api("GET", WEB, { as: "nomad" })).status).toBe(200); // nomad is a member now
    expect((await api("GET", "/projects/acme%2Fapi/members", { as: "nomad" })).status).toBe(404);
  });

  it("needs access_level on PUT; a PUT without member_role_id removes the custom role", async () => {
    await api("POST", WEB, { as: "root", json: { username: "nomad", member_role_id: 3 } });
    expect(await api("PUT", `${WEB}/${NOMAD}`, { as: "root", json: { expires_at: "2099-01-01" } })).toMatchObject({
      status: 400,
      body: { error: "access_level is missing" },
    });
    const updated = await api("PUT", `${WEB}/${NOMAD}`, { as: "root", json: { access_level: 40, expires_at: "2099-01-01" } });
    expect(updated.body).toMatchObject({ access_level: 40, expires_at: "2099-01-01" });
    const cleared = await api("PUT", `${WEB}/${NOMAD}`, { as: "root", json: { access_level: 40, expires_at: null } });
    expect(cleared.body.expires_at).toBeNull();
    await admin("PUT", "/settings", { tier: "premium" });
    expect(await api("PUT", `${WEB}/${NOMAD}`, { as: "root", json: { access_level: 40, member_role_id: 3 } })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - member_role_id needs Ultimate" },
    });
  });

  it("rule 1: the all-members listing and read give each user once, at the highest level", async () => {
    await api("POST", WEB, { as: "root", json: { username: "rita", access_level: 40 } });
    const all = await api("GET", `${WEB}/all`, { as: "dev" });
    const levels = Object.fromEntries(
      all.body.map((member: { username: string; access_level: number }) => [member.username, member.access_level]),
    );
    expect(levels).toEqual({ olivia: 50, max: 40, dev: 30, rita: 40, gus: 10 });
    expect((await api("GET", `${WEB}/all/${RITA}`, { as: "dev" })).body).toMatchObject({ username: "rita", access_level: 40 });
    expect((await api("GET", `${WEB}/all/${DEV}`, { as: "dev" })).body).toMatchObject({ username: "dev", access_level: 30 });
    // Not a direct member: the direct read finds nothing.
    expect(await api("GET", `${WEB}/${DEV}`, { as: "dev" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await api("GET", `${WEB}/all?query=OLI`, { as: "dev" })).body.map((member: { username: string }) => member.username)).toEqual([
      "olivia",
    ]);
    expect((await api("GET", `${WEB}/all?user_ids[]=${DEV}&user_ids[]=${RITA}`, { as: "dev" })).body).toHaveLength(2);
    expect((await api("GET", `${WEB}?skip_users[]=${RITA}`, { as: "dev" })).body).toEqual([]);
    expect((await api("GET", `${WEB}/all?show_seat_info=true&user_ids[]=${DEV}`, { as: "dev" })).body[0]).toMatchObject({
      is_using_seat: true,
    });
  });

  it("rule 2: members of an invited group count, capped at the share's level", async () => {
    // acme/web is shared with acme/platform (Developer), whose members inherit from acme: an
    // invited group's Owner counts as Developer at most, and never lowers a higher level.
    const api_ = await api("GET", "/projects/acme%2Fapi/members/all", { as: "root" });
    const web = await api("GET", `${WEB}/all`, { as: "root" });
    expect(web.body.map((member: { username: string }) => member.username)).toEqual(
      api_.body.map((member: { username: string }) => member.username),
    );
    expect(web.body.find((member: { username: string }) => member.username === "olivia").access_level).toBe(50);
  });

  it("rule 3: only a role given in the project is removed; access through a group is not", async () => {
    expect(await api("DELETE", `${WEB}/${DEV}`, { as: "root" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    await api("POST", WEB, { as: "root", json: { username: "dev", access_level: 40 } });
    expect((await api("DELETE", `${WEB}/${DEV}?skip_subresources=true&unassign_issuables=false`, { as: "root" })).status).toBe(204);
    expect((await api("GET", `${WEB}/all/${DEV}`, { as: "root" })).body.access_level).toBe(30);
  });

  it.each<[SeedUser, boolean]>([
    ["olivia", true],
    ["root", false],
  ])("rule 4: with promotion management on, a promotion by %s is queued: %s", async (as, queued) => {
    await admin("PUT", "/settings", { member_promotion_management: true });
    const added = await api("POST", WEB, { as, json: { username: "nomad", access_level: 30 } });
    expect(added.status).toBe(201);
    if (!queued) {
      expect(added.body).toMatchObject({ id: NOMAD, access_level: 30 });
      return;
    }
    expect(added.body).toEqual({ message: { nomad: "Request queued for administrator approval." } });
    expect((await api("GET", `${WEB}/${NOMAD}`, { as })).status).toBe(404);
    expect((await api("GET", `${WEB}/all?state=awaiting`, { as })).body).toEqual([
      expect.objectContaining({ id: NOMAD, access_level: 30, membership_state: "awaiting" }),
    ]);
    expect((await api("GET", `${WEB}/all?state=active&user_ids[]=${NOMAD}`, { as })).body).toEqual([]);
    expect((await admin("POST", `/member_approvals/1/${NOMAD}/approve`)).status).toBe(204);
    expect((await api("GET", `${WEB}/${NOMAD}`, { as })).body).toMatchObject({ access_level: 30, membership_state: "active" });
    expect((await admin("POST", `/member_approvals/1/${NOMAD}/approve`)).status).toBe(404);
  });

  it("rule 4: a Guest promoted to a billable role is queued and keeps Guest; several users answer queued_users", async () => {
    await admin("PUT", "/settings", { member_promotion_management: true });
    await api("POST", WEB, { as: "olivia", json: { username: "nomad", access_level: 10 } });
    expect((await api("PUT", `${WEB}/${NOMAD}`, { as: "olivia", json: { access_level: 20 } })).body).toEqual({
      message: { nomad: "Request queued for administrator approval." },
    });
    expect((await api("GET", `${WEB}/${NOMAD}`, { as: "olivia" })).body.access_level).toBe(10);
    expect((await admin("POST", `/member_approvals/1/${NOMAD}/reject`)).status).toBe(204);
    expect((await api("GET", `${WEB}/all?state=awaiting`, { as: "olivia" })).body).toEqual([]);
    // dev already holds a billable role (Developer of acme): not queued.
    const several = await api("POST", "/projects/acme%2Fapi/members", { as: "olivia", json: { username: "nomad,dev", access_level: 30 } });
    expect(several.body).toEqual({ queued_users: { nomad: "Request queued for administrator approval." }, status: "success" });
  });
});

describe("project members, rule 2 (invited groups), on the store", () => {
  /** acme/web, made public, shared with a private group "outsiders" whose one member is dev. */
  function world() {
    const store = createStore(seedState());
    const web = store.projects.byRef("acme/web")!;
    web.visibility = "public";
    store.state.groups.push({
      id: 3,
      name: "Outsiders",
      path: "outsiders",
      description: "",
      visibility: "private",
      parent_id: null,
      created_at: web.created_at,
      members: [{ user_id: 1, access_level: 50 }],
    });
    const outsiders = store.groups.byRef("outsiders")!;
    outsiders.members.push({ user_id: 7, access_level: 50 });
    web.shared_with_groups.push({ group_id: 3, group_access_level: 20 });
    const user = (name: string) => store.users.byUsername(name)!;
    const usernames = (as: string) =>
      store.projectMembers.all(user(as), { project: "acme/web" }, {}).map((member) => [member["username"], member["access_level"]]);
    return { store, outsiders, user, usernames };
  }

  it("shows an invited private group's members to members of the project and of that group, capped by the share", () => {
    const { usernames } = world();
    // gus is a member of the project (through acme): he sees nomad, at the share's Reporter.
    expect(usernames("gus")).toContainEqual(["nomad", 20]);
    // nomad sees the group's members: nomad is one of them.
    expect(usernames("nomad")).toContainEqual(["nomad", 20]);
  });

  it("hides them from others, unless the invited group is public", () => {
    const { store, outsiders, user, usernames } = world();
    store.state.users.push({ ...user("nomad"), id: 8, username: "visitor", token: "forge-visitor-token", email: "visitor@example.com" });
    expect(usernames("visitor").map(([name]) => name)).not.toContain("nomad");
    outsiders.visibility = "public";
    expect(usernames("visitor")).toContainEqual(["nomad", 20]);
  });
});
