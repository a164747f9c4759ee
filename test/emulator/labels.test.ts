import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { seedState } from "../../emulator/admin/seed";
import { call, useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

const archiving = () => admin("PUT", "/settings", { labels_archive: true });

const createLabel = (group: string, json: Record<string, unknown>, as: "max" | "root" = "max") =>
  api("POST", `/groups/${encodeURIComponent(group)}/labels`, { as, json });

describe("group labels: create", () => {
  it("keeps a hex color as sent and derives the text color", async () => {
    const res = await createLabel("acme", { name: "bug", color: "#d9534f", description: "Broken" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "bug",
      color: "#d9534f",
      text_color: "#FFFFFF",
      description: "Broken",
      description_html: '<p dir="auto">Broken</p>',
      subscribed: false,
      archived: false,
    });
    expect(typeof res.body.id).toBe("number");
  });

  it("stores a CSS color name as upper-case hex, with dark text on a light color", async () => {
    expect((await createLabel("acme", { name: "a", color: "red" })).body.color).toBe("#FF0000");
    const light = await createLabel("acme", { name: "b", color: "LightYellow" });
    expect(light.body).toMatchObject({ color: "#FFFFE0", text_color: "#1F1E24" });
  });

  it("refuses an invalid color with a model error", async () => {
    const res = await createLabel("acme", { name: "x", color: "#12345" });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"message":{"color":["must be a valid color code"]}}');
  });

  it("names every missing required parameter", async () => {
    const res = await createLabel("acme", {});
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"name is missing, color is missing"}');
  });

  it("refuses a title taken in the group or in an ancestor group with 409", async () => {
    await createLabel("acme", { name: "shared", color: "#000000" });
    for (const group of ["acme", "acme/platform"]) {
      const res = await createLabel(group, { name: "shared", color: "#111111" });
      expect(res.status).toBe(409);
      expect(res.text).toBe('{"message":"Label already exists"}');
    }
  });

  it("lets a parent group reuse the title of a subgroup label", async () => {
    await createLabel("acme/platform", { name: "local", color: "#000000" });
    expect((await createLabel("acme", { name: "local", color: "#000000" })).status).toBe(201);
  });

  it("accepts a form-encoded body", async () => {
    const res = await api("POST", "/groups/acme/labels", { as: "max", form: "name=form+label&color=%23AABBCC" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "form label", color: "#AABBCC" });
  });
});

describe("group labels: roles", () => {
  it("lets a Reporter manage labels and refuses a Guest with 403", async () => {
    expect((await api("POST", "/groups/acme/labels", { as: "rita", json: { name: "r", color: "red" } })).status).toBe(201);
    const guest = await api("POST", "/groups/acme/labels", { as: "gus", json: { name: "g", color: "red" } });
    expect(guest.status).toBe(403);
    expect(guest.text).toBe('{"message":"403 Forbidden"}');
  });

  it("lets an administrator without membership manage labels", async () => {
    expect((await createLabel("acme/platform", { name: "admin", color: "red" }, "root")).status).toBe(201);
  });

  it("lets a Guest read labels", async () => {
    await createLabel("acme", { name: "visible", color: "red" });
    const res = await api("GET", "/groups/acme/labels", { as: "gus" });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { name: string }) => l.name)).toEqual(["visible"]);
  });

  it("hides the private group from outsiders with 404", async () => {
    const res = await api("GET", "/groups/acme/labels", { as: "nomad" });
    expect(res.status).toBe(404);
    expect(res.text).toBe('{"message":"404 Group Not Found"}');
  });

  it("asks anonymous readers for credentials with 401, even in a public group (labels are not on the API's list of anonymous reads)", async () => {
    await createLabel("acme", { name: "seen", color: "red" });
    await admin("PUT", "/groups/acme", { visibility: "public" });
    expect((await api("GET", "/groups/acme")).status).toBe(200);
    for (const path of ["/groups/acme/labels", "/groups/acme/labels/seen"]) {
      const res = await api("GET", path);
      expect(res.status).toBe(401);
      expect(res.text).toBe('{"message":"401 Unauthorized"}');
    }
  });

  it("asks anonymous writers for credentials with 401", async () => {
    const res = await api("POST", "/groups/acme/labels", { json: { name: "n", color: "red" } });
    expect(res.status).toBe(401);
    expect(res.text).toBe('{"message":"401 Unauthorized"}');
  });
});

