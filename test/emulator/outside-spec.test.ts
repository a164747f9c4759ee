import { describe, expect, it } from "vitest";
import { routeTable } from "../../emulator/registry";
import { useEmulator } from "./helpers";

/*
 * The service's endpoints outside the spec that clients and test suites call first (emulator/
 * outside-spec/): what they answer, who may call them, and that what they make is served by the
 * spec's endpoints like a seeded object.
 */

const { api, admin, emulator } = useEmulator();

const PASSWORD = "long-enough-1";
const newUser = (username: string, extra: Record<string, unknown> = {}) => ({
  username,
  name: `User ${username}`,
  email: `${username}@example.com`,
  password: PASSWORD,
  ...extra,
});

async function graphql(query: string, as?: "root" | "dev", variables?: Record<string, unknown>) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (as) headers["PRIVATE-TOKEN"] = `forge-${as}-token`;
  const response = await fetch(`${emulator().url}/api/graphql`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("the route table's entries outside the spec", () => {
  it("are served by outside-spec/ or by the resource they read, and say why", () => {
    const outside = routeTable().filter((route) => route.outsideSpec !== undefined);
    expect(outside.map((route) => route.name).sort()).toEqual(
      [
        "graphql.query",
        "groups.create",
        "groups.delete",
        "applicationSettings.get",
        "projectEnvironments.create",
        "projectEnvironments.delete",
        "projectEnvironments.get",
        "projectEnvironments.list",
        "projectEnvironments.stop",
        "projects.archive",
        "projects.create",
        "projects.delete",
        "projects.get",
        "projects.share",
        "projects.unarchive",
        "projects.unshare",
        "projects.update",
        "repositoryStorageMoves.group.get",
        "repositoryStorageMoves.group.list",
        "repositoryStorageMoves.project.get",
        "repositoryStorageMoves.project.list",
        "repositoryStorageMoves.snippet.get",
        "repositoryStorageMoves.snippet.list",
        "user.get",
        "users.create",
        "users.delete",
        "users.get",
        "version.get",
        "version.metadata",
      ].sort(),
    );
    expect(routeTable().find((route) => route.name === "graphql.query")?.base).toBe("/api");
  });
});

describe("GET /api/v4/ and unknown routes", () => {
  it("answers the service's catch-all 404 whatever the credentials", async () => {
    for (const path of ["/api/v4/", "/api/v4", "/api/v3/projects", "/api/nothing"]) {
      const res = await fetch(`${emulator().url}${path}`, { headers: { "PRIVATE-TOKEN": "forge-root-token" } });
      expect([path, res.status, await res.text()]).toEqual([path, 404, '{"error":"404 Not Found"}']);
    }
    expect((await fetch(`${emulator().url}/api/v4/`)).status).toBe(404);
  });

  it("carries the rate-limit headers a client reads there when a budget is set", async () => {
    await admin("PUT", "/rate-limit", { limit: 600 });
    const res = await fetch(`${emulator().url}/api/v4/`, { headers: { "PRIVATE-TOKEN": "forge-root-token" } });
    expect([res.status, res.headers.get("ratelimit-limit")]).toEqual([404, "600"]);
  });
});

describe("GET /version", () => {
  it("reports the release and the edition: -ee and enterprise on a paid tier, the community edition on Free", async () => {
    expect((await api("GET", "/version", { as: "dev" })).body).toEqual({
      version: "17.11.0-ee",
      revision: "emulator",
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: true,
    });
    expect((await api("GET", "/metadata", { as: "dev" })).body.version).toBe("17.11.0-ee");
    await admin("PUT", "/settings", { tier: "free", version: "14.10.2" });
    expect((await api("GET", "/version", { as: "dev" })).body).toMatchObject({ version: "14.10.2", enterprise: false });
    expect((await admin("PUT", "/settings", { version: "v15" })).text).toBe('{"error":"version is invalid"}');
  });

  it("needs a token, as the service's does", async () => {
    expect((await api("GET", "/version")).status).toBe(401);
  });
});

describe("users", () => {
  it("GET /users/:id answers anyone with the profile, an administrator with the account's fields", async () => {
    const anonymous = await api("GET", "/users/4");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ id: 4, username: "dev", name: "Dev Developer", state: "active", public_email: null });
    expect(anonymous.body.email).toBeUndefined();
    expect((await api("GET", "/users/4", { as: "root" })).body).toMatchObject({
      email: "dev@example.com",
      is_admin: false,
      projects_limit: 100000,
      can_create_group: true,
      namespace_id: 6,
    });
    expect((await api("GET", "/users/99", { as: "root" })).text).toBe('{"message":"404 User Not Found"}');
    expect((await api("GET", "/users/dev", { as: "root" })).text).toBe('{"error":"id is invalid"}');
  });

  it("POST /users: administrators only; the account's fields as given; username and e-mail unique; a real password", async () => {
    expect((await api("POST", "/users", { json: newUser("anon") })).status).toBe(401);
    expect((await api("POST", "/users", { as: "olivia", json: newUser("sneaky") })).text).toBe('{"message":"403 Forbidden"}');
    const made = await api("POST", "/users", {
      as: "root",
      json: newUser("ada", { projects_limit: 5, can_create_group: false, note: "from a test", skip_confirmation: true }),
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      username: "ada",
      email: "ada@example.com",
      is_admin: false,
      projects_limit: 5,
      can_create_group: false,
    });
    expect(made.body.namespace_id).toBeGreaterThan(9);
    expect((await api("POST", "/users", { as: "root", json: newUser("ADA", { email: "other@example.com" }) })).text).toBe(
      '{"message":"Username has already been taken"}',
    );
    expect((await api("POST", "/users", { as: "root", json: newUser("ada2", { email: "ADA@example.com" }) })).status).toBe(409);
    expect((await api("POST", "/users", { as: "root", json: newUser("acme") })).status).toBe(409);
    expect((await api("POST", "/users", { as: "root", json: newUser("short", { password: "1234567" }) })).text).toBe(
      '{"message":{"password":["is too short (minimum is 8 characters)"]}}',
    );
    const { password: _password, ...withoutPassword } = newUser("nopass");
    expect((await api("POST", "/users", { as: "root", json: withoutPassword })).text).toBe(
      '{"error":"password, reset_password, force_random_password are missing, at least one parameter must be provided"}',
    );
    expect((await api("POST", "/users", { as: "root", json: { username: "x" } })).text).toBe(
      '{"error":"email is missing, name is missing"}',
    );
    expect((await api("POST", "/users", { as: "root", json: newUser("-bad") })).status).toBe(400);
  });

  it("DELETE /users/:id: administrators only; the user's memberships and personal projects go with them", async () => {
    const user = (await api("POST", "/users", { as: "root", json: newUser("leaver") })).body;
    await api("POST", "/projects/acme%2Fweb/members", { as: "olivia", json: { user_id: user.id, access_level: 30 } });
    expect((await api("DELETE", `/users/${user.id}`, { as: "olivia" })).status).toBe(403);
    expect((await api("DELETE", `/users/${user.id}`, { as: "root" })).status).toBe(204);
    expect((await api("GET", `/users/${user.id}`, { as: "root" })).status).toBe(404);
    expect((await api("GET", `/projects/acme%2Fweb/members/${user.id}`, { as: "olivia" })).status).toBe(404);
    expect((await api("DELETE", `/users/${user.id}`, { as: "root" })).text).toBe('{"message":"404 User Not Found"}');
  });
});

