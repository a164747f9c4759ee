import { createHash } from "node:crypto";
import { z } from "zod";
import { SNIPPET_VISIBILITIES } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { ApiError, forbidden, modelValidationError, parameterError, thingNotFound } from "../../core/errors";
import type { Actor, UserRecord } from "../../core/records";
import { integerPathParam, paramDatetime, paramEnum, paramString, validate } from "../../core/validation";

type SnippetVisibility = (typeof SNIPPET_VISIBILITIES)[number];

/** The branch a snippet's repository has; its files are read at it (or at a commit). */
const SNIPPET_DEFAULT_BRANCH = "main";

interface SnippetFile {
  path: string;
  content: string;
}

/** One commit of a snippet's repository: the whole file set after a write. */
interface SnippetCommit {
  id: string;
  files: SnippetFile[];
}

/** A personal snippet (project snippets are not shown by the spec). */
export interface SnippetRecord {
  id: number;
  title: string;
  description: string | null;
  visibility: SnippetVisibility;
  author_id: number;
  created_at: string;
  updated_at: string;
  /** Newest last; the last one is the branch head. */
  commits: SnippetCommit[];
}

const fileParam = z.object({ file_path: paramString(), content: paramString() });
const createParams = z.object({
  title: paramString(),
  description: paramString().optional(),
  visibility: paramEnum(SNIPPET_VISIBILITIES).optional(),
  files: z.array(fileParam, { error: "is invalid" }).optional(),
  content: paramString().optional(),
  file_name: paramString().optional(),
});
const actionParam = z.object({
  action: paramEnum(["create", "update", "delete", "move"]),
  file_path: paramString().optional(),
  previous_path: paramString().optional(),
  content: paramString().optional(),
});
const updateParams = z.object({
  title: paramString().optional(),
  description: paramString().optional(),
  visibility: paramEnum(SNIPPET_VISIBILITIES).optional(),
  files: z.array(actionParam, { error: "is invalid" }).optional(),
  content: paramString().optional(),
  file_name: paramString().optional(),
});
const listParams = z.object({
  created_after: paramDatetime().optional(),
  created_before: paramDatetime().optional(),
  repository_storage: paramString().optional(),
});

/** The storage every snippet repository is on here (no snippet moves change it). */
const SNIPPET_STORAGE = "default";

/**
 * Personal snippets: a title, a visibility and a set of files kept in a repository. An update
 * changes the files with per-file actions, applied in order, all or nothing.
 */
export class Snippets {
  constructor(
    private readonly core: Core,
    private readonly snippets: Collection<SnippetRecord>,
  ) {}

  /** `GET /snippets`: the caller's own. */
  own(actor: Actor, input: Record<string, unknown>): Record<string, unknown>[] {
    const user = this.core.permissions.requireUser(actor);
    return this.listed(input, (snippet) => snippet.author_id === user.id);
  }

  /** `GET /snippets/public`: every public snippet (works without a token). */
  public(input: Record<string, unknown>): Record<string, unknown>[] {
    return this.listed(input, (snippet) => snippet.visibility === "public");
  }

  /** `GET /snippets/all`: what the caller can see; administrators see all, with their storage. */
  all(actor: Actor, input: Record<string, unknown>): Record<string, unknown>[] {
    const user = this.core.permissions.requireUser(actor);
    const { repository_storage } = validate(listParams, input);
    if (repository_storage !== undefined && !user.admin) throw forbidden();
    const storage = user.admin ? { repository_storage: SNIPPET_STORAGE } : {};
    return this.listed(
      input,
      (snippet) => this.canSee(user, snippet) && (repository_storage === undefined || repository_storage === SNIPPET_STORAGE),
    ).map((record) => ({ ...record, ...storage }));
  }

  get(actor: Actor, id: string): Record<string, unknown> {
    return this.serialize(this.require(actor, id));
  }

  /** `GET /snippets/:id/raw`: the content of the first file, as the service gives it. */
  raw(actor: Actor, id: string): string {
    return head(this.require(actor, id)).files[0]?.content ?? "";
  }

  /** `GET /snippets/:id/files/:ref/:file_path/raw`: one file at a branch or commit. */
  fileRaw(actor: Actor, id: string, ref: string, filePath: string): string {
    const snippet = this.require(actor, id);
    const commit =
      ref === SNIPPET_DEFAULT_BRANCH
        ? head(snippet)
        : snippet.commits.find((candidate) => candidate.id === ref || (ref.length >= 7 && candidate.id.startsWith(ref)));
    if (!commit) throw thingNotFound("Reference");
    const file = commit.files.find((candidate) => candidate.path === filePath);
    if (!file) throw thingNotFound("File");
    return file.content;
  }

  create(actor: Actor, input: Record<string, unknown>): Record<string, unknown> {
    const user = this.core.permissions.requireUser(actor);
    const params = validate(createParams, input);
    const files = this.initialFiles(params);
    const title = this.title(params.title);
    const visibility = this.visibility(params.visibility ?? "private");
    const now = this.core.clock.iso();
    const record: SnippetRecord = {
      id: this.core.nextId("snippet"),
      title,
      description: params.description ?? null,
      visibility,
      author_id: user.id,
      created_at: now,
      updated_at: now,
      commits: [],
    };
    commit(record, files);
    return this.serialize(this.snippets.insert(record));
  }

