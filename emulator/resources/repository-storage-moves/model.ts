import { z } from "zod";
import type { STORAGE_MOVE_KINDS } from "../../../api";
import type { Collection } from "../../core/collection";
import type { Core } from "../../core/core";
import { badRequest, parameterError, recordNotFound } from "../../core/errors";
import type { Actor } from "../../core/records";
import { isoTimestamp } from "../../core/time";
import { integerPathParam, paramString, validate } from "../../core/validation";

/**
 * The storages of the emulated instance. The spec names none; `default` is where every
 * repository starts (the service's own default shard), and a second one gives moves somewhere to go.
 */
const STORAGES = ["default", "secondary"] as const;

export type MoveKind = (typeof STORAGE_MOVE_KINDS)[number];

/**
 * The states a move goes through. The API shows `finished` and says moves are reported in
 * progress or failed; the names in between are the service's (its storage moves API):
 * scheduled, started, replicated, then finished, or failed.
 */
const PHASES = ["scheduled", "started", "replicated"] as const;
type MoveState = (typeof PHASES)[number] | "finished" | "failed";

/** One repository's move: a bulk POST stores one per repository on the source storage. */
export interface StorageMoveRecord {
  id: number;
  kind: MoveKind;
  /** The project or group whose repository moves. */
  container_id: number;
  state: MoveState;
  source_storage_name: string;
  destination_storage_name: string;
  error_message: string | null;
  created_at: string;
  /** When it was scheduled and how long it takes (ms): the state follows from the clock. */
  scheduled_at_ms: number;
  duration_ms: number;
}

const bulkParams = z.object({ source_storage_name: paramString(), destination_storage_name: paramString() });

/** A container whose repository can be moved: a project or a group (its wiki). */
interface Container {
  id: number;
  repository_storage?: string;
  repository_read_only?: boolean;
}

/**
 * Repository storage moves: a bulk POST schedules a move of every repository on the source
 * storage; each runs over time (the `storage_move_ms` setting) and its repository is read-only
 * until it ends. Moves advance when they are read and by a timer at their end, so that
 * `GET /projects?repository_storage=` sees the repository leave the source without a read here.
 *
 * Read-only is the `repository_read_only` flag of the project or group record. In
 * the service it refuses writes to the repository itself: pushes ("The repository is temporarily
 * read-only. Please try again later."), commits, files, branches, tags, wiki pages. The emulator
 * serves none of those; its project-level writes (job token scope, protected environments,
 * feature flag user lists, cluster agents) change the database, not the repository, and the
 * service accepts them during a move. So the flag refuses nothing yet: it keeps a second bulk
 * from scheduling a repository already moving, and is there for repository writes added later.
 */
export class RepositoryStorageMoves {
  constructor(
    private readonly core: Core,
    private readonly moves: Collection<StorageMoveRecord>,
  ) {}

  /** `POST /<kind>_repository_storage_moves`: 202 whatever the number of repositories moved. */
  scheduleAll(actor: Actor, kind: MoveKind, input: Record<string, unknown>): void {
    this.core.permissions.requireAdmin(actor);
    const params = validate(bulkParams, input);
    const invalid = (["source_storage_name", "destination_storage_name"] as const).filter((name) => !isStorage(params[name]));
    if (invalid.length > 0) throw parameterError(invalid.map((name) => `${name} does not have a valid value`));
    // The spec is silent; the service would schedule moves that each fail their validation.
    // Refusing at once tells the caller what is wrong.
    if (params.source_storage_name === params.destination_storage_name) {
      throw badRequest("source_storage_name and destination_storage_name must be different storages");
    }
    const settings = this.core.state.settings;
    const now = this.core.clock.now();
    for (const container of this.containers(kind)) {
      if (this.storageOf(container) !== params.source_storage_name) continue;
      // A repository already moving is read-only: the service skips it rather than move it twice.
      if (container.repository_read_only) continue;
      container.repository_read_only = true;
      this.moves.insert({
        id: this.core.nextId("repositoryStorageMoves"),
        kind,
        container_id: container.id,
        state: "scheduled",
        source_storage_name: params.source_storage_name,
        destination_storage_name: params.destination_storage_name,
        error_message: null,
        created_at: isoTimestamp(new Date(now)),
        scheduled_at_ms: now,
        duration_ms: settings.storage_move_ms,
      });
    }
    this.advance();
    if (settings.storage_move_ms > 0) setTimeout(() => this.advance(), settings.storage_move_ms).unref();
  }

  /** `GET /<kind>_repository_storage_moves`: newest first, as the service lists them. */
  list(actor: Actor, kind: MoveKind): Record<string, unknown>[] {
    this.core.permissions.requireAdmin(actor);
    this.advance();
    return this.moves
      .list(
        (move) => move.kind === kind,
        (a, b) => b.id - a.id,
      )
      .map((move) => this.serialize(move));
  }

  /** `GET /<kind>_repository_storage_moves/:id`. */
  get(actor: Actor, kind: MoveKind, ref: string): Record<string, unknown> {
    this.core.permissions.requireAdmin(actor);
    this.advance();
    const id = integerPathParam("repository_storage_move_id", ref);
    const move = this.moves.find((candidate) => candidate.id === id && candidate.kind === kind);
    if (!move) throw recordNotFound();
    return this.serialize(move);
  }

  /**
   * Brings every running move to the state its age gives: a third of the time in each phase,
   * then the end. A finished move leaves its repository on the destination; a failed one (the
   * `storage_move_error` setting) leaves it on the source. Either way it is writable again.
   */
  advance(now = this.core.clock.now()): void {
    for (const move of this.moves.all()) {
      if (move.state === "finished" || move.state === "failed") continue;
      const elapsed = now - move.scheduled_at_ms;
      if (elapsed < move.duration_ms) {
        move.state = PHASES[Math.min(PHASES.length - 1, Math.floor((elapsed / move.duration_ms) * PHASES.length))]!;
        continue;
      }
      const container = this.containerOf(move);
      const error = this.core.state.settings.storage_move_error;
      if (error) {
        move.state = "failed";
        move.error_message = error;
      } else {
        move.state = "finished";
        if (container) container.repository_storage = move.destination_storage_name;
      }
      if (container) container.repository_read_only = false;
    }
  }

  private containers(kind: MoveKind): Container[] {
    // The emulator holds no snippet repositories: a snippet move finds nothing to move.
    if (kind === "snippet") return [];
    return kind === "project" ? this.core.projects.all() : this.core.groups.all();
  }

  private containerOf(move: StorageMoveRecord): Container | undefined {
    return this.containers(move.kind).find((container) => container.id === move.container_id);
  }

  private storageOf(container: Container): string {
    return container.repository_storage ?? "default";
  }

  /** The service's move record: its fields and the container under the kind's name. */
  private serialize(move: StorageMoveRecord): Record<string, unknown> {
    const record: Record<string, unknown> = {
      id: move.id,
      created_at: move.created_at,
      state: move.state,
      source_storage_name: move.source_storage_name,
      destination_storage_name: move.destination_storage_name,
      error_message: move.error_message,
    };
    if (move.kind === "project") {
      const project = this.core.projects.byId(move.container_id);
      record["project"] = project ? this.core.projects.configProject(project) : null;
    } else if (move.kind === "group") {
      const group = this.core.groups.byId(move.container_id);
      record["group"] = group ? { id: group.id, name: group.name, web_url: this.core.groups.webUrl(group) } : null;
    } else {
      record["snippet"] = null; // never reached: the emulator holds no snippet repositories
    }
    return record;
  }
}

function isStorage(name: string): boolean {
  return (STORAGES as readonly string[]).includes(name);
}
