import { z } from "zod";
import { defineResource, REPLACES } from "../engine/declaration";
import { BROADCAST_FONT, BROADCAST_TARGET_LEVELS, BROADCAST_THEMES, BROADCAST_TYPES } from "../../api";
import { crossFieldRule, datetime, normalizers, roleList, serverId, show, valueRule, wordList } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/**
 * A message shown to every user of the instance (administrator only). Anyone can read broadcast
 * messages, whatever their targeting: never put confidential content in one.
 */
export const broadcastMessage = defineResource({
  name: "BroadcastMessage",
  summary: "A banner or notification shown to the users of the instance.",
  inputs: z
    .object({
      /** The text (Markdown). Readable by anyone: no secrets. */
      message: z
        .string()
        .min(1)
        .check(
          valueRule({
            format: "not-blank",
            rule: "non-empty text, not only whitespace",
            // The empty string is min(1)'s; this rule is for text the forge would find blank.
            holds: (value) => value === "" || value.trim() !== "",
            message: (value) => `${show(value)} is only whitespace, and the forge refuses a blank message. Write the text to show.`,
          }),
        ),
      /** When it starts showing (ISO 8601, UTC). The forge defaults to now. */
      startsAt: datetime.optional(),
      /** When it stops showing (ISO 8601, UTC). The forge defaults to one hour after now. */
      endsAt: datetime.optional(),
      /** Foreground colour, hex (`#FFFFFF`). */
      font: z
        .string()
        .regex(BROADCAST_FONT, {
          error: (issue) => `${show(issue.input)} is not a hex colour. Write it as "#RGB" or "#RRGGBB", such as "#FFFFFF".`,
        })
        .optional(),
      /** Show only to users with one of these roles (10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner). */
      targetAccessLevels: z
        .array(
          z.literal(BROADCAST_TARGET_LEVELS, {
            error: (issue) =>
              `${show(issue.input)} is not an access level a broadcast message can target. Use ${roleList(BROADCAST_TARGET_LEVELS)}.`,
          }),
          { error: (issue) => `${show(issue.input)} is not a list. Give a list of access levels such as [30, 40].` },
        )
        .optional(),
      /** Show only on pages whose path matches this pattern, e.g. `/acme/*`. */
      targetPath: z.string().optional(),
      /** `banner` (default) or `notification`. */
      broadcastType: z.enum(BROADCAST_TYPES).optional(),
      /** Whether users can dismiss it. */
      dismissable: z.boolean().optional(),
      /** Colour theme, banners only: indigo (default), light-indigo, blue, light-blue, green, light-green, red, light-red, dark, light. */
      theme: z
        .enum(BROADCAST_THEMES, {
          error: (issue) => `${show(issue.input)} is not a theme the forge knows. Use ${wordList(BROADCAST_THEMES)}.`,
        })
        .optional(),
    })
    .check(
      crossFieldRule({
        rule: "a theme only on banners, not on notifications",
        problem: (args) =>
          args.theme !== undefined && args.broadcastType === "notification"
            ? {
                path: ["theme"],
                message:
                  'Themes apply to banners only, and this message is a notification. Remove theme, or set broadcastType to "banner".',
              }
            : undefined,
      }),
      crossFieldRule({
        rule: "endsAt after startsAt",
        problem: ({ startsAt, endsAt }) => {
          if (!startsAt || !endsAt || Date.parse(endsAt) > Date.parse(startsAt)) return undefined;
          const when = Date.parse(endsAt) === Date.parse(startsAt) ? "when" : "before";
          return {
            path: ["endsAt"],
            message: `The message ends (endsAt ${show(endsAt)}) ${when} it starts (startsAt ${show(startsAt)}), so it would never show. Set endsAt after startsAt.`,
          };
        },
      }),
    ),
  outputs: z.object({
    /** The message's id. */
    messageId: serverId,
    /** Whether it is showing now (between `startsAt` and `endsAt`). */
    active: z.boolean(),
  }),
  recordId: "messageId",
  idParts: ["messageId"],
  create: routes.broadcastMessages.create,
  read: routes.broadcastMessages.get,
  update: routes.broadcastMessages.update,
  delete: routes.broadcastMessages.delete,
  identity: {
    none: "messages are not named: two of the same text may show at once",
    // After a lost answer, a new message with its content is a candidate, reported and never
    // adopted (an older one with the same text is not even that).
    search: {
      list: routes.broadcastMessages.list,
      where: (record, state) =>
        record["message"] === state["message"] &&
        (state["startsAt"] === undefined || normalizers.instant(record["starts_at"]) === normalizers.instant(state["startsAt"])) &&
        (state["endsAt"] === undefined || normalizers.instant(record["ends_at"]) === normalizers.instant(state["endsAt"])),
    },
  },
  replaceOn: [],
  // Dropped fields go back to the spec's defaults; a theme belongs to banners only.
  resets: {
    // What a message created without a font has.
    font: "#FFFFFF",
    targetAccessLevels: [],
    targetPath: "",
    broadcastType: "banner",
    dismissable: false,
    theme: (state: Record<string, unknown>) => (state["broadcastType"] === "notification" ? undefined : "indigo"),
    // The forge defaults start and end to "now" and "in an hour" at creation only: a dropped
    // window is a new message with the defaults.
    startsAt: REPLACES,
    endsAt: REPLACES,
  },
  normalize: { startsAt: normalizers.instant, endsAt: normalizers.instant, targetAccessLevels: normalizers.numberSet },
  notes: ["Writes need an administrator token: a user gets 403, no token 401."],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  broadcastMessage: defineAdopt({
    scope: "instance",
    find: async ({ client }) => (await list("listBroadcastMessages", {}, client)).map((message) => ({ messageId: message["id"] })),
    // The message's first words that say something: "Planned maintenance of the clusters" → planned-maintenance-clusters.
    name: (inputs) =>
      `broadcast ${text(inputs["message"])
        .split(/\s+/)
        .filter((word) => word.replace(/\W/g, "").length > 3)
        .slice(0, 3)
        .join(" ")}`,
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { broadcastMessage };