describe("group labels: list and read", () => {
  it("includes ancestor labels by default and descendants on request", async () => {
    await createLabel("acme", { name: "top", color: "red" });
    await createLabel("acme/platform", { name: "sub", color: "red" });
    const names = async (path: string) => (await api("GET", path, { as: "dev" })).body.map((l: { name: string }) => l.name);
    expect(await names("/groups/acme%2Fplatform/labels")).toEqual(["sub", "top"]);
    expect(await names("/groups/acme%2Fplatform/labels?include_ancestor_groups=false")).toEqual(["sub"]);
    expect(await names("/groups/acme/labels")).toEqual(["top"]);
    expect(await names("/groups/acme/labels?include_descendant_groups=true")).toEqual(["sub", "top"]);
  });

  it("filters by search and by archived (with the labels_archive flag)", async () => {
    await archiving();
    await createLabel("acme", { name: "frontend", color: "red" });
    await createLabel("acme", { name: "backend", color: "red", archived: true });
    const names = async (query: string) =>
      (await api("GET", `/groups/acme/labels?${query}`, { as: "dev" })).body.map((l: { name: string }) => l.name);
    expect(await names("search=front")).toEqual(["frontend"]);
    expect(await names("archived=true")).toEqual(["backend"]);
    expect(await names("archived=false")).toEqual(["frontend"]);
  });

  it("reads a label by id or by title, ancestors included", async () => {
    const label = (await createLabel("acme", { name: "needs review", color: "red" })).body;
    expect((await api("GET", `/groups/acme/labels/${label.id}`, { as: "dev" })).body.name).toBe("needs review");
    const byTitle = await api("GET", "/groups/acme%2Fplatform/labels/needs%20review", { as: "dev" });
    expect(byTitle.body.id).toBe(label.id);
    const missing = await api("GET", "/groups/acme/labels/nope", { as: "dev" });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('{"message":"404 Label Not Found"}');
  });
});

describe("group labels: the labels_archive flag", () => {
  it("is off by default: archived is ignored on create, update and in the listing's filter", async () => {
    expect((await admin("GET", "/settings")).body.labels_archive).toBe(false);
    const created = await createLabel("acme", { name: "old", color: "red", archived: true });
    expect(created.status).toBe(201);
    expect(created.body.archived).toBe(false);
    const updated = await api("PUT", `/groups/acme/labels/${created.body.id}`, { as: "max", json: { archived: true } });
    expect(updated.status).toBe(200);
    expect(updated.body.archived).toBe(false);
    const names = async (query: string) =>
      (await api("GET", `/groups/acme/labels?${query}`, { as: "dev" })).body.map((l: { name: string }) => l.name);
    expect(await names("archived=true")).toEqual(["old"]);
    expect(await names("archived=false")).toEqual(["old"]);
  });

  it("when on, archives and unarchives", async () => {
    await archiving();
    const created = await createLabel("acme", { name: "old", color: "red", archived: true });
    expect(created.body.archived).toBe(true);
    const updated = await api("PUT", `/groups/acme/labels/${created.body.id}`, { as: "max", json: { archived: false } });
    expect(updated.body.archived).toBe(false);
  });
});

