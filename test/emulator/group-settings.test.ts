import { describe, expect, it } from "vitest";
import { TOKEN, useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

/** PUT /groups/:id with a multipart body (an avatar upload, or a blank value). */
async function upload(group: string, avatar: { name: string; content: string } | "", as: keyof typeof TOKEN = "olivia") {
  const form = new FormData();
  if (avatar === "") form.append("avatar", "");
  else form.append("avatar", new Blob([avatar.content]), avatar.name);
  const response = await fetch(`${emulator().url}/api/v4/groups/${encodeURIComponent(group)}`, {
    method: "PUT",
    headers: { "PRIVATE-TOKEN": TOKEN[as] },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("PUT /groups/:id", () => {
  it("changes settings for an Owner, and GET /groups/:id reads them back", async () => {
    const res = await api("PUT", "/groups/acme", {
      as: "olivia",
      json: {
        description: "Acme Inc.",
        project_creation_level: "maintainer",
        two_factor_grace_period: 24,
        require_two_factor_authentication: true,
        unique_project_download_limit_allowlist: ["max"],
        default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true },
      },
    });
    expect(res.status).toBe(200);
    const read = (await api("GET", "/groups/acme", { as: "dev" })).body;
    expect(read).toMatchObject({
      description: "Acme Inc.",
      project_creation_level: "maintainer",
      two_factor_grace_period: 24,
      require_two_factor_authentication: true,
      unique_project_download_limit_allowlist: ["max"],
    });
    expect(read.default_branch_protection_defaults).toEqual({ allowed_to_push: [{ access_level: 30 }], allow_force_push: true });
  });

  it("needs an Owner: a Maintainer gets 403, an outsider 404, an anonymous caller 401", async () => {
    expect((await api("PUT", "/groups/acme", { as: "max", json: { lfs_enabled: false } })).status).toBe(403);
    expect((await api("PUT", "/groups/acme", { as: "nomad", json: { lfs_enabled: false } })).body).toEqual({
      message: "404 Group Not Found",
    });
    expect((await api("PUT", "/groups/acme", { json: { lfs_enabled: false } })).status).toBe(401);
  });

  it("refuses values outside the allowed ones and the limits, naming the parameter", async () => {
    const refused = async (json: object) => (await api("PUT", "/groups/acme", { as: "olivia", json })).body;
    expect(await refused({ project_creation_level: "everyone" })).toEqual({ error: "project_creation_level does not have a valid value" });
    expect(await refused({ unique_project_download_limit: 10_001 })).toEqual({
      error: "unique_project_download_limit does not have a valid value",
    });
    expect(await refused({ unique_project_download_limit_interval_in_seconds: 864_001 })).toEqual({
      error: "unique_project_download_limit_interval_in_seconds does not have a valid value",
    });
    expect(await refused({ unique_project_download_limit_alertlist: Array.from({ length: 101 }, () => 2) })).toEqual({
      message: { unique_project_download_limit_alertlist: ["is too long (maximum is 100 entries)"] },
    });
    expect(await refused({ unique_project_download_limit_allowlist: ["ghost"] })).toEqual({
      message: { unique_project_download_limit_allowlist: ["contains unknown usernames: ghost"] },
    });
    expect(await refused({ ip_restriction_ranges: "10.0.0.0/8,300.1.1.1" })).toEqual({
      message: { ip_restriction_ranges: ["300.1.1.1 is an invalid IP address range"] },
    });
    expect(await refused({ allowed_email_domains_list: "example.com,not a domain" })).toEqual({
      message: { allowed_email_domains_list: ["not a domain is not a valid domain"] },
    });
    expect(await refused({ emails_enabled: true, emails_disabled: true })).toEqual({
      message: { emails_enabled: ["contradicts emails_disabled"] },
    });
    expect(await refused({ default_branch_protection: 7 })).toEqual({ error: "default_branch_protection does not have a valid value" });
    expect((await api("GET", "/groups/acme", { as: "olivia" })).body.unique_project_download_limit).toBe(0);
  });

  it("keeps settings only top-level groups take off subgroups, naming the field", async () => {
    for (const field of ["prevent_sharing_groups_outside_hierarchy", "auto_ban_user_on_excessive_projects_download"]) {
      const res = await api("PUT", "/groups/acme%2Fplatform", { as: "olivia", json: { [field]: true } });
      expect(res.status, field).toBe(400);
      expect(res.body, field).toEqual({ message: { [field]: ["can be set on top-level groups only"] } });
    }
    expect((await api("PUT", "/groups/acme", { as: "olivia", json: { prevent_sharing_groups_outside_hierarchy: true } })).status).toBe(200);
  });

  it("refuses a field of a higher tier or another offering by name, and administrator-only fields to Owners", async () => {
    await admin("PUT", "/settings", { tier: "premium" });
    expect((await api("PUT", "/groups/acme", { as: "olivia", json: { unique_project_download_limit: 5 } })).body).toEqual({
      message: { unique_project_download_limit: ["needs the Ultimate tier"] },
    });
    expect((await api("PUT", "/groups/acme", { as: "olivia", json: { membership_lock: true } })).status).toBe(200);
    await admin("PUT", "/settings", { tier: "free" });
    expect((await api("PUT", "/groups/acme", { as: "olivia", json: { membership_lock: true } })).body).toEqual({
      message: { membership_lock: ["needs the Premium tier or higher"] },
    });
    expect((await api("GET", "/groups/acme", { as: "olivia" })).body).not.toHaveProperty("membership_lock");
    await admin("PUT", "/settings", { tier: "ultimate" });
    expect((await api("PUT", "/groups/acme", { as: "olivia", json: { web_based_commit_signing_enabled: true } })).body).toEqual({
      message: { web_based_commit_signing_enabled: ["exists only on hosted multi-tenant instances"] },
    });
    const owner = await api("PUT", "/groups/acme", { as: "olivia", json: { shared_runners_minutes_limit: 100 } });
    expect(owner).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - shared_runners_minutes_limit can be set by administrators only" },
    });
    expect(
      (await api("PUT", "/groups/acme", { as: "root", json: { shared_runners_minutes_limit: 100 } })).body.shared_runners_minutes_limit,
    ).toBe(100);
    expect(
      (await api("PUT", "/groups/acme", { as: "root", json: { shared_runners_minutes_limit: null } })).body.shared_runners_minutes_limit,
    ).toBeNull();
  });

  it("keeps a subgroup no more visible than its parent, and a parent no less visible than what is in it", async () => {
    expect((await api("PUT", "/groups/acme%2Fplatform", { as: "olivia", json: { visibility: "public" } })).body).toEqual({
      message: { visibility_level: ["public is not allowed since the parent group has a private visibility."] },
    });
    await api("PUT", "/groups/acme", { as: "olivia", json: { visibility: "internal" } });
    await api("PUT", "/groups/acme%2Fplatform", { as: "olivia", json: { visibility: "internal" } });
    expect((await api("PUT", "/groups/acme", { as: "olivia", json: { visibility: "private" } })).status).toBe(400);
  });

  it("keeps emails_enabled and the deprecated emails_disabled opposite", async () => {
    await api("PUT", "/groups/acme", { as: "olivia", json: { emails_disabled: true } });
    expect((await api("GET", "/groups/acme", { as: "olivia" })).body).toMatchObject({ emails_disabled: true, emails_enabled: false });
  });
});

describe("group avatar", () => {
  it("takes an image as multipart, serves it, and removes it on a blank value", async () => {
    const uploaded = await upload("acme", { name: "logo.png", content: "PNG-BYTES" });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.avatar_url).toBe(`${emulator().url}/uploads/-/system/group/avatar/1/logo.png`);
    const file = await fetch(`${emulator().url}/api/v4/groups/acme/avatar`, { headers: { "PRIVATE-TOKEN": TOKEN.gus } });
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe("PNG-BYTES");
    expect((await upload("acme", "")).body.avatar_url).toBeNull();
    expect((await api("GET", "/groups/acme/avatar", { as: "gus" })).status).toBe(404);
  });

  it("refuses files of other types and files above 200 KiB", async () => {
    expect((await upload("acme", { name: "logo.exe", content: "x" })).body.message.avatar[0]).toMatch(/not allowed to upload "exe" files/);
    expect((await upload("acme", { name: "logo.png", content: "x".repeat(200 * 1024 + 1) })).body).toEqual({
      message: { avatar: ["is too big (should be at most 200 KiB)"] },
    });
  });

  it("serves a public group's avatar without a token, and hides a private one's", async () => {
    await upload("acme", { name: "logo.png", content: "PNG" });
    expect((await api("GET", "/groups/acme/avatar")).status).toBe(404);
    await admin("PUT", "/groups/acme", { visibility: "public" });
    expect((await fetch(`${emulator().url}/api/v4/groups/acme/avatar`)).status).toBe(200);
  });
});

