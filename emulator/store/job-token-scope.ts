import { z } from "zod";
import { AccessLevel } from "../../spec";
import { badRequest, thingNotFound } from "./errors";
import type { ProjectRecord } from "./projects";
import type { Store } from "./store";
import type { Actor } from "./users";
import { integerPathParam, paramBoolean, paramInteger, validate } from "./validation";

/** Every job token scope operation needs Maintainer in the project. */
export const JOB_TOKEN_SCOPE_LEVEL = AccessLevel.Maintainer;

/** Per-project job token scope: the inbound switch and the two allowlists. */
export interface JobTokenScopeRecord {
  project_id: number;
  inbound_enabled: boolean;
  outbound_enabled: boolean;
  allowlisted_project_ids: number[];
  allowlisted_group_ids: number[];
}

/** Bodies of the PATCH and of the two allowlist POSTs. */
export const updateJobTokenScopeParams = z.object({ enabled: paramBoolean() });
export const addProjectParams = z.object({ target_project_id: paramInteger() });
export const addGroupParams = z.object({ target_group_id: paramInteger() });

type Params = Record<string, unknown>;

/** Job token scope settings and allowlists. */
export class JobTokenScopes {
  constructor(private readonly store: Store) {}

  /** `inbound_enabled` also reads true while the instance enforces allowlists. */
  settings(actor: Actor, projectRef: string): Record<string, unknown> {
    const scope = this.scopeOf(this.requireProject(actor, projectRef));
    return {
      inbound_enabled: scope.inbound_enabled || this.store.state.settings.job_token_scope_enforced,
      outbound_enabled: scope.outbound_enabled,
    };
  }

  update(actor: Actor, projectRef: string, params: Params): void {
    const scope = this.scopeOf(this.requireProject(actor, projectRef));
    const { enabled } = validate(updateJobTokenScopeParams, params);
    if (!enabled && this.store.state.settings.job_token_scope_enforced) {
      throw badRequest(
        "The job token allowlist is enforced by an instance setting and cannot be disabled for this project",
      );
    }
    scope.inbound_enabled = enabled;
  }

  /**
   * Allowlisted projects. The source project itself always belongs to its own allowlist and is
   * listed first, as the service does.
   */
  projects(actor: Actor, projectRef: string): Record<string, unknown>[] {
    const source = this.requireProject(actor, projectRef);
    const ids = [source.id, ...this.scopeOf(source).allowlisted_project_ids];
    return ids
      .map((id) => this.store.projects.byId(id))
      .filter((p): p is ProjectRecord => p !== undefined)
      .map((p) => this.store.projects.limited(p));
  }

  addProject(actor: Actor, projectRef: string, params: Params): Record<string, unknown> {
    const source = this.requireProject(actor, projectRef);
    const { target_project_id } = validate(addProjectParams, params);
    const target = this.store.projects.byId(target_project_id);
    if (!target || !this.store.permissions.canSeeProject(actor, target)) throw thingNotFound("Project");
    const scope = this.scopeOf(source);
    if (target.id === source.id || scope.allowlisted_project_ids.includes(target.id)) {
      throw badRequest("This project is already in the job token allowlist.");
    }
    scope.allowlisted_project_ids.push(target.id);
    return { source_project_id: source.id, target_project_id: target.id };
  }

  removeProject(actor: Actor, projectRef: string, targetRef: string): void {
    const source = this.requireProject(actor, projectRef);
    const target = this.store.projects.byId(integerPathParam("target_project_id", targetRef));
    if (!target || !this.store.permissions.canSeeProject(actor, target)) throw thingNotFound("Project");
    if (target.id === source.id) throw badRequest("Source project cannot be removed from the job token scope");
    const scope = this.scopeOf(source);
    if (!scope.allowlisted_project_ids.includes(target.id)) {
      throw badRequest("Target project is not in the job token scope");
    }
    scope.allowlisted_project_ids = scope.allowlisted_project_ids.filter((id) => id !== target.id);
  }

  groups(actor: Actor, projectRef: string): Record<string, unknown>[] {
    const source = this.requireProject(actor, projectRef);
    return this.scopeOf(source).allowlisted_group_ids.flatMap((id) => {
      const group = this.store.groups.byId(id);
      return group ? [{ id: group.id, web_url: this.store.groups.webUrl(group), name: group.name }] : [];
    });
  }

  addGroup(actor: Actor, projectRef: string, params: Params): Record<string, unknown> {
    const source = this.requireProject(actor, projectRef);
    const { target_group_id } = validate(addGroupParams, params);
    const target = this.store.groups.byId(target_group_id);
    if (!target || !this.store.permissions.canSeeGroup(actor, target)) throw thingNotFound("Group");
    const scope = this.scopeOf(source);
    if (scope.allowlisted_group_ids.includes(target.id)) {
      throw badRequest("This group is already in the job token allowlist.");
    }
    scope.allowlisted_group_ids.push(target.id);
    return { source_project_id: source.id, target_group_id: target.id };
  }

  removeGroup(actor: Actor, projectRef: string, targetRef: string): void {
    const source = this.requireProject(actor, projectRef);
    const target = this.store.groups.byId(integerPathParam("target_group_id", targetRef));
    if (!target || !this.store.permissions.canSeeGroup(actor, target)) throw thingNotFound("Group");
    const scope = this.scopeOf(source);
    if (!scope.allowlisted_group_ids.includes(target.id)) {
      throw badRequest("Target group is not in the job token scope");
    }
    scope.allowlisted_group_ids = scope.allowlisted_group_ids.filter((id) => id !== target.id);
  }

  private requireProject(actor: Actor, projectRef: string): ProjectRecord {
    return this.store.permissions.requireProject(actor, projectRef, JOB_TOKEN_SCOPE_LEVEL);
  }

  /**
   * The scope record, created on first use. New projects start with the allowlist disabled
   * (the first state of Document 1's transition table).
   */
  private scopeOf(project: ProjectRecord): JobTokenScopeRecord {
    let scope = this.store.state.jobTokenScopes.find((s) => s.project_id === project.id);
    if (!scope) {
      scope = {
        project_id: project.id,
        inbound_enabled: false,
        outbound_enabled: false,
        allowlisted_project_ids: [],
        allowlisted_group_ids: [],
      };
      this.store.state.jobTokenScopes.push(scope);
    }
    return scope;
  }
}
