import { z } from "zod";
import { AccessLevel } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { badRequest, thingNotFound } from "../../core/errors";
import type { Actor, ProjectRecord } from "../../core/records";
import { integerPathParam, paramBoolean, paramInteger, validate } from "../../core/validation";

/** Every job token scope operation needs Maintainer in the project. */
const JOB_TOKEN_SCOPE_LEVEL = AccessLevel.Maintainer;

/**
 * Per-project job token scope: the inbound switch and the two allowlists. `outbound_enabled` is
 * not stored: it follows from the other projects' scopes (see `reachesOtherProjects`).
 */
export interface JobTokenScopeRecord {
  project_id: number;
  inbound_enabled: boolean;
  allowlisted_project_ids: number[];
  allowlisted_group_ids: number[];
}

/** The two allowlists: of projects (`allowlist`) and of groups (`groups_allowlist`). */
export type AllowlistKind = "projects" | "groups";

/** What tells the two allowlists apart; their rules are otherwise the same. */
interface Allowlist {
  ids: "allowlisted_project_ids" | "allowlisted_group_ids";
  /** Body and path parameter naming the target. */
  target: "target_project_id" | "target_group_id";
  body: z.ZodType<number>;
  /** `404 <thing> Not Found` for a target the caller cannot see. */
  thing: "Project" | "Group";
  visible(actor: Actor, id: number): { id: number } | undefined;
  /** The listing's record of a target (undefined once the target is gone). */
  listed(id: number): Record<string, unknown> | undefined;
  /**
   * The project allowlist: a project always reaches itself, so it refuses its own project as a
   * target (already allowed, never removable). The listing leaves it out: the API lists the
   * allowlisted project records, the entries added, and says nothing of the source.
   */
  holdsSource: boolean;
}

/** The lookups of an allowlist's targets (projects or groups), by id. */
function targets<T extends { id: number }>(
  records: Collection<T>,
  canSee: (actor: Actor, target: T) => boolean,
  serialize: (target: T) => Record<string, unknown>,
): Pick<Allowlist, "visible" | "listed"> {
  return {
    visible: (actor, id) => {
      const target = records.byId(id);
      return target && canSee(actor, target) ? target : undefined;
    },
    listed: (id) => {
      const target = records.byId(id);
      return target && serialize(target);
    },
  };
}

/** Body of the PATCH. */
const updateJobTokenScopeParams = z.object({ enabled: paramBoolean() });

type Params = Record<string, unknown>;

/** Job token scope settings and allowlists. */
export class JobTokenScopes {
  private readonly allowlists: Record<AllowlistKind, Allowlist>;

  constructor(
    private readonly core: Core,
    private readonly scopes: Collection<JobTokenScopeRecord>,
  ) {
    const { projects, groups, permissions } = core;
    this.allowlists = {
      projects: {
        ids: "allowlisted_project_ids",
        target: "target_project_id",
        body: z.object({ target_project_id: paramInteger() }).transform((input) => input.target_project_id),
        thing: "Project",
        ...targets(
          projects,
          (actor, project) => permissions.canSeeProject(actor, project),
          (p) => projects.limited(p),
        ),
        holdsSource: true,
      },
      groups: {
        ids: "allowlisted_group_ids",
        target: "target_group_id",
        body: z.object({ target_group_id: paramInteger() }).transform((input) => input.target_group_id),
        thing: "Group",
        ...targets(
          groups,
          (actor, group) => permissions.canSeeGroup(actor, group),
          (group) => ({
            id: group.id,
            web_url: groups.webUrl(group),
            name: group.name,
          }),
        ),
        holdsSource: false,
      },
    };
  }

  /** `inbound_enabled` also reads true while the instance enforces allowlists. */
  settings(actor: Actor, projectRef: string): Record<string, unknown> {
    const project = this.requireProject(actor, projectRef);
    const scope = this.scopeOf(project);
    return {
      inbound_enabled: this.inboundEnabled(scope),
      outbound_enabled: this.reachesOtherProjects(project),
    };
  }