describe("groups", () => {
  it("POST /groups makes a group its creator owns, with PUT /groups/:id's settings; the spec's endpoints serve it", async () => {
    const made = await api("POST", "/groups", {
      as: "dev",
      json: { name: "Tools", path: "tools", visibility: "public", description: "d", request_access_enabled: false, lfs_enabled: true },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "Tools",
      path: "tools",
      full_path: "tools",
      visibility: "public",
      request_access_enabled: false,
    });
    expect(made.body.runners_token).toBeDefined();
    const label = await api("POST", `/groups/${made.body.id}/labels`, { as: "dev", json: { name: "bug", color: "#ff0000" } });
    expect(label.status).toBe(201);
    // Public: anonymous callers read it (the API's rule on reads without a token).
    expect((await api("GET", "/groups/tools")).status).toBe(200);
    const sub = await api("POST", "/groups", { as: "dev", json: { name: "Sub", path: "sub", parent_id: made.body.id } });
    expect(sub.body.full_path).toBe("tools/sub");
  });

  it("answers the service's refusals: a taken path, a parent the caller may not add to, a setting the edition lacks", async () => {
    expect((await api("POST", "/groups", { as: "dev", json: { name: "Acme", path: "acme" } })).text).toBe(
      '{"message":"Failed to save group {:path=>[\\"has already been taken\\"]}"}',
    );
    expect((await api("POST", "/groups", { as: "dev", json: { name: "Root", path: "root" } })).status).toBe(400);
    expect((await api("POST", "/groups", { as: "dev", json: { name: "x", path: "x", parent_id: 1 } })).text).toBe(
      '{"message":"403 Forbidden"}',
    );
    expect((await api("POST", "/groups", { as: "nomad", json: { name: "x", path: "x", parent_id: 1 } })).status).toBe(404);
    expect((await api("POST", "/groups", { as: "dev", json: { name: "x" } })).text).toBe('{"error":"path is missing"}');
    await admin("PUT", "/settings", { tier: "free" });
    const premiumOnly = await api("POST", "/groups", { as: "dev", json: { name: "y", path: "y", membership_lock: true } });
    expect(premiumOnly.status).toBe(400);
    expect((await api("GET", "/groups/y", { as: "root" })).status).toBe(404);
  });

  it("DELETE /groups/:id marks for deletion on a paid tier, removes with permanently_remove and the full path", async () => {
    const group = (await api("POST", "/groups", { as: "dev", json: { name: "Gone", path: "gone" } })).body;
    expect((await api("DELETE", `/groups/${group.id}`, { as: "max" })).status).toBe(404);
    const first = await api("DELETE", `/groups/${group.id}`, { as: "dev" });
    expect([first.status, first.body]).toEqual([202, { message: "202 Accepted" }]);
    expect((await api("GET", `/groups/${group.id}`, { as: "dev" })).body.marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await api("DELETE", `/groups/${group.id}`, { as: "dev" })).text).toBe(
      '{"message":"Group has been already marked for deletion"}',
    );
    const removed = await api("DELETE", `/groups/${group.id}?permanently_remove=true&full_path=gone`, { as: "dev" });
    expect(removed.status).toBe(202);
    expect((await api("GET", `/groups/${group.id}`, { as: "dev" })).status).toBe(404);
  });

  it("DELETE /groups/:id on Free removes the group with its subgroups and projects at once", async () => {
    await admin("PUT", "/settings", { tier: "free" });
    const group = (await api("POST", "/groups", { as: "dev", json: { name: "Free", path: "free" } })).body;
    const sub = (await api("POST", "/groups", { as: "dev", json: { name: "S", path: "s", parent_id: group.id } })).body;
    const project = (await api("POST", "/projects", { as: "dev", json: { name: "p", namespace_id: sub.id } })).body;
    expect((await api("DELETE", `/groups/${group.id}`, { as: "dev" })).status).toBe(202);
    for (const path of [`/groups/${group.id}`, `/groups/${sub.id}`, `/projects/${project.id}`]) {
      expect((await api("GET", path, { as: "root" })).status).toBe(404);
    }
  });
});

