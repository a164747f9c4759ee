import { z } from "zod";
import { ForgeApiError } from "../client";
import { defineResource, type OperationContext, type State } from "../engine/declaration";
import { normalizers, projectRef } from "./common";

/**
 * Whether other projects' CI/CD job tokens need to be on this project's allowlist to reach it.
 * A setting of an existing project: creating it sets the value, deleting it restores the value
 * found before.
 */
export const jobTokenScope = defineResource({
  name: "JobTokenScope",
  summary: "Turns the CI/CD job token allowlist of a project on or off.",
  inputs: z.object({
    /** The project: id or full path. */
    project: projectRef,
    /** true: only allowlisted projects and groups get in; false: every project does (refused when the instance enforces allowlists). */
    enabled: z.boolean(),
  }),
  outputs: z.object({
    /** The forge's inbound setting (may be true by instance-wide enforcement). */
    inboundEnabled: z.boolean(),
    /** Deprecated outbound setting (removal planned in release 18.0). */
    outboundEnabled: z.boolean(),
    /** The value found before this resource managed it; restored on delete. */
    restoreEnabled: z.boolean().optional(),
  }),
  idParts: ["project"],
  create: "PATCH /projects/:project/job_token_scope",
  read: "GET /projects/:project/job_token_scope",
  update: "PATCH /projects/:project/job_token_scope",
  replaceOn: ["project"],
  createOnly: ["restoreEnabled"],
  normalize: { project: normalizers.ref },
  hooks: {
    async create(ctx, state) {
      const before = await ctx.call<Record<string, unknown>>("GET /projects/:project/job_token_scope", state);
      await setEnabled(ctx.call, state, state["enabled"] as boolean);
      const after = await ctx.call<Record<string, unknown>>("GET /projects/:project/job_token_scope", state);
      return { ...after, restore_enabled: before["inbound_enabled"] };
    },
    async update(ctx, state) {
      await setEnabled(ctx.call, state, state["enabled"] as boolean);
      return undefined;
    },
    async delete(ctx, state) {
      if (typeof state["restoreEnabled"] === "boolean") await setEnabled(ctx.call, state, state["restoreEnabled"]);
    },
    project: (record) => ({ enabled: record["inbound_enabled"] }),
  },
});

async function setEnabled(call: OperationContext["call"], state: State, enabled: boolean): Promise<void> {
  try {
    await call("PATCH /projects/:project/job_token_scope", state, { enabled });
  } catch (error) {
    if (error instanceof ForgeApiError && error.status === 400 && !enabled) {
      error.message = `${error.message} (the instance enforces job token allowlists, so enabled=false is refused: keep enabled=true or ask an administrator to lift the enforcement)`;
    }
    throw error;
  }
}
