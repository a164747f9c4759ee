import { describe, expect, it } from "vitest";
import { EVENT_FLAG_DEFAULTS, INTEGRATIONS } from "../../api/integrations";
import { useEmulator } from "./helpers";

const { api, admin } = useEmulator();
const BASE = "/groups/acme/integrations";
const WEBHOOK = "https://chat.example.com/hooks/secret-token";

describe("group integrations", () => {
  it("serves the three routes of every slug of the API's table of group integrations, and no other slug", async () => {
    for (const slug of Object.keys(INTEGRATIONS)) {
      expect((await api("GET", `${BASE}/${slug}`, { as: "max" })).body).toEqual({ message: "404 Integration Not Found" });
    }
    expect(await api("GET", `${BASE}/not-a-slug`, { as: "max" })).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
  });

  it("sets up with PUT and reads it back: settings under properties, event flags beside them, the credential never", async () => {
    const put = await api("PUT", `${BASE}/chat-webhook`, {
      as: "max",
      json: {
        webhook: WEBHOOK,
        push_events: false,
        push_channel: "https://chat.example.com/hooks/pushes",
        branches_to_be_notified: "protected",
      },
    });
    expect(put.status).toBe(200);
    const read = await api("GET", `${BASE}/chat-webhook`, { as: "max" });
    expect(read.body).toEqual(put.body);
    expect(read.body).toMatchObject({
      id: expect.any(Number),
      title: "Chat webhook",
      slug: "chat-webhook",
      active: true,
      inherited: false,
      push_events: false,
      issues_events: true,
      pipeline_events: false,
      created_at: expect.stringMatching(/Z$/),
      properties: {
        branches_to_be_notified: "protected",
        notify_only_broken_pipelines: true,
        push_channel: "https://chat.example.com/hooks/pushes",
        issue_channel: null,
      },
    });
    expect(read.text).not.toContain("secret-token");
    expect(read.body.properties).not.toHaveProperty("webhook");
  });

  it("keeps what a later PUT leaves out, and requires the required parameters on every PUT", async () => {
    await api("PUT", `${BASE}/emails-on-push`, { as: "max", json: { recipients: "a@example.com", disable_diffs: true } });
    const missing = await api("PUT", `${BASE}/emails-on-push`, { as: "max", json: { disable_diffs: false } });
    expect(missing).toMatchObject({ status: 400, body: { error: "recipients is missing" } });
    await api("PUT", `${BASE}/emails-on-push`, { as: "max", form: "recipients=b%40example.com&tag_push_events=false" });
    const read = await api("GET", `${BASE}/emails-on-push`, { as: "max" });
    expect(read.body).toMatchObject({
      tag_push_events: false,
      push_events: true,
      properties: { recipients: "b@example.com", disable_diffs: true, branches_to_be_notified: "all" },
    });
  });

  it("refuses bad values with the service's errors", async () => {
    const cases: [string, Record<string, unknown>, number, unknown][] = [
      ["task-tracker", {}, 400, { error: "api_key is missing" }],
      ["ci-server-a", { vendor_url: "https://ci.example.com", build_key: "KEY", username: "u" }, 400, { error: "password is missing" }],
      [
        "emails-on-push",
        { recipients: "a@example.com", branches_to_be_notified: "some" },
        400,
        { error: "branches_to_be_notified does not have a valid value" },
      ],
      ["emails-on-push", { recipients: "a@example.com", disable_diffs: "yes" }, 400, { error: "disable_diffs is invalid" }],
      ["external-wiki", { external_wiki_url: "wiki.example.com" }, 400, { message: { external_wiki_url: ["must be a valid URL"] } }],
      ["external-wiki", { external_wiki_url: "  " }, 400, { message: { external_wiki_url: ["can't be blank"] } }],
      // The rule the provider's check applies: what the emulator takes, a program can declare.
      [
        "emails-on-push",
        { recipients: "ops@example.com, dev" },
        400,
        { message: { recipients: ["must be e-mail addresses separated by whitespace"] } },
      ],
    ];
    for (const [slug, body, status, answer] of cases) {
      expect(await api("PUT", `${BASE}/${slug}`, { as: "max", json: body }), slug).toMatchObject({ status, body: answer });
    }
  });

  it("needs the Maintainer role in the group, reads included", async () => {
    expect((await api("PUT", `${BASE}/external-wiki`, { as: "dev", json: { external_wiki_url: "https://wiki.example.com" } })).status).toBe(
      403,
    );
    await api("PUT", `${BASE}/external-wiki`, { as: "max", json: { external_wiki_url: "https://wiki.example.com" } });
    expect((await api("GET", `${BASE}/external-wiki`, { as: "dev" })).status).toBe(403);
    expect((await api("GET", BASE, { as: "dev" })).status).toBe(403);
    expect((await api("DELETE", `${BASE}/external-wiki`, { as: "dev" })).status).toBe(403);
    expect((await api("GET", `${BASE}/external-wiki`)).status).toBe(401);
  });

  it("DELETE disables the integration and resets its settings; the record stays, inactive", async () => {
    await api("PUT", `${BASE}/monitoring`, {
      as: "max",
      json: { api_key: "k", vendor_env: "prod", archive_trace_events: true, use_inherited_settings: true },
    });
    const deleted = await api("DELETE", `${BASE}/monitoring`, { as: "max" });
    expect(deleted.status).toBe(204);
    const read = await api("GET", `${BASE}/monitoring`, { as: "max" });
    expect(read.body).toMatchObject({
      active: false,
      inherited: false,
      properties: { vendor_env: null, archive_trace_events: false, api_url: null },
    });
    expect(await api("DELETE", `${BASE}/wiki-workspace`, { as: "max" })).toMatchObject({
      status: 404,
      body: { message: "404 Integration Not Found" },
    });
  });

  it("lists the active integrations only, as list entries with every event flag, not paginated", async () => {
    await api("PUT", `${BASE}/external-wiki`, { as: "max", json: { external_wiki_url: "https://wiki.example.com" } });
    await api("PUT", `${BASE}/ci-server-b`, {
      as: "max",
      json: { token: "t", vendor_url: "https://drone.example.com", push_events: false },
    });
    await api("PUT", `${BASE}/bug-tracker`, {
      as: "max",
      json: { new_issue_url: "https://b.example.com/new", issues_url: "https://b.example.com/:id", project_url: "https://b.example.com" },
    });
    await api("DELETE", `${BASE}/bug-tracker`, { as: "max" });
    const list = await api("GET", BASE, { as: "max" });
    expect(list.headers.get("x-total")).toBeNull();
    expect(list.body.map((entry: { slug: string }) => entry.slug)).toEqual(["external-wiki", "ci-server-b"]);
    const entry = list.body[1];
    expect(Object.keys(entry).sort()).toEqual(
      ["active", "created_at", "id", "inherited", "slug", "title", "updated_at", ...Object.keys(EVENT_FLAG_DEFAULTS)].sort(),
    );
    expect(entry).toMatchObject({ push_events: false, merge_requests_events: true });
    expect(JSON.stringify(list.body)).not.toContain('"t"');
    expect((await api("GET", "/groups/acme%2Fplatform/integrations", { as: "max" })).body).toEqual([]);
  });

  it("has vulnerability_events in the higher edition only", async () => {
    await api("PUT", `${BASE}/external-wiki`, { as: "max", json: { external_wiki_url: "https://wiki.example.com" } });
    expect((await api("GET", BASE, { as: "max" })).body[0]).toHaveProperty("vulnerability_events", false);
    await admin("PUT", "/settings", { tier: "premium" });
    expect((await api("GET", BASE, { as: "max" })).body[0]).not.toHaveProperty("vulnerability_events");
    expect((await api("GET", `${BASE}/external-wiki`, { as: "max" })).body).not.toHaveProperty("vulnerability_events");
  });

  it("keeps the deprecated SSL switch of the pipeline service on: it has no effect", async () => {
    await api("PUT", `${BASE}/ci-pipeline-service`, {
      as: "max",
      json: { token: "t", project_url: "https://ci.example.com/p", enable_ssl_verification: false },
    });
    expect((await api("GET", `${BASE}/ci-pipeline-service`, { as: "max" })).body.properties.enable_ssl_verification).toBe(true);
  });

  it("reads use_inherited_settings back as inherited", async () => {
    await api("PUT", `${BASE}/wiki-workspace`, { as: "max", json: { vendor_url: "https://w.example.com", use_inherited_settings: true } });
    expect((await api("GET", `${BASE}/wiki-workspace`, { as: "max" })).body.inherited).toBe(true);
  });
});