describe("projects", () => {
  it("POST /projects makes a personal project by default: path from the name, creator an Owner member, settings as given", async () => {
    const made = await api("POST", "/projects", {
      as: "root",
      json: {
        name: "My Tool",
        description: "d",
        visibility: "public",
        initialize_with_readme: true,
        merge_method: "ff",
        ci_default_git_depth: 5,
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "My Tool",
      path: "my-tool",
      path_with_namespace: "root/my-tool",
      default_branch: "main",
      visibility: "public",
      merge_method: "ff",
      ci_default_git_depth: 5,
      squash_option: "default_off",
      creator_id: 1,
      namespace: { id: 3, kind: "user", path: "root", full_path: "root" },
    });
    const members = (await api("GET", `/projects/${made.body.id}/members`, { as: "root" })).body;
    expect(members.map((member: { username: string; access_level: number }) => [member.username, member.access_level])).toEqual([
      ["root", 50],
    ]);
    // The spec's endpoints serve it: an agent, a member, a protected environment.
    expect((await api("POST", `/projects/${made.body.id}/cluster_agents`, { as: "root", json: { name: "a" } })).status).toBe(201);
    expect((await api("POST", `/projects/${made.body.id}/members`, { as: "root", json: { user_id: 4, access_level: 30 } })).status).toBe(
      201,
    );
    expect((await api("GET", "/projects/root%2Fmy-tool", { as: "dev" })).status).toBe(200);
    const empty = (await api("POST", "/projects", { as: "root", json: { path: "empty" } })).body;
    expect([empty.name, empty.default_branch]).toEqual(["empty", null]);
  });

  it("makes a project in a group only for those the group lets make projects (its project_creation_level)", async () => {
    expect((await api("POST", "/projects", { as: "rita", json: { name: "x", namespace_id: 1 } })).text).toBe(
      '{"message":{"namespace":["is not valid"]}}',
    );
    // The service's default project_creation_level lets Developers make projects; a group can say Maintainers.
    expect((await api("POST", "/projects", { as: "dev", json: { name: "dev-made", namespace_id: 1 } })).status).toBe(201);
    await api("PUT", "/groups/acme", { as: "olivia", json: { project_creation_level: "maintainer" } });
    expect((await api("POST", "/projects", { as: "dev", json: { name: "x", namespace_id: 1 } })).status).toBe(400);
    const made = await api("POST", "/projects", { as: "max", json: { name: "tool", namespace_id: "acme" } });
    expect(made.body.path_with_namespace).toBe("acme/tool");
    expect((await api("POST", "/projects", { as: "max", json: { name: "tool", namespace_id: 1 } })).text).toBe(
      '{"message":{"name":["has already been taken"],"path":["has already been taken"]}}',
    );
    expect((await api("POST", "/projects", { as: "max", json: {} })).text).toBe(
      '{"error":"name, path are missing, at least one parameter must be provided"}',
    );
  });

  it("DELETE /projects/:id: Owners; a group's project is marked on a paid tier, a personal one goes at once", async () => {
    const grouped = (await api("POST", "/projects", { as: "max", json: { name: "g", namespace_id: 1 } })).body;
    expect((await api("DELETE", `/projects/${grouped.id}`, { as: "dev" })).status).toBe(403);
    expect((await api("DELETE", `/projects/${grouped.id}`, { as: "olivia" })).status).toBe(202);
    const marked = (await api("GET", `/projects/${grouped.id}`, { as: "olivia" })).body;
    expect(marked.marked_for_deletion_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await api("DELETE", `/projects/${grouped.id}`, { as: "olivia" })).text).toBe(
      '{"message":"Project has been already marked for deletion"}',
    );
    const personal = (await api("POST", "/projects", { as: "dev", json: { name: "mine" } })).body;
    expect((await api("DELETE", `/projects/${personal.id}`, { as: "dev" })).status).toBe(202);
    expect((await api("GET", `/projects/${personal.id}`, { as: "dev" })).status).toBe(404);
  });
});

