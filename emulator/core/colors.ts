/*
 * Label colors: `#` + 6 hex digits (kept as sent) or a CSS named color, stored as upper-case
 * hex. The table of names is the one the library uses to compare colours, so that the
 * emulator and the provider cannot disagree about which names the service knows.
 */
import { CSS_COLORS } from "../../api";

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * The stored form of a label color, or undefined when it is neither `#RRGGBB` nor a CSS color
 * name. Hex input is kept exactly as sent; names become upper-case hex (`red` → `#FF0000`).
 */
export function normaliseColor(input: string): string | undefined {
  const color = input.trim();
  if (HEX_COLOR.test(color)) return color;
  return CSS_COLORS.get(color.toLowerCase());
}

/** Text colors the service pairs with a light or a dark background. */
const DARK_TEXT = "#1F1E24";
const LIGHT_TEXT = "#FFFFFF";

/**
 * Text color readable on `background` (`#RRGGBB`): dark text on light backgrounds, white on
 * dark ones, by perceived luminance (ITU-R BT.601 weights), the service's own rule.
 */
export function textColorFor(background: string): string {
  const hex = background.replace("#", "");
  const [r, g, b] = [0, 2, 4].map((offset) => parseInt(hex.slice(offset, offset + 2), 16)) as [number, number, number];
  const luminance = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
  return luminance > 0.5 ? DARK_TEXT : LIGHT_TEXT;
}
