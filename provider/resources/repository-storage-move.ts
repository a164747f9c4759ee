import { z } from "zod";
import { STORAGE_MOVE_KINDS } from "../../api";
import type { OperationContext, State, WireRecord } from "../engine/declaration";
import { defineResource } from "../engine/declaration";
import { crossFieldRule, nonBlank, show, wordList } from "../fields";
import type { AdoptEntries } from "../adopt-entry/entry";
import { routes } from "../../api/routes";

type MoveKind = (typeof STORAGE_MOVE_KINDS)[number];

/** The moves endpoints of a kind (`/project_repository_storage_moves`, ...). */
const movesOf = (kind: unknown) => routes.repositoryStorageMoves[kind as MoveKind];

/** The order of the service's in-progress states; the least advanced one speaks for the bulk. */
const IN_PROGRESS = ["initial", "scheduled", "started", "replicated"];
/** `cleanup failed`: the repository is on the destination, only the old copy stayed behind. */
const MOVED = ["finished", "cleanup failed"];

/**
 * The moves of this bulk, newest per repository: those from source to destination with an id
 * above the newest move that existed before the bulk was scheduled (`sinceMoveId`; 0 after an
 * import, when that is unknown). A repository moved again later shows its latest attempt.
 */
async function bulkMoves(ctx: OperationContext, state: State): Promise<WireRecord[]> {
  const kind = String(state["kind"]);
  const since = Number(state["sinceMoveId"] ?? 0);
  const moves = await ctx.list(movesOf(kind).list, state);
  const latest = new Map<string, WireRecord>();
  for (const move of [...moves].sort((a, b) => Number(b["id"]) - Number(a["id"]))) {
    if (Number(move["id"]) <= since) continue;
    if (move["source_storage_name"] !== state["sourceStorageName"] || move["destination_storage_name"] !== state["destinationStorageName"])
      continue;
    const container = JSON.stringify((move[kind] as WireRecord | null | undefined)?.["id"] ?? move["id"]);
    if (!latest.has(container)) latest.set(container, move);
  }
  return [...latest.values()];
}

/**
 * The state of the whole bulk, as one record: failed when a repository's move failed (with its
 * reason), in progress while any move is, finished otherwise. For projects the spec's own test
 * decides "finished": no project left on the source (`GET /projects?repository_storage=`);
 * until the service has created the first move record, the bulk counts as scheduled.
 */
async function readBulk(ctx: OperationContext, state: State): Promise<WireRecord> {
  const kind = state["kind"] as MoveKind;
  const moves = await bulkMoves(ctx, state);
  const failed = moves.filter((move) => move["state"] === "failed");
  const running = moves.filter((move) => IN_PROGRESS.includes(String(move["state"])));
  const moved = moves.filter((move) => MOVED.includes(String(move["state"])));
  let remaining = running.length + failed.length;
  if (kind === "project") {
    const onSource = await ctx.list(
      routes.projects.list,
      state,
      { repository_storage: state["sourceStorageName"] },
      { keyset: { orderBy: "id", sort: "asc" } },
    );
    remaining = onSource.length;
  }
  const leastAdvanced = IN_PROGRESS.find((phase) => running.some((move) => move["state"] === phase));
  let progress: string;
  if (failed.length > 0) progress = "failed";
  else if (leastAdvanced) progress = leastAdvanced;
  else if (kind === "project" && remaining > 0 && moves.length === 0) progress = "scheduled";
  else progress = "finished";
  const reasons = [...new Set(failed.map((move) => String(move["error_message"] ?? "no reason given")))];
  return {
    id: state["sinceMoveId"] ?? 0,
    kind,
    source_storage_name: state["sourceStorageName"],
    destination_storage_name: state["destinationStorageName"],
    state: progress,
    remaining,
    moved: moved.length,
    error_message: failed.length > 0 ? `${failed.length} of ${moves.length} repositories failed to move: ${reasons.join("; ")}` : null,
  };
}

/**
 * Moves every repository of one kind from one storage to another (administrators, self-managed).
 * The forge answers before the work is done: create waits until nothing is left to move.
 */
