import { describe, expect, it } from 'vitest';
import { createTriageServer } from './app.js';
import { parseServerConfig } from './config.js';
import { exposureWarning, isLoopback } from './exposure.js';
import { logCapture, testTierRouter } from './server.test-helpers.js';

/** The warnings a server logs when it starts listening on `host`. */
async function warningsListeningOn(host: string, env: Record<string, string> = {}) {
  const logs = logCapture();
  const server = createTriageServer({
    config: parseServerConfig(env.KEYS ? { server: { auth: { keysEnv: 'KEYS' } } } : {}, { env }),
    env,
    tiers: testTierRouter(),
    logDestination: logs.stream,
    processMetrics: false,
  });
  await server.listen({ host, port: 0 });
  await server.close();
  return logs.lines.map((line) => JSON.parse(line)).filter((line) => line.level === 40);
}

describe('listening beyond loopback', () => {
  it('warns when the server is reachable from other machines without client keys', async () => {
    const warnings = await warningsListeningOn('0.0.0.0');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('without client keys');
    expect(warnings[0].msg).toContain('server.auth.keysEnv');
  });

  it('says nothing on loopback, or with client keys', async () => {
    expect(await warningsListeningOn('127.0.0.1')).toEqual([]);
    expect(await warningsListeningOn('0.0.0.0', { KEYS: 'a-client-key-1234' })).toEqual([]);
  });

  it('knows loopback addresses', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopback(address)).toBe(true);
    }
    for (const address of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'fe80::1']) {
      expect(isLoopback(address)).toBe(false);
    }
    expect(exposureWarning('127.0.0.1', false)).toBeUndefined();
  });
});
