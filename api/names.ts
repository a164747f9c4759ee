/*
 * The names that address namespaces: a group's or project's path (its URL slug) and a username.
 * The emulator refuses what breaks them with the service's wording; the provider's GroupSettings
 * checks usernames with the same pattern, so that the library and its emulator agree.
 */

/**
 * A group's or project's path: letters, digits, `_`, `-` and `.`, starting with a letter, digit
 * or `_`, not ending in `.git` or `.atom`. The service refuses a leading `.` too, though its
 * message names only `-`.
 */
export const NAMESPACE_PATH = /^(?!.*\.(?:git|atom)$)[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** The service's message for a path {@link NAMESPACE_PATH} refuses. */
export const NAMESPACE_PATH_RULE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** A username: a path's characters and start, at most 255 characters, not ending in `.`, `.git` or `.atom`. */
export const USERNAME = /^(?!.*(?:\.|\.git|\.atom)$)[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
/** The service's message for a username {@link USERNAME} refuses. */
export const USERNAME_RULE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