describe("a project's settings, archiving, shares and environments", () => {
  it("PUT /projects/:id: Maintainers change the record's fields and settings; a taken path is refused", async () => {
    expect((await api("PUT", "/projects/1", { as: "dev", json: { description: "x" } })).status).toBe(403);
    const res = await api("PUT", "/projects/1", {
      as: "max",
      json: { description: "Web", merge_method: "rebase_merge", topics: ["a"], ci_forward_deployment_enabled: false },
    });
    expect(res.body).toMatchObject({
      description: "Web",
      merge_method: "rebase_merge",
      topics: ["a"],
      ci_forward_deployment_enabled: false,
    });
    expect((await api("GET", "/projects/1", { as: "max" })).body.merge_method).toBe("rebase_merge");
    expect((await api("PUT", "/projects/1", { as: "max", json: { path: "api" } })).text).toBe(
      '{"message":{"path":["has already been taken"]}}',
    );
    expect((await api("PUT", "/projects/1", { as: "max", json: { merge_method: "squash" } })).text).toBe(
      '{"error":"merge_method does not have a valid value"}',
    );
  });

  it("PUT /projects/:id refuses a path the service refuses and a name or path another project of the namespace has", async () => {
    const rule = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
    const put = (json: Record<string, unknown>) => api("PUT", "/projects/1", { as: "max", json });
    expect((await put({ path: "x.git" })).text).toBe(JSON.stringify({ message: { path: [rule] } }));
    expect((await put({ path: ".hidden" })).status).toBe(400);
    expect((await put({ name: "api" })).text).toBe('{"message":{"name":["has already been taken"]}}');
    expect((await api("GET", "/projects/1", { as: "max" })).body).toMatchObject({ name: "Web", path: "web" });
    // Its own name and path, in another case, are no clash.
    expect((await put({ name: "WEB", path: "Web" })).body).toMatchObject({ name: "WEB", path: "Web" });
  });

  it("answers a path starting with '.' alike on POST /groups and PUT /groups/:id", async () => {
    const made = await api("POST", "/groups", { as: "dev", json: { name: "Dot", path: ".dot" } });
    const renamed = await api("PUT", "/groups/acme", { as: "olivia", json: { path: ".acme" } });
    expect([made.status, renamed.status]).toEqual([400, 400]);
    const rule = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
    expect(made.body.message).toBe(`Failed to save group {:path=>${JSON.stringify([rule])}}`);
    expect(renamed.body).toEqual({ message: { path: [rule] } });
  });

  it("POST /projects/:id/archive and /unarchive: Owners; listings filter on it", async () => {
    expect((await api("POST", "/projects/2/archive", { as: "max" })).status).toBe(403);
    expect((await api("POST", "/projects/2/archive", { as: "olivia" })).body.archived).toBe(true);
    const archived = (await api("GET", "/groups/acme/projects?archived=true", { as: "olivia" })).body;
    expect(archived.map((project: { id: number }) => project.id)).toEqual([2]);
    expect((await api("POST", "/projects/2/unarchive", { as: "olivia" })).body.archived).toBe(false);
  });

  it("POST /projects/:id/share gives a group access, which the spec's endpoints then count", async () => {
    const group = (await api("POST", "/groups", { as: "dev", json: { name: "Partners", path: "partners", visibility: "internal" } })).body;
    const shared = await api("POST", "/projects/2/share", { as: "max", json: { group_id: group.id, group_access: 40 } });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ project_id: 2, group_id: group.id, group_access: 40, expires_at: null });
    expect((await api("POST", "/projects/2/share", { as: "max", json: { group_id: group.id, group_access: 30 } })).status).toBe(409);
    // Project level: a group the project is shared with is assignable (the protected environments' rule on groups the project is shared with).
    const environment = await api("POST", "/projects/2/protected_environments", {
      as: "max",
      json: { name: "production", deploy_access_levels: [{ group_id: group.id }] },
    });
    expect(environment.status).toBe(201);
    expect((await api("DELETE", `/projects/2/share/${group.id}`, { as: "max" })).status).toBe(204);
    expect((await api("DELETE", `/projects/2/share/${group.id}`, { as: "max" })).text).toBe('{"message":"404 Group Link Not Found"}');
  });

  it("environments: Developers make and stop them; only a stopped one is deleted", async () => {
    const made = await api("POST", "/projects/1/environments", {
      as: "dev",
      json: { name: "review/feature-x", external_url: "https://x.example" },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "review/feature-x", slug: "review-feature-x", tier: "development", state: "available" });
    expect((await api("POST", "/projects/1/environments", { as: "dev", json: { name: "review/feature-x" } })).status).toBe(400);
    expect((await api("POST", "/projects/1/environments", { as: "rita", json: { name: "qa" } })).status).toBe(403);
    expect((await api("DELETE", `/projects/1/environments/${made.body.id}`, { as: "dev" })).status).toBe(403);
    expect((await api("POST", `/projects/1/environments/${made.body.id}/stop`, { as: "dev" })).body.state).toBe("stopped");
    expect((await api("DELETE", `/projects/1/environments/${made.body.id}`, { as: "dev" })).status).toBe(204);
    expect((await api("GET", `/projects/1/environments/${made.body.id}`, { as: "dev" })).text).toBe('{"message":"404 Not found"}');
  });

  it("GET /application/settings: administrators read the defaults projects and groups follow", async () => {
    expect((await api("GET", "/application/settings", { as: "olivia" })).status).toBe(403);
    expect((await api("GET", "/application/settings", { as: "root" })).body).toMatchObject({
      default_branch_protection: 2,
      default_project_visibility: "private",
      delayed_project_deletion: true,
    });
  });
});