describe("GET /groups filters", () => {
  const names = async (query: string, as: keyof typeof TOKEN = "root") =>
    ((await api("GET", `/groups?${query}`, { as })).body as { full_path: string }[]).map((group) => group.full_path);

  it("skips groups, keeps to the active or archived ones, and to a deletion date (Premium)", async () => {
    expect(await names("skip_groups[]=1")).toEqual(["acme/platform"]);
    await admin("PUT", "/groups/acme%2Fplatform", { archived: true });
    expect(await names("archived=true")).toEqual(["acme/platform"]);
    expect(await names("active=true")).toEqual(["acme"]);
    await admin("PUT", "/groups/acme", { marked_for_deletion_on: "2030-01-01" });
    expect(await names("active=true")).toEqual([]);
    expect(await names("marked_for_deletion_on=2030-01-01")).toEqual(["acme"]);
    await admin("PUT", "/settings", { tier: "free" });
    expect(await names("marked_for_deletion_on=2030-01-01")).toEqual(["acme", "acme/platform"]);
  });

  it("filters by repository storage and custom attributes for administrators only", async () => {
    await admin("PUT", "/groups/acme%2Fplatform", {
      repository_storage: "secondary",
      custom_attributes: [{ key: "team", value: "infra" }],
    });
    expect(await names("repository_storage=secondary")).toEqual(["acme/platform"]);
    expect(await names("custom_attributes[team]=infra")).toEqual(["acme/platform"]);
    expect(await names("custom_attributes[team]=infra", "olivia")).toEqual(["acme", "acme/platform"]);
    const withAttributes = (await api("GET", "/groups?with_custom_attributes=true&search=platform", { as: "root" })).body;
    expect(withAttributes[0].custom_attributes).toEqual([{ key: "team", value: "infra" }]);
  });

  it("adds statistics for administrators, root storage statistics for top-level groups", async () => {
    const [acme, platform] = (await api("GET", "/groups?statistics=true", { as: "root" })).body;
    expect(acme.statistics.storage_size).toBe(0);
    expect(acme.root_storage_statistics).toMatchObject({ container_registry_size_is_estimated: false });
    expect(platform).not.toHaveProperty("root_storage_statistics");
    expect((await api("GET", "/groups?statistics=true", { as: "olivia" })).body[0]).not.toHaveProperty("statistics");
  });
});

