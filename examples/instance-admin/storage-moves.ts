/**
 * Repository storage: every project repository leaves the `default` storage for `secondary`
 * (seed: both exist, every repository starts on `default`). `up` waits until the forge has moved
 * them all, logging each new state; each repository is read-only while its own move runs.
 * Deleting the resource does not move anything back: to do so, declare the move the other way.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();
/** The storage being emptied, and where its repositories go. */
const source = config.get("storageMoveSource") ?? "default";
const destination = config.get("storageMoveDestination") ?? "secondary";

const projectMove = new forge.RepositoryStorageMove("projects-off-default", {
  kind: "project",
  sourceStorageName: source,
  destinationStorageName: destination,
});

/** `finished` once nothing is left on the source. */
export const projectMoveState = projectMove.state;
export const projectsMoved = projectMove.moved;
