import { RememError } from './errors.ts';

/** The one source of time: `REMEM_NOW` pins it, so a week of nights can be replayed. */
export interface Clock {
  now(): Date;
  iso(): string;
}

export function createClock(fixed?: string): Clock {
  if (fixed === undefined || fixed === '') {
    return { now: () => new Date(), iso: () => isoString(new Date()) };
  }
  const at = new Date(fixed);
  if (Number.isNaN(at.getTime()))
    throw new RememError('bad_clock', `REMEM_NOW is not an ISO 8601 time: ${fixed}`);
  return { now: () => new Date(at.getTime()), iso: () => isoString(at) };
}

const digits = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * What `Date.prototype.toISOString` gives, put together from the date's UTC fields: the first toISOString in a
 * process costs about a millisecond, as much as a hook's whole answer.
 */
export function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  // Years past four digits are written with a sign; an invalid date throws. Both as toISOString does.
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return `${digits(year, 4)}-${digits(date.getUTCMonth() + 1, 2)}-${digits(date.getUTCDate(), 2)}T${digits(
    date.getUTCHours(),
    2,
  )}:${digits(date.getUTCMinutes(), 2)}:${digits(date.getUTCSeconds(), 2)}.${digits(date.getUTCMilliseconds(), 3)}Z`;
}

export const DAY_MS = 86_400_000;

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string | Date, to: string | Date): number {
  return (new Date(to).getTime() - new Date(from).getTime()) / DAY_MS;
}