describe("GET /groups/:id/projects", () => {
  const paths = async (query: string, as: keyof typeof TOKEN = "olivia") =>
    ((await api("GET", `/groups/acme/projects?${query}`, { as })).body as { path_with_namespace: string }[]).map(
      (project) => project.path_with_namespace,
    );

  it("lists the group's own projects, its subgroups' with include_subgroups, newest first by default", async () => {
    expect(await paths("order_by=id&sort=asc")).toEqual(["acme/web", "acme/api"]);
    expect(await paths("include_subgroups=true&order_by=path&sort=asc")).toEqual(["acme/api", "acme/platform/deployer", "acme/web"]);
  });

  it("lists projects shared with the group unless with_shared=false", async () => {
    const platform = async (query: string) =>
      ((await api("GET", `/groups/acme%2Fplatform/projects?${query}`, { as: "olivia" })).body as { path_with_namespace: string }[])
        .map((p) => p.path_with_namespace)
        .sort();
    expect(await platform("")).toEqual(["acme/platform/deployer", "acme/web"]);
    expect(await platform("with_shared=false")).toEqual(["acme/platform/deployer"]);
  });

  it("filters by archived, active, topic, search, visibility, starred, features and role", async () => {
    await admin("PUT", "/projects/acme%2Fapi", { archived: true, topics: ["backend", "go"], issues_enabled: false, starred_by: [2] });
    await admin("PUT", "/projects/acme%2Fweb", { visibility: "internal", merge_requests_enabled: false, topics: ["frontend"] });
    expect(await paths("archived=true")).toEqual(["acme/api"]);
    expect(await paths("active=true")).toEqual(["acme/web"]);
    expect(await paths("topic=backend,go")).toEqual(["acme/api"]);
    expect(await paths("search=we")).toEqual(["acme/web"]);
    expect(await paths("visibility=internal")).toEqual(["acme/web"]);
    expect(await paths("starred=true")).toEqual(["acme/api"]);
    expect(await paths("with_issues_enabled=true")).toEqual(["acme/web"]);
    expect(await paths("with_merge_requests_enabled=true")).toEqual(["acme/api"]);
    expect(await paths("owned=true", "max")).toEqual([]);
    expect(await paths("min_access_level=40&order_by=name&sort=asc", "max")).toEqual(["acme/api", "acme/web"]);
    expect(await paths("order_by=star_count&sort=desc")).toEqual(["acme/api", "acme/web"]);
  });

  it("answers limited records with simple=true, custom attributes for administrators who ask", async () => {
    const [simple] = (await api("GET", "/groups/acme/projects?simple=true", { as: "olivia" })).body;
    expect(simple).not.toHaveProperty("visibility");
    expect(simple).toHaveProperty("path_with_namespace");
    expect((await api("GET", "/groups/acme/projects?with_custom_attributes=true", { as: "root" })).body[0].custom_attributes).toEqual([]);
    expect((await api("GET", "/groups/acme/projects?with_custom_attributes=true", { as: "olivia" })).body[0]).not.toHaveProperty(
      "custom_attributes",
    );
  });
});

