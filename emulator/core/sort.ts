import type { SortDirection } from "./routes";

/** Sorted by `value`, ties broken by id in the same direction. */
export function sortBy<T extends { id: number }>(items: T[], value: (item: T) => string | number, sort: SortDirection): T[] {
  const direction = sort === "asc" ? 1 : -1;
  return [...items].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const primary = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return direction * (primary || a.id - b.id);
  });
}