export const repositoryStorageMove = defineResource({
  name: "RepositoryStorageMove",
  summary:
    "Moves every repository of a kind (projects, snippets or group wikis) from one storage to another, and waits until the move is done.",
  inputs: z
    .object({
      /** What moves: `project` (with wikis and designs), `snippet`, or `group` (group wikis; Premium or Ultimate). */
      kind: z.enum(STORAGE_MOVE_KINDS, {
        error: (issue) => `${show(issue.input)} is not a kind of repository the forge moves. Use ${wordList(STORAGE_MOVE_KINDS)}.`,
      }),
      /** The storage every repository of the kind leaves, as named in the forge's configuration (`default`). */
      sourceStorageName: nonBlank("name of the storage the repositories leave"),
      /** The storage they move to. */
      destinationStorageName: nonBlank("name of the storage the repositories move to"),
      /**
       * Wait until the move is done (default true): `up` reports each new state in its log and
       * fails when a repository fails to move. Set false to return as soon as the forge has
       * scheduled the move.
       */
      waitForCompletion: z.boolean().optional(),
    })
    .check(
      crossFieldRule({
        rule: "destinationStorageName differs from sourceStorageName",
        problem: ({ sourceStorageName, destinationStorageName }) =>
          sourceStorageName === destinationStorageName
            ? {
                path: ["destinationStorageName"],
                message: `The repositories are already on ${show(destinationStorageName)}: a move needs another storage. Set destinationStorageName to the storage they go to.`,
              }
            : undefined,
      }),
    ),
  outputs: z.object({
    /** The state of the move: `scheduled`, `started`, `replicated`, `finished` or `failed` (the least advanced repository's). */
    state: z.string(),
    /** Repositories not yet moved: for projects, those still on the source storage. */
    remaining: z.number().int(),
    /** Repositories this move has put on the destination. */
    moved: z.number().int(),
    /** Why repositories failed to move; null unless the state is `failed`. */
    errorMessage: z.string().nullable(),
    /** The newest move the forge had before this one was scheduled: the moves above it are this one's. */
    sinceMoveId: z.number().int(),
  }),
  recordId: "sinceMoveId",
  idParts: ["kind", "sourceStorageName", "destinationStorageName"],
  // Two resources moving the same repositories at once would fight over them.
  identity: {
    fields: ["kind", "sourceStorageName"],
    describe: (state) => `the ${String(state["kind"])} repositories of storage ${show(state["sourceStorageName"])}`,
  },
  // The answer is `{"message":"202 Accepted"}`: the state comes from the read, which the create
  // polls until the move is done.
  create: {
    route: routes.repositoryStorageMoves.project.schedule,
    readBack: true,
    await: {
      field: "state",
      done: ["finished"],
      failed: ["failed"],
      reasonField: "errorMessage",
      timeoutMs: 60 * 60_000,
      skipInput: "waitForCompletion",
    },
  },
  read: routes.repositoryStorageMoves.project.list,
  replaceOn: "all",
  hooks: {
    // The path depends on the kind; the newest move before the POST marks where this bulk's start.
    async create(ctx, state) {
      const moves = movesOf(state["kind"]);
      const newest = await ctx.call<WireRecord[]>(moves.list, state, { per_page: 1 });
      await ctx.call(moves.schedule, state, {
        source_storage_name: state["sourceStorageName"],
        destination_storage_name: state["destinationStorageName"],
      });
      return { id: Number(newest[0]?.["id"] ?? 0) };
    },
    read: readBulk,
  },
  // No delete route: a move cannot be undone, so delete forgets it and leaves the repositories where they are.
  errorHints: [
    {
      status: 403,
      when: (state) => state["kind"] === "group",
      hint: "group repository moves need Premium or Ultimate, and an administrator's token",
    },
    { status: 403, hint: "repository storage moves need an administrator's token" },
  ],
  notes: [
    "Group moves need Premium or Ultimate; project and snippet moves exist in every tier. Self-managed only; an administrator's token.",
    "Deleting the resource cannot undo the move: it only forgets it, and the repositories stay on the destination. To move them back, declare a move the other way.",
    "The forge moves repositories in the background, and each is read-only until its own move ends. `up` waits (up to an hour) and logs each new state; with `waitForCompletion: false` it returns once the move is scheduled, and `pulumi refresh` shows how it went.",
    "Changing any input, `waitForCompletion` included, schedules a new move: what is then on the source moves again (often nothing).",
    "A failed move fails `up` with the forge's reason and is recorded as `failed`; once the cause is fixed, `pulumi up --replace <urn>` schedules it again.",
    "Progress is read from the forge's listing of moves (`GET /<kind>_repository_storage_moves`, which the spec does not show) and, for projects, from the projects still on the source storage (`GET /projects?repository_storage=`).",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  repositoryStorageMove: {
    exempt:
      "an asynchronous one-off: a move that happened is history, not configuration to keep declared (and deleting one cannot undo it)",
  },
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { repositoryStorageMove };
