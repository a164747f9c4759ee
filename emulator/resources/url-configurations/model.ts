import { generateKeyPairSync } from "node:crypto";
import { z } from "zod";
import { isAgentUrl } from "../../../api";
import { AGENT_READ_LEVEL, AGENT_WRITE_LEVEL, type AgentChildren, type AgentPath } from "../../core/agents";
import type { Core } from "../../core/core";
import { badRequest, modelValidationError } from "../../core/errors";
import type { Actor } from "../../core/records";
import { paramString, requireAllOrNone, validate } from "../../core/validation";

/**
 * A receptive agent's URL configuration. Exactly one authentication: mutual TLS (client_cert
 * and client_key) or JWT (a generated key pair whose public half is returned).
 */
export interface UrlConfigurationRecord {
  id: number;
  agent_id: number;
  url: string;
  public_key: string | null;
  client_cert: string | null;
  /** Write-only: stored, never returned. */
  client_key: string | null;
  ca_cert: string | null;
  tls_host: string | null;
}

/** Body of `POST .../url_configurations`. */
const createUrlConfigurationParams = z.object({
  url: paramString(),
  client_cert: paramString().optional(),
  client_key: paramString().optional(),
  ca_cert: paramString().optional(),
  tls_host: paramString().optional(),
});

/** Receptive agent URL configurations (at most one per agent). */
export class UrlConfigurations {
  constructor(
    private readonly core: Core,
    private readonly configs: AgentChildren<UrlConfigurationRecord>,
  ) {}

  list(actor: Actor, path: AgentPath): Record<string, unknown>[] {
    return this.configs.listAt(actor, path, AGENT_READ_LEVEL).map((config) => serialize(config));
  }

  get(actor: Actor, path: AgentPath, configRef: string): Record<string, unknown> {
    return serialize(this.configs.findAt(actor, path, configRef, AGENT_READ_LEVEL));
  }

  create(actor: Actor, path: AgentPath, params: Record<string, unknown>): Record<string, unknown> {
    const agent = this.configs.agentOf(actor, path, AGENT_WRITE_LEVEL);
    const input = validate(createUrlConfigurationParams, params);
    requireAllOrNone(params, ["client_cert", "client_key"]);
    if (!input.url.trim()) throw modelValidationError("url", "can't be blank");
    if (!isAgentUrl(input.url)) throw modelValidationError("url", "must be a grpc:// or grpcs:// URL with a host");
    if (this.configs.ofAgent(agent.id).length > 0) {
      throw badRequest("URL configuration already exists for this agent");
    }
    const mutualTls = input.client_cert !== undefined;
    const config: UrlConfigurationRecord = {
      id: this.core.nextId("url_configuration"),
      agent_id: agent.id,
      url: input.url,
      public_key: mutualTls ? null : generatePublicKey(),
      client_cert: input.client_cert ?? null,
      client_key: input.client_key ?? null,
      ca_cert: input.ca_cert ?? null,
      tls_host: input.tls_host ?? null,
    };
    this.configs.insert(config);
    return serialize(config);
  }

  /** Not in the spec, but the real service has it (and replacement needs it). */
  delete(actor: Actor, path: AgentPath, configRef: string): void {
    this.configs.remove(this.configs.findAt(actor, path, configRef, AGENT_WRITE_LEVEL));
  }
}

/** Optional fields appear only when set; client_key never does. */
function serialize(config: UrlConfigurationRecord): Record<string, unknown> {
  const record: Record<string, unknown> = { id: config.id, agent_id: config.agent_id, url: config.url };
  if (config.public_key !== null) record.public_key = config.public_key;
  if (config.client_cert !== null) record.client_cert = config.client_cert;
  if (config.ca_cert !== null) record.ca_cert = config.ca_cert;
  if (config.tls_host !== null) record.tls_host = config.tls_host;
  return record;
}

/** A real Ed25519 public key (raw 32 bytes, base64): the private half is discarded. */
function generatePublicKey(): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const spki = publicKey.export({ format: "der", type: "spki" });
  return spki.subarray(spki.length - 32).toString("base64");
}
