import { randomBytes } from "node:crypto";
import { z } from "zod";
import { AccessLevel } from "../../../api";
import type { Collection } from "../../core/collection";
import { withServiceNames } from "../../core/service-names";
import type { Core } from "../../core/core";
import { badRequest, recordNotFound, thingNotFound } from "../../core/errors";
import type { Actor, ProjectRecord } from "../../core/records";
import { integerPathParam, paramBoolean, validate } from "../../core/validation";

/** Error tracking settings and client keys need Maintainer (the API's roles). */
const ERROR_TRACKING_LEVEL = AccessLevel.Maintainer;

/** A project's error tracking settings. The external backend's fields stay null:
 *  the API cannot configure that backend, only switch it on or off. */
export interface ErrorTrackingSettingsRecord {
  project_id: number;
  active: boolean;
  integrated: boolean;
  project_name: string | null;
  vendor_external_url: string | null;
  api_url: string | null;
}

/** A client key of a project; its DSN is derived when it is shown. */
export interface ClientKeyRecord {
  id: number;
  project_id: number;
  active: boolean;
  public_key: string;
}

const putParams = z.object({ active: paramBoolean(), integrated: paramBoolean() });
const patchParams = z.object({ active: paramBoolean(), integrated: paramBoolean().optional() });

/** Settings and client keys of integrated error tracking, per project. */
export class ErrorTracking {
  constructor(
    private readonly core: Core,
    private readonly settings: Collection<ErrorTrackingSettingsRecord>,
    private readonly keys: Collection<ClientKeyRecord>,
  ) {}

  getSettings(actor: Actor, projectRef: string): Record<string, unknown> {
    return serializeSettings(this.requireSettings(this.project(actor, projectRef)));
  }

  /**
   * PUT: "only with the integrated backend". It creates the settings when the
   * project has none, or overwrites them. Spec silent on `integrated=false`: the service cannot
   * configure the external backend through this endpoint, so it is refused with 400.
   */
  putSettings(actor: Actor, projectRef: string, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.project(actor, projectRef);
    const { active, integrated } = validate(putParams, input);
    if (!integrated) throw badRequest("integrated must be true: this endpoint configures the integrated backend only");
    const existing = this.findSettings(project);
    if (existing) {
      existing.active = active;
      existing.integrated = true;
      return serializeSettings(existing);
    }
    const record: ErrorTrackingSettingsRecord = {
      project_id: project.id,
      active,
      integrated: true,
      project_name: null,
      vendor_external_url: null,
      api_url: null,
    };
    return serializeSettings(this.settings.insert(record));
  }

  /** PATCH: enables or disables settings that exist; none: 404. */
  patchSettings(actor: Actor, projectRef: string, input: Record<string, unknown>): Record<string, unknown> {
    const project = this.project(actor, projectRef);
    const record = this.requireSettings(project);
    const { active, integrated } = validate(patchParams, input);
    record.active = active;
    if (integrated !== undefined) record.integrated = integrated;
    return serializeSettings(record);
  }

  listKeys(actor: Actor, projectRef: string): Record<string, unknown>[] {
    const project = this.project(actor, projectRef);
    return this.keys.list((key) => key.project_id === project.id).map((key) => this.serializeKey(key));
  }

  /** POST takes no parameters; the public key is generated (32 hex characters, spec silent on its form). */
  createKey(actor: Actor, projectRef: string): Record<string, unknown> {
    const project = this.project(actor, projectRef);
    const record: ClientKeyRecord = {
      id: this.core.nextId("error_tracking_client_key"),
      project_id: project.id,
      active: true,
      public_key: randomBytes(16).toString("hex"),
    };
    return this.serializeKey(this.keys.insert(record));
  }

  /** DELETE answers 200 with the key it deleted (api-semantics.md). */
  deleteKey(actor: Actor, projectRef: string, keyId: string): Record<string, unknown> {
    const project = this.project(actor, projectRef);
    const id = integerPathParam("key_id", keyId);
    const record = this.keys.find((key) => key.project_id === project.id && key.id === id);
    if (!record) throw recordNotFound();
    this.keys.remove(record);
    return this.serializeKey(record);
  }

  private project(actor: Actor, ref: string): ProjectRecord {
    return this.core.permissions.requireProject(actor, ref, ERROR_TRACKING_LEVEL);
  }

  private findSettings(project: ProjectRecord): ErrorTrackingSettingsRecord | undefined {
    return this.settings.find((record) => record.project_id === project.id);
  }

  /** A project never configured has no settings: `404 Error Tracking Setting Not Found`. */
  private requireSettings(project: ProjectRecord): ErrorTrackingSettingsRecord {
    const record = this.findSettings(project);
    if (!record) throw thingNotFound("Error Tracking Setting");
    return record;
  }

  /** The data source name SDKs send events to (the API's ingestion endpoint). */
  private serializeKey(key: ClientKeyRecord): Record<string, unknown> {
    const host = new URL(this.core.baseUrl).host;
    const record = {
      id: key.id,
      active: key.active,
      public_key: key.public_key,
      vendor_dsn: `https://${key.public_key}@${host}/errortracking/api/v1/projects/${key.project_id}`,
    };
    return withServiceNames(record, ["vendor_dsn"]);
  }
}

function serializeSettings(record: ErrorTrackingSettingsRecord): Record<string, unknown> {
  const { project_id: _projectId, ...settings } = record;
  return withServiceNames(settings, ["vendor_external_url"]);
}
