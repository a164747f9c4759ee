import { randomBytes } from "node:crypto";

/** Unique per run, so that finding it in a state file cannot be a coincidence. */
export const NONCE = randomBytes(18).toString("base64");
/** A fake mTLS client certificate and key (the emulator does not parse them). */
export const FAKE_CERT = `-----BEGIN CERTIFICATE-----\nMIIBfakeCERT${NONCE}\n-----END CERTIFICATE-----\n`;
export const FAKE_KEY = `-----BEGIN PRIVATE KEY-----\nMIIEfakeKEY${NONCE}\n-----END PRIVATE KEY-----\n`;
/** The key's body alone: found even where newlines are escaped. */
export const FAKE_KEY_BODY = `MIIEfakeKEY${NONCE}`;
