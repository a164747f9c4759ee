import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const { api } = useEmulator();

/** The API's group record: core fields every reader gets */
const CORE_FIELDS = [
  "id",
  "name",
  "path",
  "description",
  "visibility",
  "avatar_url",
  "web_url",
  "full_name",
  "full_path",
  "request_access_enabled",
  "repository_storage",
  "file_template_project_id",
  "parent_id",
  "created_at",
  "shared_with_groups",
  "ip_restriction_ranges",
  "math_rendering_limits_enabled",
  "lock_math_rendering_limits_enabled",
  "only_allow_merge_if_pipeline_succeeds",
  "allow_merge_on_skipped_pipeline",
  "only_allow_merge_if_all_discussions_are_resolved",
  "allow_personal_snippets",
];

describe("GET /groups/:id", () => {
  it("has every core field of the API's group record", async () => {
    const res = await api("GET", "/groups/acme%2Fplatform", { as: "dev" });
    expect(res.status).toBe(200);
    for (const field of CORE_FIELDS) expect(res.body, field).toHaveProperty(field);
    expect(res.body).toMatchObject({
      repository_storage: "default",
      shared_with_groups: [],
      ip_restriction_ranges: null,
      allow_personal_snippets: true,
    });
  });

  it("shows runners_token and enabled_git_access_protocol to an Owner and an administrator only", async () => {
    for (const as of ["olivia", "root"] as const) {
      const res = await api("GET", "/groups/acme", { as });
      expect(res.body.runners_token, as).toMatch(/^GR1348941\S{20}$/);
      expect(res.body.enabled_git_access_protocol, as).toBe("all");
    }
    expect((await api("GET", "/groups/acme", { as: "olivia" })).body.runners_token).toBe(
      (await api("GET", "/groups/acme", { as: "root" })).body.runners_token,
    );
    for (const as of ["max", "dev", "gus"] as const) {
      const res = await api("GET", "/groups/acme", { as });
      expect(res.body, as).not.toHaveProperty("runners_token");
      expect(res.body, as).not.toHaveProperty("enabled_git_access_protocol");
    }
  });

  it("has prevent_sharing_groups_outside_hierarchy on top-level groups only", async () => {
    expect((await api("GET", "/groups/acme", { as: "dev" })).body.prevent_sharing_groups_outside_hierarchy).toBe(false);
    expect((await api("GET", "/groups/acme%2Fplatform", { as: "dev" })).body).not.toHaveProperty(
      "prevent_sharing_groups_outside_hierarchy",
    );
  });

  it("lists its projects and the projects shared with it unless with_projects=false", async () => {
    const acme = (await api("GET", "/groups/acme", { as: "dev" })).body;
    expect(acme.projects.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(["acme/web", "acme/api"]);
    expect(acme.shared_projects).toEqual([]);
    expect(acme.projects[0]).toMatchObject({
      name: "Web",
      namespace: { kind: "group", path: "acme" },
      issues_enabled: true,
      archived: false,
      topics: [],
    });
    const platform = (await api("GET", "/groups/acme%2Fplatform", { as: "dev" })).body;
    expect(platform.projects.map((p: { path: string }) => p.path)).toEqual(["deployer"]);
    expect(platform.shared_projects.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(["acme/web"]);
    const without = (await api("GET", "/groups/acme?with_projects=false", { as: "dev" })).body;
    expect(without).not.toHaveProperty("projects");
    expect(without).not.toHaveProperty("shared_projects");
  });

  it("embeds each project's own feature switches, as GET /groups/:id/projects lists them", async () => {
    const made = await api("POST", "/projects", {
      as: "olivia",
      json: { name: "Quiet", namespace_id: "acme", issues_enabled: false, wiki_enabled: false },
    });
    expect(made.status).toBe(201);
    const switches = (record: Record<string, unknown>) => [
      record["issues_enabled"],
      record["wiki_enabled"],
      record["merge_requests_enabled"],
    ];
    const embedded = (await api("GET", "/groups/acme", { as: "olivia" })).body.projects.find((p: { id: number }) => p.id === made.body.id);
    const listed = (await api("GET", "/groups/acme/projects", { as: "olivia" })).body.find((p: { id: number }) => p.id === made.body.id);
    expect(switches(embedded)).toEqual([false, false, true]);
    expect(switches(listed)).toEqual([false, false, true]);
    const withIssues = (await api("GET", "/groups/acme/projects?with_issues_enabled=true", { as: "olivia" })).body;
    expect(withIssues.map((p: { path: string }) => p.path).sort()).toEqual(["api", "web"]);
  });

  it("adds custom attributes for an administrator who asks, and for no one else", async () => {
    expect((await api("GET", "/groups/acme?with_custom_attributes=true", { as: "root" })).body.custom_attributes).toEqual([]);
    expect((await api("GET", "/groups/acme", { as: "root" })).body).not.toHaveProperty("custom_attributes");
    expect((await api("GET", "/groups/acme?with_custom_attributes=true", { as: "olivia" })).body).not.toHaveProperty("custom_attributes");
  });
});