describe("GET /groups/:id/releases", () => {
  it("lists the releases of the group's projects and its subgroups', newest first, oldest first with sort=asc", async () => {
    const tags = async (query: string) =>
      ((await api("GET", `/groups/acme/releases?${query}`, { as: "dev" })).body as { tag_name: string }[]).map(
        (release) => release.tag_name,
      );
    expect(await tags("")).toEqual(["v0.1.0", "v2.0.0", "v1.0.0"]);
    expect(await tags("sort=asc")).toEqual(["v1.0.0", "v2.0.0", "v0.1.0"]);
    expect(
      ((await api("GET", "/groups/acme%2Fplatform/releases", { as: "dev" })).body as { tag_name: string }[]).map((r) => r.tag_name),
    ).toEqual(["v0.1.0"]);
  });

  it("gives the whole entry, or the limited one with simple=true", async () => {
    const [full] = (await api("GET", "/groups/acme/releases", { as: "dev" })).body;
    expect(full).toMatchObject({
      author: { username: "olivia" },
      commit: { short_id: expect.any(String) },
      tag_path: "/acme/platform/deployer/-/tags/v0.1.0",
    });
    const [simple] = (await api("GET", "/groups/acme/releases?simple=true", { as: "dev" })).body;
    expect(Object.keys(simple).sort()).toEqual(["description", "name", "released_at", "tag_name", "upcoming_release"]);
    expect((await api("GET", "/groups/acme/releases?sort=up", { as: "dev" })).body).toEqual({ error: "sort does not have a valid value" });
  });
});

describe("POST /groups/:id/tokens/revoke", () => {
  const revoke = (token: string, as: keyof typeof TOKEN = "olivia", group = "acme") =>
    api("POST", `/groups/${encodeURIComponent(group)}/tokens/revoke`, { as, json: { token } });

  it("revokes each kind of token that reaches the group, and answers a revoked one again", async () => {
    for (const name of ["olivia-laptop", "acme-bot", "web-deployer", "platform-deploy", "rita-feed"]) {
      const res = await revoke(`forge-seed-${name}`);
      expect(res.status, name).toBe(200);
      expect(res.body, name).toMatchObject({ name, revoked: true });
    }
    expect((await revoke("forge-seed-olivia-laptop")).body).toMatchObject({
      name: "olivia-laptop",
      username: "olivia",
      revoked: true,
      expired: false,
    });
    expect((await revoke("forge-seed-max-ci")).body).toMatchObject({ expired: true, revoked: true });
  });

  it("refuses a subgroup (400), a Maintainer (403), and tokens it does not know or that do not reach the group (422)", async () => {
    expect((await revoke("forge-seed-acme-bot", "olivia", "acme/platform")).body).toEqual({
      message: "400 Bad request - Must be a top-level group",
    });
    expect((await revoke("forge-seed-acme-bot", "max")).status).toBe(403);
    expect(await revoke("no-such-token")).toMatchObject({ status: 422, body: { message: "422 Unprocessable Entity" } });
    expect((await revoke("forge-seed-nomad-token")).status).toBe(422);
    expect((await revoke("forge-olivia-token")).status).toBe(422);
    expect((await api("POST", "/groups/acme/tokens/revoke", { as: "olivia", json: {} })).body).toEqual({ error: "token is missing" });
  });
});