describe("POST /api/graphql", () => {
  it("answers the currentUser query in any form a client writes it", async () => {
    const query = "query Me { currentUser { id username name bot groupCount publicEmail namespace { id } } }";
    expect(await graphql(query, "root")).toEqual({
      status: 200,
      body: {
        data: {
          currentUser: {
            id: "gid://gitlab/User/1",
            username: "root",
            name: "Administrator",
            bot: false,
            groupCount: 0,
            publicEmail: null,
            namespace: { id: "gid://gitlab/Namespaces::UserNamespace/3" },
          },
        },
      },
    });
    const aliased = await graphql("{ me: currentUser { login: username ...F } } fragment F on CurrentUser { groupCount }", "dev");
    expect(aliased.body).toEqual({ data: { me: { login: "dev", groupCount: 1 } } });
    expect((await graphql("{ currentUser { username } }")).body).toEqual({ data: { currentUser: null } });
  });

  it("says clearly what it does not serve, in GraphQL's error shape", async () => {
    const other = await graphql("{ projects { nodes { id } } }", "root");
    expect(other.status).toBe(200);
    expect(other.body.errors[0].message).toContain("serves the currentUser query only");
    expect(other.body.errors[0].message).toContain('Cannot query field "projects" on type "Query"');
    const res = await fetch(`${emulator().url}/api/graphql`, { method: "POST", headers: { "PRIVATE-TOKEN": "forge-root-token" } });
    expect([res.status, await res.json()]).toEqual([422, { errors: [{ message: "No query string was present" }] }]);
  });
});

