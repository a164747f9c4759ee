import { generateKeyPairSync } from "node:crypto";
import { z } from "zod";
import { AGENT_READ_LEVEL, AGENT_WRITE_LEVEL } from "./cluster-agents";
import { badRequest, modelValidationError, recordNotFound } from "./errors";
import type { Store } from "./store";
import type { Actor } from "./users";
import { integerPathParam, paramString, requireAllOrNone, validate } from "./validation";

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
export const createUrlConfigurationParams = z.object({
  url: paramString(),
  client_cert: paramString().optional(),
  client_key: paramString().optional(),
  ca_cert: paramString().optional(),
  tls_host: paramString().optional(),
});

/** Receptive agent URL configurations (at most one per agent). */
export class UrlConfigurations {
  constructor(private readonly store: Store) {}

  list(actor: Actor, projectRef: string, agentRef: string): Record<string, unknown>[] {
    const agent = this.store.clusterAgents.requireAgent(actor, projectRef, agentRef, AGENT_READ_LEVEL);
    return this.store.state.urlConfigurations
      .filter((c) => c.agent_id === agent.id)
      .map((config) => serialize(config));
  }

  get(actor: Actor, projectRef: string, agentRef: string, configRef: string): Record<string, unknown> {
    const agent = this.store.clusterAgents.requireAgent(actor, projectRef, agentRef, AGENT_READ_LEVEL);
    return serialize(this.find(agent.id, configRef));
  }

  create(
    actor: Actor,
    projectRef: string,
    agentRef: string,
    params: Record<string, unknown>,
  ): Record<string, unknown> {
    const agent = this.store.clusterAgents.requireAgent(actor, projectRef, agentRef, AGENT_WRITE_LEVEL);
    const input = validate(createUrlConfigurationParams, params);
    requireAllOrNone(params, ["client_cert", "client_key"]);
    if (!input.url.trim()) throw modelValidationError("url", "can't be blank");
    if (this.store.state.urlConfigurations.some((c) => c.agent_id === agent.id)) {
      throw badRequest("URL configuration already exists for this agent");
    }
    const mutualTls = input.client_cert !== undefined;
    const config: UrlConfigurationRecord = {
      id: this.store.nextId("url_configuration"),
      agent_id: agent.id,
      url: input.url,
      public_key: mutualTls ? null : generatePublicKey(),
      client_cert: input.client_cert ?? null,
      client_key: input.client_key ?? null,
      ca_cert: input.ca_cert ?? null,
      tls_host: input.tls_host ?? null,
    };
    this.store.state.urlConfigurations.push(config);
    return serialize(config);
  }

  /** Not in the spec, but the real service has it (and replacement needs it). */
  delete(actor: Actor, projectRef: string, agentRef: string, configRef: string): void {
    const agent = this.store.clusterAgents.requireAgent(actor, projectRef, agentRef, AGENT_WRITE_LEVEL);
    const config = this.find(agent.id, configRef);
    this.store.state.urlConfigurations = this.store.state.urlConfigurations.filter((c) => c !== config);
  }

  private find(agentId: number, configRef: string): UrlConfigurationRecord {
    const id = integerPathParam("url_configuration_id", configRef);
    const config = this.store.state.urlConfigurations.find((c) => c.id === id && c.agent_id === agentId);
    if (!config) throw recordNotFound();
    return config;
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