  update(actor: Actor, projectRef: string, params: Params): void {
    const scope = this.scopeOf(this.requireProject(actor, projectRef));
    const { enabled } = validate(updateJobTokenScopeParams, params);
    if (!enabled && this.core.state.settings.job_token_scope_enforced) {
      throw badRequest("The job token allowlist is enforced by an instance setting and cannot be disabled for this project");
    }
    scope.inbound_enabled = enabled;
  }

  /** The records of an allowlist's entries, in the order they were added. */
  allowlist(actor: Actor, projectRef: string, kind: AllowlistKind): Record<string, unknown>[] {
    const list = this.allowlists[kind];
    const source = this.requireProject(actor, projectRef);
    return this.scopeOf(source)[list.ids].flatMap((id) => {
      const record = list.listed(id);
      return record ? [record] : [];
    });
  }

  addToAllowlist(actor: Actor, projectRef: string, kind: AllowlistKind, params: Params): Record<string, unknown> {
    const list = this.allowlists[kind];
    const source = this.requireProject(actor, projectRef);
    const target = list.visible(actor, validate(list.body, params));
    if (!target) throw thingNotFound(list.thing);
    const scope = this.scopeOf(source);
    if ((list.holdsSource && target.id === source.id) || scope[list.ids].includes(target.id)) {
      throw badRequest(`This ${list.thing.toLowerCase()} is already in the job token allowlist.`);
    }
    scope[list.ids].push(target.id);
    return { source_project_id: source.id, [list.target]: target.id };
  }

  removeFromAllowlist(actor: Actor, projectRef: string, kind: AllowlistKind, targetRef: string): void {
    const list = this.allowlists[kind];
    const source = this.requireProject(actor, projectRef);
    const target = list.visible(actor, integerPathParam(list.target, targetRef));
    if (!target) throw thingNotFound(list.thing);
    if (list.holdsSource && target.id === source.id) {
      throw badRequest("Source project cannot be removed from the job token scope");
    }
    const scope = this.scopeOf(source);
    if (!scope[list.ids].includes(target.id)) {
      throw badRequest(`Target ${list.thing.toLowerCase()} is not in the job token scope`);
    }
    scope[list.ids] = scope[list.ids].filter((id) => id !== target.id);
  }

  private inboundEnabled(scope: JobTokenScopeRecord | undefined): boolean {
    return (scope?.inbound_enabled ?? false) || this.core.state.settings.job_token_scope_enforced;
  }

  /**
   * `outbound_enabled`, as the API defines it: whether this project's job tokens can reach
   * other projects, that is whether some other project lets them in (its allowlist is off, or
   * lists this project or a group above it). The deprecated outbound restriction cannot be set
   * through this API, so nothing else limits them.
   */
  private reachesOtherProjects(source: ProjectRecord): boolean {
    const { projects } = this.core;
    const sourceGroups = projects.groupsAbove(source).map((group) => group.id);
    return projects.all().some((target) => {
      if (target.id === source.id) return false;
      const scope = this.scopes.find((s) => s.project_id === target.id);
      if (!this.inboundEnabled(scope)) return true;
      return (
        scope !== undefined &&
        (scope.allowlisted_project_ids.includes(source.id) || scope.allowlisted_group_ids.some((id) => sourceGroups.includes(id)))
      );
    });
  }

  private requireProject(actor: Actor, projectRef: string): ProjectRecord {
    return this.core.permissions.requireProject(actor, projectRef, JOB_TOKEN_SCOPE_LEVEL);
  }

  /**
   * The scope record, created on first use. New projects start with the allowlist disabled
   * (the first state of the API's transition table).
   */
  private scopeOf(project: ProjectRecord): JobTokenScopeRecord {
    return (
      this.scopes.find((s) => s.project_id === project.id) ??
      this.scopes.insert({
        project_id: project.id,
        inbound_enabled: false,
        allowlisted_project_ids: [],
        allowlisted_group_ids: [],
      })
    );
  }
}