describe("the service's wire names beside the spec's anonymized ones", () => {
  const PLATFORM = { api_url: "https://k8s.example.com", token: "secret", authorization_type: "abac" };

  it("instance clusters: platform_kubernetes_attributes is taken; answers carry platform_kubernetes, provider_gcp and the product as platform_type", async () => {
    const made = await api("POST", "/admin/clusters/add", {
      as: "root",
      form: "name=k&platform_kubernetes_attributes[api_url]=https%3A%2F%2Fk8s.example.com&platform_kubernetes_attributes[token]=t",
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      platform_type: "kubernetes",
      platform_vendor: { api_url: "https://k8s.example.com", authorization_type: "rbac" },
      platform_kubernetes: { api_url: "https://k8s.example.com", authorization_type: "rbac" },
      provider_vendor: null,
      provider_gcp: null,
    });
    const both = await api("POST", "/admin/clusters/add", {
      as: "root",
      json: {
        name: "both",
        platform_vendor_attributes: PLATFORM,
        platform_kubernetes_attributes: { ...PLATFORM, api_url: "https://x.example" },
      },
    });
    expect(both.body.platform_vendor.api_url).toBe("https://k8s.example.com");
    const updated = await api("PUT", `/admin/clusters/${made.body.id}`, {
      as: "root",
      json: { platform_kubernetes_attributes: { api_url: "https://k8s2.example.com" } },
    });
    expect(updated.body.platform_kubernetes.api_url).toBe("https://k8s2.example.com");
    const log = (await admin("GET", "/requests")).body as { method: string; ignored?: string[] }[];
    expect(log.filter((entry) => entry.method === "POST").map((entry) => entry.ignored)).toEqual([undefined, undefined]);
  });

  it("error tracking answers sentry_external_url and sentry_dsn beside the spec's names", async () => {
    const settings = await api("PUT", "/projects/1/error_tracking/settings", { as: "max", json: { active: true, integrated: true } });
    expect(settings.body).toMatchObject({ vendor_external_url: null, sentry_external_url: null });
    const key = await api("POST", "/projects/1/error_tracking/client_keys", { as: "max" });
    expect(key.body.sentry_dsn).toBe(key.body.vendor_dsn);
  });

  it("groups take and answer duo_* beside vendor_*", async () => {
    const res = await api("PUT", "/groups/acme", { as: "olivia", json: { duo_availability: "never_on" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ vendor_availability: "never_on", duo_availability: "never_on" });
  });
});
