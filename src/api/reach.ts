import { isIP } from 'node:net';
import { LOOPBACK_NAMES, RememError } from '../core/index.ts';

/** Who can reach `remem serve`, worked out from where it listens and the names it was given. */
export interface Reach {
  /** The address to listen on, IPv6 without brackets. */
  listen: string;
  /** True when another machine can connect: an address or name off the loopback, or every interface. */
  beyondLoopback: boolean;
  /**
   * The Host names the token-protected routes answer to: the loopback names, the listen address unless it is
   * every interface, and each allowed name. Lowercase, IPv6 in brackets, as a Host header carries them.
   */
  hosts: string[];
}

function isLoopback(address: string): boolean {
  if (address === 'localhost') return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}

/** A name given to `remem serve` that is not one host: which name it was and as what. */
export class BadHostError extends RememError {
  readonly given: 'listen' | 'allowed';
  readonly value: string;
  constructor(given: 'listen' | 'allowed', value: string) {
    const what = given === 'listen' ? 'the address to listen on' : 'an allowed host name';
    super('bad_host', `${what} must be a host name or an IP address, without scheme or port: ${value}`);
    this.given = given;
    this.value = value;
  }
}

/** A name as a Host header carries it; refuses what is not a bare host name or address. */
function hostName(value: string, given: BadHostError['given']): string {
  const bare = value
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 6) return `[${bare}]`;
  if (isIP(bare) === 4) return bare;
  // RFC 1123 labels; no scheme, port, path or wildcard, so each name is exactly one host.
  if (
    /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(
      bare,
    )
  ) {
    return bare;
  }
  throw new BadHostError(given, value);
}

/**
 * Where `remem serve` listens and which names it answers to. The Host check keeps a page on another site from
 * reaching the token-protected routes through a name it controls (DNS rebinding); an IP address cannot be
 * rebound, so the listen address is always among the names.
 */
export function planReach(options: { host: string; allowHosts?: readonly string[] }): Reach {
  const listen = options.host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  const wildcard = listen === '0.0.0.0' || listen === '::';
  const own = wildcard ? [] : [hostName(listen, 'listen')];
  const allowed = (options.allowHosts ?? []).map((name) => hostName(name, 'allowed'));
  return {
    listen,
    beyondLoopback: wildcard || !isLoopback(listen),
    hosts: [...new Set([...LOOPBACK_NAMES, ...own, ...allowed])],
  };
}

/** What `remem serve` says on stderr about who can reach which routes. */
export function describeReach(reach: Reach): string[] {
  const names = reach.hosts.join(', ');
  const guarded = '/memory/…, /hooks/prime and /mcp with the token';
  if (!reach.beyondLoopback) {
    return [`from this machine only, by ${names}: /health and GET /gossip/… open to read; ${guarded}`];
  }
  return [
    'from any machine that can connect, by any name: GET /gossip/index and GET /gossip/<origin>.jsonl, open to read',
    `by ${names} only: /health open to read; ${guarded}, from any machine that has it ` +
      '(plain HTTP: send the token only over a network you trust)',
  ];
}
