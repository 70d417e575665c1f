import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `wrk` as the load generator of the throughput bench: a C closed loop that costs a few
 * microseconds of CPU per request where a Node client costs tens, which matters on a machine
 * whose cores the generator shares with the server it loads. Optional: `apt-get install wrk`
 * (Debian, Ubuntu) or `brew install wrk`; without it the bench uses its Node closed loop and says
 * so. It runs under `sh`, whose accounting of waited-for children gives wrk's CPU time.
 */

/** Whether `wrk` is on the PATH. */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // `wrk --version` prints its usage and exits 1: present.
    return (error as { status?: number }).status === 1;
  }
}

/** What one wrk run measured. */
export interface WrkResult {
  /** 2xx answers. */
  readonly answers: number;
  /** Non-2xx answers and socket errors (connect, read, write, timeout). */
  readonly errors: number;
  readonly seconds: number;
  /** CPU microseconds wrk used. */
  readonly cpuUs: number;
}

/**
 * Runs wrk for `seconds` against `url` (POST `body` as JSON) on `connections` keep-alive
 * connections with one thread, pinned to `cpus` (a `taskset` list) when given.
 */
export function runWrk(options: {
  readonly url: string;
  readonly body: string;
  readonly connections: number;
  readonly seconds: number;
  readonly cpus?: string;
}): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'triage-wrk-'));
  const script = join(dir, 'post.lua');
  writeFileSync(
    script,
    [
      'wrk.method = "POST"',
      `wrk.body = [==[${options.body}]==]`,
      'wrk.headers["Content-Type"] = "application/json"',
      'function done(summary, latency, requests)',
      '  local e = summary.errors',
      '  io.write(string.format("RESULT %d %d %d %d\\n", summary.requests, e.status,',
      '    e.connect + e.read + e.write + e.timeout, summary.duration))',
      'end',
    ].join('\n'),
  );
  const wrk = [
    'wrk',
    '-t1',
    '--timeout',
    '30s',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '-s',
    script,
    options.url,
  ];
  const command = options.cpus === undefined ? wrk : ['taskset', '-c', options.cpus, ...wrk];
  // `$$` is the shell: after wrk ends, its stat holds wrk's CPU time among its children's.
  const shell = `${command.map((arg) => `'${arg}'`).join(' ')} && cat /proc/$$/stat`;
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', shell], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`wrk failed: ${stderr || error.message}`));
        return;
      }
      const result = /RESULT (\d+) (\d+) (\d+) (\d+)/.exec(stdout);
      const stat = stdout.trimEnd().split('\n').at(-1)?.split(') ')[1]?.split(' ') ?? [];
      if (!result) {
        reject(new Error(`wrk printed no result: ${stdout}`));
        return;
      }
      const [requests, status, socket, durationUs] = result.slice(1).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      // Fields 16 and 17 of /proc/<pid>/stat (cutime, cstime), in ticks of 10 ms.
      const ticks = Number(stat[13] ?? 0) + Number(stat[14] ?? 0);
      resolve({
        answers: requests - status,
        errors: status + socket,
        seconds: durationUs / 1e6,
        cpuUs: ticks * 10_000,
      });
    });
  });
}
