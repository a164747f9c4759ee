import type { Core } from "../../core/core";
import type { Actor } from "../../core/records";

/**
 * Reads of the access entities. Their state and rules live in core, because every resource
 * checks roles against them; only these three reads are a resource of their own.
 */
export class AccessReads {
  constructor(private readonly core: Core) {}

  /** `GET /user`: the caller, so that clients can check their credentials. */
  currentUser(actor: Actor): Record<string, unknown> {
    return this.core.users.current(this.core.permissions.requireUser(actor));
  }

  /** `GET /groups/:id`: enough of the group record to resolve paths (no auth for public groups). */
  group(actor: Actor, groupRef: string): Record<string, unknown> {
    return this.core.groups.serialize(this.core.permissions.requireGroup(actor, groupRef));
  }

  /** `GET /projects/:id`: the project record lookups need. */
  project(actor: Actor, projectRef: string): Record<string, unknown> {
    return this.core.projects.serialize(this.core.permissions.requireProject(actor, projectRef));
  }
}
