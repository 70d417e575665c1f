/**
 * A server listening beyond loopback without client keys lets anyone who can reach it spend the
 * provider keys it holds: said at start, where an operator looks.
 */

/** Whether `address` (as a listening socket reports it) is a loopback address. */
export function isLoopback(address: string): boolean {
  return /^(?:::ffff:)?127\./.test(address) || address === '::1';
}

/** The warning for a server bound to `address`, or `undefined` when there is nothing to say. */
export function exposureWarning(address: string, hasClientKeys: boolean): string | undefined {
  if (hasClientKeys || isLoopback(address)) return undefined;
  return (
    `listening on ${address} without client keys: anyone who can reach this address can use ` +
    'the configured upstreams and their keys; set server.auth.keysEnv (docs/server.md, Security)'
  );
}