describe("credentials inventory", () => {
  const hosted = () => admin("PUT", "/settings", { offering: "hosted" });
  const list = async (kind: string, query = "", as: keyof typeof TOKEN = "olivia") =>
    api("GET", `/groups/acme/manage/${kind}?${query}`, { as });
  const names = async (kind: string, query = "") => ((await list(kind, query)).body as { name: string }[]).map((token) => token.name);

  it("exists on the hosted offering only, for Owners, on Premium and above, for top-level groups", async () => {
    expect((await list("personal_access_tokens")).body).toEqual({ error: "404 Not Found" });
    await hosted();
    expect((await list("personal_access_tokens", "", "max")).status).toBe(403);
    expect((await api("GET", "/groups/acme%2Fplatform/manage/personal_access_tokens", { as: "olivia" })).status).toBe(400);
    await admin("PUT", "/settings", { tier: "free" });
    expect((await list("personal_access_tokens")).status).toBe(403);
  });

  it("lists enterprise users' personal access tokens with every filter and sort", async () => {
    await hosted();
    expect(await names("personal_access_tokens")).toEqual(["dev-old", "max-ci", "olivia-laptop"]);
    expect(await names("personal_access_tokens", "sort=name_asc")).toEqual(["dev-old", "max-ci", "olivia-laptop"]);
    expect(await names("personal_access_tokens", "sort=created_asc")).toEqual(["olivia-laptop", "max-ci", "dev-old"]);
    expect(await names("personal_access_tokens", "sort=expires_asc")).toEqual(["max-ci", "olivia-laptop", "dev-old"]);
    expect(await names("personal_access_tokens", "sort=last_used_desc")).toEqual(["olivia-laptop", "dev-old", "max-ci"]);
    expect(await names("personal_access_tokens", "revoked=true")).toEqual(["dev-old"]);
    expect(await names("personal_access_tokens", "state=active")).toEqual(["olivia-laptop"]);
    expect(await names("personal_access_tokens", "state=inactive")).toEqual(["dev-old", "max-ci"]);
    expect(await names("personal_access_tokens", "search=LAPTOP")).toEqual(["olivia-laptop"]);
    expect(await names("personal_access_tokens", "created_after=2024-02-01T00:00:00Z&created_before=2024-02-28T00:00:00Z")).toEqual([
      "max-ci",
    ]);
    expect(await names("personal_access_tokens", "last_used_after=2024-05-01T00:00:00Z")).toEqual(["olivia-laptop"]);
    expect(await names("personal_access_tokens", "last_used_before=2024-05-01T00:00:00Z")).toEqual(["dev-old"]);
    const [token] = (await list("personal_access_tokens", "search=laptop")).body;
    expect(token).toEqual({
      id: 1,
      name: "olivia-laptop",
      description: "Olivia's laptop",
      scopes: ["api"],
      user_id: 2,
      revoked: false,
      active: true,
      created_at: "2024-01-10T09:00:00.000Z",
      last_used_at: "2024-06-01T12:00:00.000Z",
      expires_at: "2099-01-01",
    });
    expect((await list("personal_access_tokens", "state=gone")).body).toEqual({ error: "state does not have a valid value" });
  });

  it("lists the hierarchy's group and project access tokens with the same filters", async () => {
    await hosted();
    expect(await names("resource_access_tokens")).toEqual(["web-deployer", "acme-bot"]);
    expect(await names("resource_access_tokens", "search=bot")).toEqual(["acme-bot"]);
    expect(await names("resource_access_tokens", "last_used_after=2024-01-01T00:00:00Z")).toEqual(["acme-bot"]);
    await api("POST", "/groups/acme/tokens/revoke", { as: "olivia", json: { token: "forge-seed-web-deployer" } });
    expect(await names("resource_access_tokens", "revoked=true")).toEqual(["web-deployer"]);
    expect(await names("resource_access_tokens", "state=active")).toEqual(["acme-bot"]);
    const [token] = (await list("resource_access_tokens", "search=web")).body;
    expect(token).toMatchObject({ resource_type: "project", resource_id: 1, access_level: 30, active: false });
  });
});

describe("POST /groups/:id/ldap_sync", () => {
  it("accepts a sync from an Owner or an administrator (202), refuses a Maintainer", async () => {
    expect(await api("POST", "/groups/acme/ldap_sync", { as: "olivia" })).toMatchObject({ status: 202, body: { message: "202 Accepted" } });
    expect((await api("POST", "/groups/acme%2Fplatform/ldap_sync", { as: "root" })).status).toBe(202);
    expect((await api("POST", "/groups/acme/ldap_sync", { as: "max" })).status).toBe(403);
  });

  it("exists on self-managed Premium and above only", async () => {
    await admin("PUT", "/settings", { tier: "free" });
    expect((await api("POST", "/groups/acme/ldap_sync", { as: "olivia" })).status).toBe(403);
    await admin("PUT", "/settings", { tier: "premium", offering: "hosted" });
    expect((await api("POST", "/groups/acme/ldap_sync", { as: "olivia" })).body).toEqual({ error: "404 Not Found" });
  });
});
