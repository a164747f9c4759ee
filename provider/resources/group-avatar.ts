import { z } from "zod";
import { GROUP_AVATAR_EXTENSIONS, GROUP_AVATAR_MAX_BYTES } from "../../api/group-settings";
import { defineResource, fieldMeta, type WireRecord } from "../engine/declaration";
import { fileDigest } from "../engine/files";
import { groupRef, normalizers, show, valueRule, wordList } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { groupAvatarUrl, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";
import { digestKey } from "../engine/bookkeeping";

const extensionOf = (path: string) => path.split(".").pop()?.toLowerCase() ?? "";

/**
 * The avatar of an existing group, from a local image file. The file is uploaded as multipart
 * and compared by the SHA-256 of its content: an unchanged file is no diff wherever it lies, new
 * content under the same path is an update, and a refresh fetches the forge's file to see an
 * avatar changed by hand. A blank `avatar` declares that the group has none. Deleting the
 * resource removes the avatar (the API's blank value).
 *
 * A resource of its own rather than an input of GroupSettings: the avatar is a file sent as
 * multipart, while the settings are JSON; it has its own lifecycle (delete removes it, where
 * deleting settings restores them); and its drift is read from the file, not the group record.
 */
export const groupAvatar = defineResource({
  name: "GroupAvatar",
  summary: "The avatar of an existing group: a local image file, uploaded when its content changes.",
  inputs: z.object({
    /** The group: id or full path. Changing it replaces the resource. */
    group: groupRef,
    /** Path of the image file (relative to the program's directory): png, jpg, jpeg, gif, bmp, tiff, ico or webp, at most 200 KiB. Blank: the group has no avatar. */
    avatar: z
      .string()
      .check(
        valueRule({
          format: "avatar-file",
          rule: `a path to an image the forge takes as an avatar (${wordList(GROUP_AVATAR_EXTENSIONS)}), or blank for none`,
          holds: (value) =>
            value === "" || GROUP_AVATAR_EXTENSIONS.includes(extensionOf(value) as (typeof GROUP_AVATAR_EXTENSIONS)[number]),
          message: (value) =>
            `${show(value)} is not an image file the forge takes as an avatar. Use a ${wordList(GROUP_AVATAR_EXTENSIONS)} file, or "" for no avatar.`,
        }),
      )
      // A local file: sent as its content, compared by its SHA-256, refused by check when larger.
      .register(fieldMeta, { file: { maxBytes: GROUP_AVATAR_MAX_BYTES } }),
  }),
  outputs: z.object({
    /** Where the forge serves the avatar; null when the group has none. */
    avatarUrl: z.string().nullable(),
  }),
  idParts: ["group"],
  identity: {
    fields: ["group"],
    describe: (state) => `the avatar of group ${show(state["group"])}`,
    takesOver: "the avatar is a field of its group, which the forge always has: create sets it, whatever was there",
  },
  create: routes.groups.update,
  read: routes.groups.get,
  update: routes.groups.update,
  // The forge keeps no earlier file: deleting removes the avatar.
  delete: { route: routes.groups.update, body: { avatar: "" } },
  replaceOn: ["group"],
  normalize: { group: normalizers.ref },
  hooks: {
    /**
     * The group's avatar as the forge has it: gone when the program wants an avatar and the group
     * has none; otherwise the group record with the digest of the forge's file, and the forge's
     * avatar URL as the `avatar` value when the program wants none, so that either drift shows.
     */
    async read(ctx, state) {
      const record = await ctx.call<WireRecord>(routes.groups.get, state);
      const url = record["avatar_url"];
      const wantsNone = state["avatar"] === "";
      if (typeof url !== "string" || url === "") return wantsNone ? { ...record, avatar: "" } : undefined;
      const file = await ctx.call<unknown>(routes.groups.avatar, state);
      const digest = Buffer.isBuffer(file) ? fileDigest(file) : undefined;
      return { ...record, [digestKey("avatar")]: digest, ...(wantsNone ? { avatar: url } : {}) };
    },
  },
  notes: [
    "A resource of its own rather than an `avatar` input of GroupSettings: the avatar is a file sent as multipart while the settings are JSON, deleting it removes the avatar while deleting settings restores them, and its drift is read from the file the forge serves, not from the group record.",
    "Deleting the resource removes the avatar (the forge keeps no earlier file to restore). An avatar removed by hand reads as gone, so the next `up` uploads it again.",
    "The file is read where the program runs (a relative path from the program's directory); only its SHA-256 is kept in state.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  groupAvatar: defineAdopt({
    scope: "group",
    find: async ({ path, client }) => ((await groupAvatarUrl(client, path)) ? [{ group: path }] : []),
    name: () => "avatar",
    // The image itself, beside the program: the resource compares the file by its SHA-256.
    files: async (inputs, outputs, { path, client }) => {
      const url = text(outputs["avatarUrl"]);
      const extension = /\.([A-Za-z0-9]+)$/.exec(decodeURIComponent(new URL(url, "http://forge").pathname))?.[1]?.toLowerCase() ?? "png";
      const content = (await client.request<unknown>(routes.groups.avatar, { group: inputs["group"] })).body;
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(typeof content === "string" ? content : JSON.stringify(content));
      return [{ input: "avatar", path: `assets/${path.replace(/[^A-Za-z0-9._-]+/g, "-")}-avatar.${extension}`, content: bytes }];
    },
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { groupAvatar };
