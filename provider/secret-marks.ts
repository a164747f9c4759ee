/**
 * How Pulumi marks a secret value, defined once for the plugin face and the CLIs: an object whose
 * {@link SIG_KEY} holds {@link SECRET_SIG}. On the provider protocol the value sits beside them
 * (`{ [SIG_KEY]: SECRET_SIG, value }`, plugin/face.ts); in a state exported with
 * `--show-secrets`, as `plaintext` (cli/state.ts). The Pulumi SDK calls them `specialSigKey` and
 * `specialSecretSig`.
 */

/** The key that marks an object as one of Pulumi's special values. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

/** The value of {@link SIG_KEY} that says the object is a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
