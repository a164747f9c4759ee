/*
 * What counts as a credential by its name, and what a masked value reads as: one rule for the
 * provider's messages (provider/redaction.ts) and the emulator's request log, so that a value the
 * one masks the other does not print.
 */

/** What a secret reads as in every message, report and log. */
export const SECRET_MASK = "[secret]";

/** A parameter whose value is a credential, by its name: any name holding pass, pwd, secret, token, key, credential or signature. */
export const CREDENTIAL_PARAMETER = /pass|pwd|secret|token|key|credential|signature/i;
