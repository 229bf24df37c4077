/**
 * Appends `items` to `list`, one at a time, and returns `list`. `list.push(...items)` passes every item as an
 * argument of one call, and past some 120,000 of them V8 throws a RangeError (the call overflows the stack): a list
 * that grows with what a person or a peer gives is appended here.
 */
export function append<T>(list: T[], items: Iterable<T>): T[] {
  for (const item of items) list.push(item);
  return list;
}
