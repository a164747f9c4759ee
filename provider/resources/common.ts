import { z } from "zod";
import { colorAsHex, isLabelColor } from "../../spec";

/** A group: its numeric id or its full path (`acme/platform`). */
export const groupRef = z.union([z.number().int().positive(), z.string().min(1)]);
/** A project: its numeric id or its full path (`acme/web`). */
export const projectRef = z.union([z.number().int().positive(), z.string().min(1)]);
/** A positive integer id assigned by the forge. */
export const serverId = z.number().int().positive();

export const labelColor = z.string().refine(isLabelColor, {
  message: "must be a 6-digit hex colour with a leading # (#FF0000) or a CSS colour name (red)",
});

/** ISO 8601 datetime, as the forge takes it; compared as instants, not as text. */
export const datetime = z.string().refine((value) => !Number.isNaN(Date.parse(value)), {
  message: "must be an ISO 8601 datetime such as 2026-12-01T10:00:00Z",
});

export const normalizers = {
  color: (value: unknown) => (typeof value === "string" ? colorAsHex(value) : value),
  instant: (value: unknown) => (typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : value),
  numberSet: (value: unknown) => (Array.isArray(value) ? [...value].sort((a, b) => Number(a) - Number(b)) : value),
  /** A numeric string names an id: `"42"` and `42` are the same project or group. */
  ref: (value: unknown) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
};
