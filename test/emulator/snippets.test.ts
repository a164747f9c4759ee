import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const { api, admin } = useEmulator();

async function create(as: "dev" | "max" | "root", json: Record<string, unknown>): Promise<{ id: number }> {
  const res = await api("POST", "/snippets", { as, json });
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

const files = (...pairs: [string, string][]) => pairs.map(([file_path, content]) => ({ file_path, content }));

describe("snippets", () => {
  it("creates a private snippet by default, with its files listed by path and raw URL", async () => {
    const res = await api("POST", "/snippets", { as: "dev", json: { title: "t", files: files(["b.txt", "B"], ["a/x.txt", "A"]) } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: "t",
      visibility: "private",
      description: null,
      project_id: null,
      file_name: "a/x.txt",
      author: { username: "dev" },
    });
    expect(res.body.files).toEqual([
      { path: "a/x.txt", raw_url: expect.stringMatching(/\/-\/snippets\/1\/raw\/main\/a\/x\.txt$/) },
      { path: "b.txt", raw_url: expect.stringMatching(/raw\/main\/b\.txt$/) },
    ]);
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ["neither files nor content", { title: "t" }, { error: "files, content are missing, exactly one parameter must be provided" }],
    ["both", { title: "t", content: "x", files: files(["a", "b"]) }, { error: "files, content are mutually exclusive" }],
    ["blank file content", { title: "t", files: files(["a", "  "]) }, { error: "files[0][content] is empty" }],
    [
      "two files at one path",
      { title: "t", files: files(["a", "1"], ["a", "2"]) },
      { message: { repository: ["A file with this name already exists"] } },
    ],
    ["a blank title", { title: " ", files: files(["a", "1"]) }, { message: { title: ["can't be blank"] } }],
    [
      "an unknown visibility",
      { title: "t", visibility: "secret", files: files(["a", "1"]) },
      { error: "visibility does not have a valid value" },
    ],
  ])("refuses %s with 400", async (_case, json, body) => {
    expect(await api("POST", "/snippets", { as: "dev", json })).toMatchObject({ status: 400, body });
  });

  it("takes the deprecated content and file_name for one file", async () => {
    const { id } = await create("dev", { title: "old", content: "hello", file_name: "hello.txt" });
    expect((await api("GET", `/snippets/${id}/raw`, { as: "dev" })).text).toBe("hello");
  });

  it("applies per-file actions in order, all or nothing", async () => {
    const { id } = await create("dev", { title: "t", files: files(["keep", "k"], ["old/name", "moved"], ["edit", "e1"], ["gone", "g"]) });
    const actions = [
      { action: "move", previous_path: "old/name", file_path: "new/name" },
      { action: "update", file_path: "edit", content: "e2" },
      { action: "delete", file_path: "gone" },
      { action: "create", file_path: "dir/added", content: "a" },
    ];
    const res = await api("PUT", `/snippets/${id}`, { as: "dev", json: { files: actions } });
    expect(res.status).toBe(200);
    expect(res.body.files.map((file: { path: string }) => file.path)).toEqual(["dir/added", "edit", "keep", "new/name"]);
    const raw = async (path: string, ref = "main") =>
      api("GET", `/snippets/${id}/files/${ref}/${encodeURIComponent(path)}/raw`, { as: "dev" });
    expect((await raw("new/name")).text).toBe("moved");
    expect((await raw("edit")).text).toBe("e2");
    expect(await raw("gone")).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    expect(await raw("edit", "no-such-ref")).toMatchObject({ status: 404, body: { message: "404 Reference Not Found" } });

    // A failing action changes nothing: the create of an existing path fails the whole request.
    const failing = await api("PUT", `/snippets/${id}`, {
      as: "dev",
      json: {
        title: "renamed",
        files: [
          { action: "delete", file_path: "keep" },
          { action: "create", file_path: "edit", content: "x" },
        ],
      },
    });
    expect(failing).toMatchObject({ status: 400, body: { message: { repository: ["A file with this name already exists"] } } });
    const after = await api("GET", `/snippets/${id}`, { as: "dev" });
    expect(after.body.title).toBe("t");
    expect(after.body.files).toHaveLength(4);
    // Every file deleted: refused.
    const all = after.body.files.map((file: { path: string }) => ({ action: "delete", file_path: file.path }));
    expect((await api("PUT", `/snippets/${id}`, { as: "dev", json: { files: all } })).status).toBe(400);
    // Updating or moving a path that does not exist.
    expect(
      (await api("PUT", `/snippets/${id}`, { as: "dev", json: { files: [{ action: "update", file_path: "nope", content: "x" }] } })).status,
    ).toBe(400);
    expect((await api("PUT", `/snippets/${id}`, { as: "dev", json: { files: [{ action: "move", file_path: "x" }] } })).body).toEqual({
      error: "files[0][previous_path] is missing",
    });
  });

  it("shows private snippets to their author and administrators, internal ones to signed-in users, public ones to anyone", async () => {
    const mine = await create("dev", { title: "private", files: files(["a", "1"]) });
    const internal = await create("dev", { title: "internal", visibility: "internal", files: files(["a", "1"]) });
    const open = await create("dev", { title: "public", visibility: "public", files: files(["a", "1"]) });
    expect((await api("GET", `/snippets/${mine.id}`, { as: "max" })).body).toEqual({ message: "404 Snippet Not Found" });
    expect((await api("GET", `/snippets/${mine.id}`, { as: "root" })).status).toBe(200);
    expect((await api("GET", `/snippets/${internal.id}`, { as: "max" })).status).toBe(200);
    expect((await api("GET", `/snippets/${internal.id}`)).status).toBe(401);
    expect((await api("GET", "/snippets/public")).body.map((snippet: { title: string }) => snippet.title)).toEqual(["public"]);
    expect((await api("GET", "/snippets/all", { as: "max" })).body.map((snippet: { title: string }) => snippet.title)).toEqual([
      "public",
      "internal",
    ]);
    expect((await api("GET", "/snippets", { as: "max" })).body).toEqual([]);
    // Only the author (or an administrator) changes or deletes it.
    expect((await api("PUT", `/snippets/${open.id}`, { as: "max", json: { title: "mine now" } })).status).toBe(403);
    expect((await api("DELETE", `/snippets/${open.id}`, { as: "max" })).status).toBe(403);
    expect((await api("DELETE", `/snippets/${open.id}`, { as: "root" })).status).toBe(204);
    expect(await api("DELETE", `/snippets/${open.id}`, { as: "root" })).toMatchObject({
      status: 404,
      body: { message: "404 Snippet Not Found" },
    });
  });

  it("filters listings by creation time, and shows storages to administrators only", async () => {
    await create("dev", { title: "one", files: files(["a", "1"]) });
    const now = new Date(Date.now() + 1000).toISOString();
    expect((await api("GET", `/snippets?created_before=${encodeURIComponent(now)}`, { as: "dev" })).body).toHaveLength(1);
    expect((await api("GET", `/snippets?created_after=${encodeURIComponent(now)}`, { as: "dev" })).body).toEqual([]);
    expect((await api("GET", "/snippets?created_after=yesterday", { as: "dev" })).body).toEqual({ error: "created_after is invalid" });
    expect((await api("GET", "/snippets/all", { as: "root" })).body[0]).toMatchObject({ repository_storage: "default" });
    expect((await api("GET", "/snippets/all", { as: "dev" })).body[0]).not.toHaveProperty("repository_storage");
    expect((await api("GET", "/snippets/all?repository_storage=default", { as: "dev" })).status).toBe(403);
  });

  it("refuses internal visibility on the hosted offering", async () => {
    await admin("PUT", "/settings", { offering: "hosted" });
    expect(
      await api("POST", "/snippets", { as: "dev", json: { title: "t", visibility: "internal", files: files(["a", "1"]) } }),
    ).toMatchObject({
      status: 400,
      body: { message: { visibility_level: ["internal is not allowed on this instance"] } },
    });
  });
});