  update(actor: Actor, id: string, input: Record<string, unknown>): Record<string, unknown> {
    const snippet = this.requireWritable(actor, id);
    const params = validate(updateParams, input);
    if (params.files !== undefined && (params.content !== undefined || params.file_name !== undefined)) {
      throw parameterError("files, content are mutually exclusive");
    }
    let files = head(snippet).files;
    if (params.files !== undefined) files = applyActions(files, params.files);
    else if (params.content !== undefined || params.file_name !== undefined)
      files = this.legacyUpdate(files, params.content, params.file_name);
    // Everything is checked before anything is written.
    const title = params.title === undefined ? snippet.title : this.title(params.title);
    const visibility = params.visibility === undefined ? snippet.visibility : this.visibility(params.visibility);
    snippet.title = title;
    snippet.visibility = visibility;
    if (params.description !== undefined) snippet.description = params.description;
    if (files !== head(snippet).files) commit(snippet, files);
    snippet.updated_at = this.core.clock.iso();
    return this.serialize(snippet);
  }

  delete(actor: Actor, id: string): void {
    this.snippets.remove(this.requireWritable(actor, id));
  }

  private listed(input: Record<string, unknown>, match: (snippet: SnippetRecord) => boolean): Record<string, unknown>[] {
    const { created_after, created_before } = validate(listParams, input);
    return this.snippets
      .list(
        (snippet) =>
          match(snippet) &&
          (created_after === undefined || snippet.created_at > created_after) &&
          (created_before === undefined || snippet.created_at < created_before),
        // Newest first, as the service lists them.
        (a, b) => b.id - a.id,
      )
      .map((snippet) => this.serialize(snippet));
  }

  /** The files of a create: `files`, or the deprecated `content` with `file_name`; exactly one form. */
  private initialFiles(params: z.output<typeof createParams>): SnippetFile[] {
    if (params.files !== undefined && params.content !== undefined) throw parameterError("files, content are mutually exclusive");
    if (params.files === undefined && params.content === undefined)
      throw parameterError("files, content are missing, exactly one parameter must be provided");
    if (params.content !== undefined) {
      if (params.content.trim() === "") throw parameterError("content is empty");
      if (params.file_name !== undefined) checkFilePath(params.file_name, "file_name");
      return [{ path: params.file_name ?? "snippetfile1.txt", content: params.content }];
    }
    const files = params.files ?? [];
    if (files.length === 0) throw parameterError("files is empty");
    files.forEach((file, index) => {
      if (file.file_path.trim() === "") throw parameterError(`files[${index}][file_path] is empty`);
      checkFilePath(file.file_path, `files[${index}][file_path]`);
      if (file.content.trim() === "") throw parameterError(`files[${index}][content] is empty`);
    });
    const paths = files.map((file) => file.file_path);
    if (new Set(paths).size !== paths.length) throw duplicatePath();
    return files.map((file) => ({ path: file.file_path, content: file.content }));
  }

  /** The deprecated single-file update: only for a snippet with one file. */
  private legacyUpdate(files: SnippetFile[], content: string | undefined, fileName: string | undefined): SnippetFile[] {
    if (files.length > 1) throw parameterError("files is missing");
    if (fileName !== undefined) checkFilePath(fileName, "file_name");
    const [only] = files;
    return [{ path: fileName ?? only?.path ?? "snippetfile1.txt", content: content ?? only?.content ?? "" }];
  }

  private title(title: string): string {
    if (title.trim() === "") throw modelValidationError("title", "can't be blank");
    if (title.length > 255) throw modelValidationError("title", "is too long (maximum is 255 characters)");
    return title;
  }

  /** `internal` is unavailable on the hosted multi-tenant offering (the API's snippet record). */
  private visibility(visibility: SnippetVisibility): SnippetVisibility {
    if (visibility === "internal" && this.core.editions.current().offering === "hosted") {
      throw modelValidationError("visibility_level", "internal is not allowed on this instance");
    }
    return visibility;
  }

  /** Public: anyone; internal: any signed-in user; private: its author. Administrators see all. */
  private canSee(actor: Actor, snippet: SnippetRecord): boolean {
    if (snippet.visibility === "public") return true;
    if (!actor) return false;
    if (actor.admin || snippet.author_id === actor.id) return true;
    return snippet.visibility === "internal";
  }

  private require(actor: Actor, id: string): SnippetRecord {
    const snippetId = integerPathParam("id", id);
    const snippet = this.snippets.byId(snippetId);
    if (!snippet || !this.canSee(actor, snippet)) throw thingNotFound("Snippet");
    return snippet;
  }

