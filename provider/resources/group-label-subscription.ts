import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { groupRef, normalizers } from "./common";

/** The calling user's subscription to a group label (notifications for issues and merge requests with it). */
export const groupLabelSubscription = defineResource({
  name: "GroupLabelSubscription",
  summary: "Subscribes the token's user to a group label.",
  inputs: z.object({
    /** The group: its id or full path. */
    group: groupRef,
    /** The label: its id or its title. Digits are read as an id first: give a numeric title's label by its id. */
    labelId: z.union([z.number().int().positive(), z.string().min(1)]),
  }),
  outputs: z.object({
    /** The label's name. */
    labelName: z.string(),
    /** True while the subscription exists. */
    subscribed: z.boolean(),
  }),
  idParts: ["group", "labelId"],
  create: "POST /groups/:group/labels/:labelId/subscribe",
  read: "GET /groups/:group/labels/:labelId",
  // 304 = already subscribed: the desired state holds, so it is success.
  acceptOnCreate: [304],
  replaceOn: "all",
  normalize: { group: normalizers.ref },
  hooks: {
    async read(ctx, state) {
      const label = await ctx.call<Record<string, unknown>>("GET /groups/:group/labels/:labelId", state);
      return label["subscribed"] === true ? label : undefined;
    },
    async delete(ctx, state) {
      await ctx.call("POST /groups/:group/labels/:labelId/unsubscribe", state, {}, { acceptStatuses: [304] });
    },
    mapRecord: (record) => ({ labelName: record["name"] }),
  },
});
