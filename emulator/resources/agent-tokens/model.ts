import { randomBytes } from "node:crypto";
import { z } from "zod";
import { AGENT_TOKEN_DESCRIPTION_MAX, AGENT_TOKEN_NAME_MAX, AGENT_TOKENS_MAX_ACTIVE } from "../../../api";
import { AGENT_READ_LEVEL, AGENT_WRITE_LEVEL, type AgentChildren, type AgentPath } from "../../core/agents";
import type { Core } from "../../core/core";
import { ApiError, badRequest, recordNotFound } from "../../core/errors";
import type { Actor } from "../../core/records";
import { paramString, validate } from "../../core/validation";

/** The API's limit: at most two active tokens per agent. */

/** Recognisable prefix of agent token secrets (like the service's own token prefixes). */
const AGENT_TOKEN_PREFIX = "forgeagent-";

/** A stored agent token; `secret` is the value shown once at creation. */
export interface AgentTokenRecord {
  id: number;
  agent_id: number;
  name: string;
  description: string | null;
  status: "active" | "revoked";
  created_at: string;
  created_by_user_id: number;
  last_used_at: string | null;
  secret: string;
}

/** Body of `POST .../tokens`. */
const createAgentTokenParams = z.object({
  name: paramString(),
  description: paramString().nullish(),
});

const isActive = (token: AgentTokenRecord): boolean => token.status === "active";

/** Agent tokens: creation (secret shown once), active-only listing, revocation. */
export class AgentTokens {
  constructor(
    private readonly core: Core,
    private readonly tokens: AgentChildren<AgentTokenRecord>,
  ) {}

  /** Active tokens only, without last_used_at. */
  list(actor: Actor, path: AgentPath): Record<string, unknown>[] {
    return this.tokens.listAt(actor, path, AGENT_READ_LEVEL, isActive).map((token) => this.serialize(token));
  }

  /** One active token, with last_used_at; a revoked token is `404 Not found`. */
  get(actor: Actor, path: AgentPath, tokenRef: string): Record<string, unknown> {
    const token = this.tokens.findAt(actor, path, tokenRef, AGENT_READ_LEVEL);
    if (!isActive(token)) throw recordNotFound();
    return { ...this.serialize(token), last_used_at: token.last_used_at };
  }

  create(actor: Actor, path: AgentPath, params: Record<string, unknown>): Record<string, unknown> {
    const user = this.core.permissions.requireUser(actor);
    const agent = this.tokens.agentOf(user, path, AGENT_WRITE_LEVEL);
    const input = validate(createAgentTokenParams, params);
    const problems: Record<string, string[]> = {};
    if (!input.name.trim()) problems["name"] = ["can't be blank"];
    else if (input.name.length > AGENT_TOKEN_NAME_MAX) problems["name"] = [`is too long (maximum is ${AGENT_TOKEN_NAME_MAX} characters)`];
    if ((input.description?.length ?? 0) > AGENT_TOKEN_DESCRIPTION_MAX) {
      problems["description"] = [`is too long (maximum is ${AGENT_TOKEN_DESCRIPTION_MAX} characters)`];
    }
    if (Object.keys(problems).length > 0) throw new ApiError(400, { message: problems });
    if (this.tokens.ofAgent(agent.id, isActive).length >= AGENT_TOKENS_MAX_ACTIVE) {
      throw badRequest("An agent can have only two active tokens at a time");
    }
    const token: AgentTokenRecord = {
      id: this.core.nextId("agent_token"),
      agent_id: agent.id,
      name: input.name,
      description: input.description ?? null,
      status: "active",
      created_at: this.core.clock.iso(),
      created_by_user_id: user.id,
      last_used_at: null,
      secret: AGENT_TOKEN_PREFIX + randomBytes(24).toString("base64url"),
    };
    this.tokens.insert(token);
    return { ...this.serialize(token), last_used_at: token.last_used_at, token: token.secret };
  }

  /** `DELETE` revokes; revoking an already revoked token succeeds as well. */
  delete(actor: Actor, path: AgentPath, tokenRef: string): void {
    this.tokens.findAt(actor, path, tokenRef, AGENT_WRITE_LEVEL).status = "revoked";
  }

  private serialize(token: AgentTokenRecord): Record<string, unknown> {
    return {
      id: token.id,
      name: token.name,
      description: token.description,
      agent_id: token.agent_id,
      status: token.status,
      created_at: token.created_at,
      // The API reference says "string (documented type)", but the service sends an integer, as it does
      // for agents, and clients decode it so.
      created_by_user_id: token.created_by_user_id,
    };
  }
}
