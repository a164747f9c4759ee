import { z } from "zod";
import { SNIPPET_VISIBILITIES } from "../../api";
import { defineResource, type OperationContext, type State, type WireRecord } from "../engine/declaration";
import { crossFieldRule, nonBlank, serverId, show, valueRule } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** One file of a snippet. */
const snippetFile = z.object({
  /** The file's path in the snippet (`/` makes folders: `config/app.yaml`). Unique in the snippet. */
  filePath: nonBlank("file's path").check(
    valueRule({
      format: "snippet-path",
      rule: "a relative path without empty, `.` or `..` segments",
      holds: (value) => value.trim() === "" || value.split("/").every((segment) => segment !== "" && segment !== "." && segment !== ".."),
      message: (value) =>
        `${show(value)} is not a file path a snippet can hold. Write a relative path such as "config/app.yaml", without leading, trailing or doubled slashes and without "." or "..".`,
    }),
  ),
  /** The file's content; the forge refuses a blank file. */
  content: z.string().check(
    valueRule({
      format: "non-blank",
      rule: "content that is not blank",
      holds: (value) => value.trim() !== "",
      message: () => "The file is blank, and the forge refuses blank snippet files. Give it content, or remove the file.",
    }),
  ),
});

/** The raw content of every file of a snippet, at the ref of its record's raw URLs. */
async function readSnippet(ctx: OperationContext, state: State): Promise<WireRecord> {
  const record = await ctx.call<WireRecord>(routes.snippets.get, state);
  const listed = Array.isArray(record["files"]) ? (record["files"] as WireRecord[]) : [];
  const files = [];
  for (const file of listed) {
    const path = String(file["path"]);
    // The web raw URL names the branch the files are read at: `/-/snippets/1/raw/<ref>/<path>`.
    const ref = /\/raw\/([^/]+)\//.exec(String(file["raw_url"] ?? ""))?.[1] ?? "main";
    const content = await ctx.call<unknown>(routes.snippets.fileRaw, { ...state, ref: decodeURIComponent(ref), filePath: path });
    files.push({ file_path: path, content: typeof content === "string" ? content : JSON.stringify(content) });
  }
  return { ...record, files };
}

/**
 * A personal snippet: text files kept in a small repository of their own, with a title and a
 * visibility. Its files are a set, by path: an update sends one action per file that changed
 * (create, update, delete, and a move when a file's content is unchanged under a new path).
 */
export const snippet = defineResource({
  name: "Snippet",
  summary: "A personal snippet: a titled set of files with a visibility.",
  inputs: z
    .object({
      /** The title (at most 255 characters). */
      title: nonBlank("snippet's title", 255),
      /** A description (Markdown). */
      description: z.string().optional(),
      /** `private` (the forge's default), `internal` (signed-in users; not on the hosted offering) or `public` (anyone, without signing in). */
      visibility: z
        .enum(SNIPPET_VISIBILITIES, {
          error: (issue) => `${show(issue.input)} is not a snippet visibility. Use "private", "internal" or "public".`,
        })
        .optional(),
      /** The files, at least one; paths are unique. Order does not matter. */
      files: z
        .array(snippetFile, {
          error: (issue) => `${show(issue.input)} is not a list of files. Give a list such as [{ filePath: "a.txt", content: "..." }].`,
        })
        .min(1, {
          error: "A snippet needs at least one file.",
        }),
    })
    .check(
      crossFieldRule({
        rule: "file paths are unique in a snippet",
        problem: ({ files }) => {
          const seen = new Set<string>();
          for (const [index, file] of (files ?? []).entries()) {
            if (typeof file?.filePath !== "string") continue;
            if (seen.has(file.filePath))
              return {
                path: ["files", index, "filePath"],
                message: `${show(file.filePath)} is the path of another file of this snippet. Give each file its own path.`,
              };
            seen.add(file.filePath);
          }
          return undefined;
        },
      }),
    ),
  outputs: z.object({
    /** The snippet's id. */
    snippetId: serverId,
    /** Its page. */
    webUrl: z.string(),
    /** The raw content of its first file, on the web. */
    rawUrl: z.string(),
    /** The snippet's repository, to clone over HTTP(S). */
    httpUrlToRepo: z.string(),
    /** When it was created. */
    createdAt: z.string(),
  }),
  recordId: "snippetId",
  idParts: ["snippetId"],
  // The record lists paths only: the contents are read file by file, so that a file edited on
  // the forge shows as drift. Every write is read back for the same reason.
  create: { route: routes.snippets.create, readBack: true },
  read: routes.snippets.get,
  update: { route: routes.snippets.update, readBack: true },
  delete: routes.snippets.delete,
  // No natural key (titles repeat): after a lost answer, a new snippet of the caller's with its
  // title is a candidate, reported and never adopted.
  identity: {
    none: "titles repeat",
    search: { list: routes.snippets.list, where: (record, state) => record["title"] === state["title"], madeBy: "author.id" },
  },
  replaceOn: [],
  collections: {
    files: {
      style: { fileActions: { keyField: "filePath", previousKeyField: "previousPath" } },
      key: (element) => String(element["filePath"]),
      meaning: (element) => ({ filePath: element["filePath"], content: element["content"] }),
    },
  },
  resets: { description: "", visibility: "private" },
  hooks: { read: readSnippet },
  notes: [
    "Personal snippets only; the forge's project snippets are not in the spec.",
    "Anyone can read a public snippet without signing in: the policy pack warns when one looks confidential.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  snippet: defineAdopt({
    scope: "user",
    find: async ({ client }) => (await list("listSnippets", {}, client)).map((snippet) => ({ snippetId: snippet["id"] })),
    name: (inputs) => `snippet ${text(inputs["title"])}`,
    // A private or internal snippet's text stays out of the program's text: each file goes
    // beside the program (`--out`), which reads it at run time. Public ones are written inline.
    files: async (inputs, outputs) => {
      if (outputs["visibility"] === "public" || !Array.isArray(inputs["files"])) return [];
      return (inputs["files"] as State[]).map((file, index) => ({
        input: `files.${index}.content`,
        read: true,
        path: `snippets/${String(outputs["snippetId"])}/${String(file["filePath"]).replace(/\.\.+/g, ".").replace(/^\/+/, "")}`,
        content: Buffer.from(String(file["content"] ?? ""), "utf8"),
      }));
    },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { snippet };