  /** Only the author (or an administrator) changes or deletes a snippet; others who see it get 403. */
  private requireWritable(actor: Actor, id: string): SnippetRecord {
    const user = this.core.permissions.requireUser(actor);
    const snippet = this.require(user, id);
    if (!user.admin && snippet.author_id !== user.id) throw forbidden();
    return snippet;
  }

  private serialize(snippet: SnippetRecord): Record<string, unknown> {
    const base = this.core.baseUrl;
    const webUrl = `${base}/-/snippets/${snippet.id}`;
    const files = head(snippet).files;
    const author = this.core.users.byId(snippet.author_id) as UserRecord | undefined;
    return {
      id: snippet.id,
      title: snippet.title,
      description: snippet.description,
      visibility: snippet.visibility,
      file_name: files[0]?.path ?? null,
      imported: false,
      imported_from: "none",
      author: author ? this.core.users.basic(author) : null,
      created_at: snippet.created_at,
      updated_at: snippet.updated_at,
      expires_at: null,
      project_id: null,
      web_url: webUrl,
      raw_url: `${webUrl}/raw`,
      ssh_url_to_repo: `ssh://git@127.0.0.1/snippets/${snippet.id}.git`,
      http_url_to_repo: `${base}/snippets/${snippet.id}.git`,
      files: files.map((file) => ({ path: file.path, raw_url: `${webUrl}/raw/${SNIPPET_DEFAULT_BRANCH}/${file.path}` })),
    };
  }
}

function head(snippet: SnippetRecord): SnippetCommit {
  return snippet.commits[snippet.commits.length - 1] ?? { id: "", files: [] };
}

/** A new commit with the file set, kept in path order (the order of a repository's tree). */
function commit(snippet: SnippetRecord, files: SnippetFile[]): void {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const id = createHash("sha1")
    .update(`${snippet.id}:${snippet.commits.length}:${JSON.stringify(sorted)}`)
    .digest("hex");
  snippet.commits.push({ id, files: sorted });
}

/** The service's answer to two files at one path (the repository refuses the commit). */
function duplicatePath(): ApiError {
  return modelValidationError("repository", "A file with this name already exists");
}

/**
 * A file path inside the snippet's repository. The spec is silent; the service refuses a path
 * that climbs out of the repository or is not a file's (`../x`, `/abs`, `.`, `a//b`, `dir/`) in
 * its parameter validation, with its parameter error shape (`{"error": "<param> should be a
 * valid file path"}`), before anything is written. Not the model-validation shape
 * (`{"message": {...}}`): the path is checked as a request parameter, like the service's
 * `file_path` parameter validator, before any file record exists. The deprecated `file_name`
 * names the one file's path and is checked alike.
 */
function checkFilePath(path: string, param: string): void {
  const segments = path.split(/[/\\]/);
  const invalid =
    path.startsWith("/") || path.includes("\0") || segments.some((segment) => segment === "" || segment === "." || segment === "..");
  if (invalid) throw parameterError(`${param} should be a valid file path`);
}

/**
 * Per-file actions in order (PUT /snippets/:id): `create` a new path, `update` the
 * content of an existing one, `delete` one, `move` one from `previous_path` to `file_path` (new
 * content optional). Any failing action fails the whole update; a snippet keeps one file at least.
 */
function applyActions(current: SnippetFile[], actions: z.output<typeof actionParam>[]): SnippetFile[] {
  const files = new Map(current.map((file) => [file.path, file.content]));
  actions.forEach((action, index) => {
    const name = (field: string) => `files[${index}][${field}]`;
    const path = action.file_path;
    if (path === undefined || path.trim() === "") throw parameterError(`${name("file_path")} is missing`);
    checkFilePath(path, name("file_path"));
    if (action.previous_path !== undefined && action.previous_path.trim() !== "")
      checkFilePath(action.previous_path, name("previous_path"));
    switch (action.action) {
      case "create":
        if (action.content === undefined || action.content.trim() === "") throw parameterError(`${name("content")} is empty`);
        if (files.has(path)) throw duplicatePath();
        files.set(path, action.content);
        break;
      case "update":
        if (!files.has(path)) throw modelValidationError("repository", `A file with this name doesn't exist: ${path}`);
        if (action.content === undefined || action.content.trim() === "") throw parameterError(`${name("content")} is empty`);
        files.set(path, action.content);
        break;
      case "delete":
        if (!files.delete(path)) throw modelValidationError("repository", `A file with this name doesn't exist: ${path}`);
        break;
      case "move": {
        const from = action.previous_path;
        if (from === undefined || from.trim() === "") throw parameterError(`${name("previous_path")} is missing`);
        const content = files.get(from);
        if (content === undefined) throw modelValidationError("repository", `A file with this name doesn't exist: ${from}`);
        if (from !== path && files.has(path)) throw duplicatePath();
        files.delete(from);
        files.set(path, action.content !== undefined && action.content.trim() !== "" ? action.content : content);
        break;
      }
    }
  });
  if (files.size === 0) throw modelValidationError("files", "a snippet needs at least one file");
  return [...files].map(([path, content]) => ({ path, content }));
}
