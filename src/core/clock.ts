import { RememError } from './errors.ts';

/** The one source of time: `REMEM_NOW` pins it, so a week of nights can be replayed. */
export interface Clock {
  now(): Date;
  iso(): string;
}

export function createClock(fixed?: string): Clock {
  if (fixed === undefined || fixed === '') {
    return { now: () => new Date(), iso: () => new Date().toISOString() };
  }
  const at = new Date(fixed);
  if (Number.isNaN(at.getTime()))
    throw new RememError('bad_clock', `REMEM_NOW is not an ISO 8601 time: ${fixed}`);
  return { now: () => new Date(at.getTime()), iso: () => at.toISOString() };
}

export const DAY_MS = 86_400_000;

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string | Date, to: string | Date): number {
  return (new Date(to).getTime() - new Date(from).getTime()) / DAY_MS;
}