describe("group labels: counts and project labels", () => {
  it("gives the counts only with with_counts=true", async () => {
    const created = await createLabel("acme", { name: "counted", color: "red" });
    for (const record of [
      created.body,
      (await api("GET", "/groups/acme/labels/counted", { as: "dev" })).body,
      (await api("GET", "/groups/acme/labels", { as: "dev" })).body[0],
    ]) {
      expect(record).not.toHaveProperty("open_issues_count");
      expect(record).not.toHaveProperty("closed_issues_count");
      expect(record).not.toHaveProperty("open_merge_requests_count");
    }
    const counted = (await api("GET", "/groups/acme/labels?with_counts=true", { as: "dev" })).body[0];
    expect(counted).toMatchObject({ name: "counted", open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
  });

  it("leaves out the labels of the group's projects unless only_group_labels=false", async () => {
    const seeded = emulator().seed.projects as { id: number; path_with_namespace: string }[];
    const web = seeded.find((p) => p.path_with_namespace === "acme/web")!.id;
    const dir = mkdtempSync(join(tmpdir(), "labels-"));
    const path = join(dir, "state.json");
    // A project label can only come from a state file: the emulator serves no project label routes.
    const state = seedState();
    const acme = state.groups.find((g) => g.path === "acme" && g.parent_id === null)!.id;
    (state as unknown as { labels: unknown[] }).labels.push(
      {
        id: 900,
        group_id: null,
        project_id: web,
        title: "project-level",
        color: "#00FF00",
        description: null,
        archived: false,
        subscriber_ids: [],
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      },
      {
        id: 901,
        group_id: acme,
        title: "group-level",
        color: "#FF0000",
        description: null,
        archived: false,
        subscriber_ids: [],
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      },
    );
    writeFileSync(path, JSON.stringify(state));
    const loaded = await startEmulator({ statePath: path });
    try {
      const names = async (query: string) =>
        (await call(loaded.url, "GET", `/groups/acme/labels${query}`, { as: "dev" })).body.map(
          (l: { name: string; is_project_label: boolean }) => `${l.name}:${l.is_project_label}`,
        );
      expect(await names("")).toEqual(["group-level:false"]);
      expect(await names("?only_group_labels=true")).toEqual(["group-level:false"]);
      expect(await names("?only_group_labels=false")).toEqual(["group-level:false", "project-level:true"]);
      expect((await call(loaded.url, "GET", "/groups/acme/labels/project-level", { as: "dev" })).status).toBe(404);
      expect((await call(loaded.url, "GET", "/groups/acme/labels/project-level?only_group_labels=false", { as: "dev" })).status).toBe(200);
      // Writes through the group never reach a project's label.
      expect((await call(loaded.url, "DELETE", "/groups/acme/labels/900", { as: "max" })).status).toBe(404);
    } finally {
      await loaded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("group labels: lookup by id or title", () => {
  it("tries digits as an id first: a label titled with another label's id is reached by listing", async () => {
    const first = (await createLabel("acme", { name: "first", color: "red" })).body;
    const numeric = (await createLabel("acme", { name: String(first.id), color: "blue" })).body;
    expect((await api("GET", `/groups/acme/labels/${first.id}`, { as: "dev" })).body.id).toBe(first.id);
    const listed = (await api("GET", "/groups/acme/labels", { as: "dev" })).body;
    expect(listed.find((l: { name: string }) => l.name === String(first.id)).id).toBe(numeric.id);
    // Without a label of that id in scope, the digits are a title.
    expect((await api("GET", "/groups/acme/labels/999999", { as: "dev" })).status).toBe(404);
    const lone = (await createLabel("acme", { name: "424242", color: "blue" })).body;
    expect((await api("GET", "/groups/acme/labels/424242", { as: "dev" })).body.id).toBe(lone.id);
  });
});

describe("group labels: update and delete", () => {
  it("renames through new_name and changes color, description and archived", async () => {
    await archiving();
    const label = (await createLabel("acme", { name: "old", color: "red" })).body;
    const res = await api("PUT", `/groups/acme/labels/${label.id}`, {
      as: "max",
      json: { new_name: "new", color: "blue", description: "d", archived: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: label.id, name: "new", color: "#0000FF", description: "d", archived: true });
  });

  it("requires at least one change", async () => {
    await createLabel("acme", { name: "l", color: "red" });
    const res = await api("PUT", "/groups/acme/labels/l", { as: "max", json: {} });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"new_name, color, description, archived are missing, at least one parameter must be provided"}');
  });

  it("refuses a rename onto a title of an ancestor group, as it refuses one of the group", async () => {
    await createLabel("acme", { name: "inherited", color: "red" });
    const own = (await createLabel("acme/platform", { name: "own", color: "red" })).body;
    const res = await api("PUT", `/groups/acme%2Fplatform/labels/${own.id}`, { as: "max", json: { new_name: "inherited" } });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"message":{"title":["has already been taken"]}}');
    // A descendant's title stays free, as it is for create; renaming to its own title is no clash.
    await createLabel("acme/platform", { name: "below", color: "red" });
    const top = (await createLabel("acme", { name: "top", color: "red" })).body;
    expect((await api("PUT", `/groups/acme/labels/${top.id}`, { as: "max", json: { new_name: "below" } })).status).toBe(200);
    expect((await api("PUT", `/groups/acme/labels/${top.id}`, { as: "max", json: { new_name: " below " } })).status).toBe(200);
  });

  it("refuses a rename onto a taken title", async () => {
    await createLabel("acme", { name: "a", color: "red" });
    await createLabel("acme", { name: "b", color: "red" });
    const res = await api("PUT", "/groups/acme/labels/a", { as: "max", json: { new_name: "b" } });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"message":{"title":["has already been taken"]}}');
  });

  it("serves the deprecated name-addressed PUT and DELETE", async () => {
    await createLabel("acme", { name: "legacy", color: "red" });
    const put = await api("PUT", "/groups/acme/labels", { as: "max", json: { name: "legacy", color: "#000000" } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "legacy", color: "#000000" });
    const del = await api("DELETE", "/groups/acme/labels", { as: "max", form: "name=legacy" });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await api("GET", "/groups/acme/labels/legacy", { as: "max" })).status).toBe(404);
  });

  it("does not change or delete an ancestor's label through a subgroup", async () => {
    const { id } = (await createLabel("acme", { name: "parent", color: "red" })).body;
    expect((await api("DELETE", "/groups/acme%2Fplatform/labels/parent", { as: "max" })).status).toBe(404);
    // By id too, as the service's update_label and delete_label look it up without ancestors;
    // a read shows it through the subgroup unless told to keep to the group's own.
    const put = await api("PUT", `/groups/acme%2Fplatform/labels/${id}`, { as: "max", json: { color: "blue" } });
    expect([put.status, put.text]).toEqual([404, '{"message":"404 Label Not Found"}']);
    expect((await api("DELETE", `/groups/acme%2Fplatform/labels/${id}`, { as: "max" })).status).toBe(404);
    expect((await api("GET", `/groups/acme%2Fplatform/labels/${id}`, { as: "max" })).body).toMatchObject({ id, color: "#FF0000" });
    expect((await api("GET", `/groups/acme%2Fplatform/labels/${id}?include_ancestor_groups=false`, { as: "max" })).status).toBe(404);
    expect((await api("DELETE", "/groups/acme/labels/parent", { as: "max", json: {} })).status).toBe(204);
  });
});

describe("group labels: subscriptions", () => {
  it("subscribes per user and answers 304 when nothing changes", async () => {
    await createLabel("acme", { name: "watched", color: "red" });
    const first = await api("POST", "/groups/acme/labels/watched/subscribe", { as: "dev" });
    expect(first.status).toBe(201);
    expect(first.body.subscribed).toBe(true);
    const again = await api("POST", "/groups/acme/labels/watched/subscribe", { as: "dev" });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await api("GET", "/groups/acme/labels/watched", { as: "rita" })).body.subscribed).toBe(false);
    expect((await api("POST", "/groups/acme/labels/watched/unsubscribe", { as: "dev" })).body.subscribed).toBe(false);
    expect((await api("POST", "/groups/acme/labels/watched/unsubscribe", { as: "dev" })).status).toBe(304);
  });
});
