import { AGENT_TOOLS } from './tools.js';

/**
 * The agent-traffic fixture, written for triage: a deterministic generator of multi-step tool-use
 * conversations an agent sends through a gateway (every request carries the 40 tools of
 * `tools.ts`), replayed request by request as the agent would: after the user's message, and after
 * each batch of tool results. Scenarios cover coding, operations, tickets, chat, mail, calendar,
 * data and research tasks, some with failing tools, error streaks and doom loops, some with
 * several user turns. The same seed gives the same traffic.
 */

/** One tool call of a scenario and what the tool answered. */
interface Step {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly result: string;
}

/** One user turn: the question, the agent's tool steps, its final answer. */
interface Turn {
  readonly user: string;
  readonly steps: readonly Step[];
  readonly answer: string;
}

/** A conversation of the fixture. */
export interface AgentConversation {
  readonly id: string;
  /** The requests the agent sends, in order (each a full OpenAI chat body). */
  readonly requests: readonly Record<string, unknown>[];
}

const SYSTEM =
  'You are a senior engineering assistant working in the acme/platform repository. Use the tools ' +
  'to inspect and change code, operate services and talk to the team. Prefer small verified ' +
  'steps, run the tests before committing, and never print secrets.';

/** A small seeded generator (mulberry32): the fixture must not change between runs. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Pick = <T>(items: readonly T[]) => T;

const SERVICES = ['payments', 'checkout', 'search', 'auth', 'notifications', 'billing'];
const MODULES = ['parser', 'scheduler', 'cache', 'router', 'exporter', 'importer'];
const PEOPLE = ['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Farah'];
const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Osaka', 'Lima'];

const fail = (message: string) => `Error: ${message}`;

/** The scenarios: each builds its turns from the random picks. */
const SCENARIOS: readonly ((pick: Pick, n: () => number) => Turn[])[] = [
  (pick) => {
    const mod = pick(MODULES);
    return [
      {
        user: `The tests for the ${mod} module started failing after yesterday's merge. Find out why, fix it and commit.`,
        steps: [
          {
            tool: 'run_tests',
            args: { filter: mod },
            result: `FAIL src/${mod}/${mod}.test.ts\n  expected 3 entries, got 2\n1 failed, 41 passed`,
          },
          {
            tool: 'git_log',
            args: { path: `src/${mod}`, limit: '5' },
            result: `a1b2c3 ${mod}: drop empty entries\n9f8e7d ${mod}: faster path`,
          },
          {
            tool: 'read_file',
            args: { path: `src/${mod}/index.ts` },
            result: `export function ${mod}(input: string[]) {\n  return input.filter((x) => x.trim() !== '');\n}`,
          },
          {
            tool: 'edit_file',
            args: {
              path: `src/${mod}/index.ts`,
              old_text: "x.trim() !== ''",
              new_text: 'x !== undefined',
            },
            result: 'edited 1 occurrence',
          },
          { tool: 'run_tests', args: { filter: mod }, result: 'PASS 42 passed' },
          {
            tool: 'git_commit',
            args: { message: `${mod}: keep blank entries (fixes the regression)` },
            result: '[main 4d5e6f] committed 1 file',
          },
        ],
        answer: `The regression came from a1b2c3, which dropped blank entries; I restored them and the ${mod} tests pass. Committed as 4d5e6f.`,
      },
    ];
  },
  (pick) => {
    const svc = pick(SERVICES);
    return [
      {
        user: `Error rate on ${svc} jumped after the last deploy. Check the metrics and logs and roll back production if it's the release.`,
        steps: [
          {
            tool: 'get_metrics',
            args: { query: `rate(http_errors_total{service="${svc}"}[5m])`, range: '1h' },
            result: 'error rate 0.2% -> 7.9% at 14:02',
          },
          {
            tool: 'get_logs',
            args: { service: svc, since: '30m', query: 'level:error' },
            result: 'TypeError: cannot read properties of undefined (reading currency) x 1,204',
          },
          {
            tool: 'rollback_deployment',
            args: { service: svc, environment: 'production' },
            result: `rolled back ${svc} to v2.14.3`,
          },
          {
            tool: 'get_metrics',
            args: { query: `rate(http_errors_total{service="${svc}"}[5m])`, range: '15m' },
            result: 'error rate 0.2%',
          },
        ],
        answer: `The release broke currency handling; ${svc} is rolled back to v2.14.3 and errors are back to 0.2%.`,
      },
      {
        user: 'Thanks. Open a ticket for the bug and tell the team in #incidents.',
        steps: [
          {
            tool: 'create_ticket',
            args: { summary: `${svc}: undefined currency after v2.15.0`, priority: 'High' },
            result: 'created PLAT-4312',
          },
          {
            tool: 'send_slack_message',
            args: { channel: '#incidents', text: `${svc} rolled back to v2.14.3, see PLAT-4312` },
            result: 'sent',
          },
        ],
        answer: 'Ticket PLAT-4312 is open and #incidents is informed.',
      },
    ];
  },
  (pick) => {
    const a = pick(PEOPLE);
    const b = pick(PEOPLE);
    return [
      {
        user: `Set up a 30 minute meeting with ${a} and ${b} next Tuesday morning to review the Q3 roadmap.`,
        steps: [
          {
            tool: 'list_calendar_events',
            args: { from: 'next Tuesday 08:00', to: 'next Tuesday 12:00' },
            result: '09:00-10:00 Standup; 11:00-11:30 1:1',
          },
          {
            tool: 'create_calendar_event',
            args: {
              title: 'Q3 roadmap review',
              start: 'next Tuesday 10:00',
              attendees: `${a},${b}`,
            },
            result: 'event created',
          },
        ],
        answer: `Booked Tuesday 10:00-10:30 with ${a} and ${b}.`,
      },
    ];
  },
  (pick) => {
    const svc = pick(SERVICES);
    return [
      {
        user: `Deploy ${svc} v3.1.0 to staging and run the smoke tests.`,
        steps: [
          {
            tool: 'deploy_service',
            args: { service: svc, version: 'v3.1.0', environment: 'staging' },
            result: fail('image registry timeout after 30s'),
          },
          {
            tool: 'deploy_service',
            args: { service: svc, version: 'v3.1.0', environment: 'staging' },
            result: fail('image registry timeout after 30s'),
          },
          {
            tool: 'deploy_service',
            args: { service: svc, version: 'v3.1.0', environment: 'staging' },
            result: fail('image registry timeout after 31s'),
          },
          {
            tool: 'deploy_service',
            args: { service: svc, version: 'v3.1.0', environment: 'staging' },
            result: fail('image registry timeout after 30s'),
          },
          {
            tool: 'list_alerts',
            args: { service: 'registry' },
            result: 'FIRING: registry-storage-full since 13:40',
          },
        ],
        answer:
          'The deploy cannot pull the image: the registry storage is full (alert firing). I stopped retrying.',
      },
    ];
  },
  (pick) => {
    const mod = pick(MODULES);
    const loop: Step[] = [];
    for (let i = 0; i < 4; i++) {
      loop.push(
        {
          tool: 'read_file',
          args: { path: `src/${mod}/config.ts` },
          result: 'export const LIMIT = 10;',
        },
        {
          tool: 'run_tests',
          args: { filter: `${mod} limits` },
          result: 'FAIL expected LIMIT to be 20',
        },
      );
    }
    return [
      {
        user: `Why does the ${mod} limits test fail? Make it pass.`,
        steps: [
          ...loop,
          {
            tool: 'edit_file',
            args: { path: `src/${mod}/config.ts`, old_text: 'LIMIT = 10', new_text: 'LIMIT = 20' },
            result: 'edited',
          },
        ],
        answer: 'The test expects a limit of 20; I raised LIMIT.',
      },
    ];
  },
  () => [
    {
      user: 'How many orders were refunded last week, by country? Use the replica.',
      steps: [
        {
          tool: 'describe_table',
          args: { table: 'orders' },
          result: 'id bigint, country char(2), status text, refunded_at timestamptz',
        },
        {
          tool: 'query_database',
          args: {
            sql: "select country, count(*) from orders where refunded_at > now() - interval '7 days' group by 1",
          },
          result: 'PT 41\nDE 37\nKE 12\nJP 9',
        },
      ],
      answer: 'Refunds last week: PT 41, DE 37, KE 12, JP 9.',
    },
  ],
  (pick) => {
    const city = pick(CITIES);
    return [
      {
        user: `What's the weather in ${city} this weekend? I'm flying there Friday.`,
        steps: [
          { tool: 'get_weather', args: { city }, result: 'Sat 21°C sunny; Sun 18°C showers' },
        ],
        answer: 'Saturday sunny at 21°C, Sunday showers at 18°C.',
      },
    ];
  },
  () => [
    {
      user: 'Find the latest guidance on HTTP/3 connection migration and summarize it for the team wiki.',
      steps: [
        {
          tool: 'web_search',
          args: { query: 'HTTP/3 QUIC connection migration best practices' },
          result: '1. RFC 9000 §9 ... 2. Cloudflare blog ... 3. IETF draft ...',
        },
        {
          tool: 'fetch_url',
          args: { url: 'https://www.rfc-editor.org/rfc/rfc9000#section-9' },
          result: 'Connection migration allows an endpoint to ... (12 KB of text)',
        },
        {
          tool: 'summarize_document',
          args: { url: 'https://www.rfc-editor.org/rfc/rfc9000#section-9' },
          result:
            '- migration is initiated by the client\n- path validation first\n- disable_active_migration',
        },
      ],
      answer:
        'Summary: clients initiate migration, paths are validated first, servers can disable it.',
    },
  ],
  (pick) => {
    const mod = pick(MODULES);
    return [
      {
        user: `Rename the ${mod}Options type to ${mod}Settings everywhere, run the linter and open a PR.`,
        steps: [
          {
            tool: 'search_code',
            args: { pattern: `${mod}Options`, path: 'src' },
            result: `src/${mod}/index.ts:3\nsrc/${mod}/types.ts:10\nsrc/cli/run.ts:44`,
          },
          {
            tool: 'edit_file',
            args: {
              path: `src/${mod}/types.ts`,
              old_text: `${mod}Options`,
              new_text: `${mod}Settings`,
            },
            result: 'edited',
          },
          {
            tool: 'edit_file',
            args: {
              path: `src/${mod}/index.ts`,
              old_text: `${mod}Options`,
              new_text: `${mod}Settings`,
            },
            result: 'edited',
          },
          {
            tool: 'edit_file',
            args: { path: 'src/cli/run.ts', old_text: `${mod}Options`, new_text: `${mod}Settings` },
            result: 'edited',
          },
          { tool: 'run_linter', args: { path: 'src' }, result: 'no problems' },
          {
            tool: 'git_diff',
            args: {},
            result: '3 files changed, 6 insertions(+), 6 deletions(-)',
          },
          {
            tool: 'git_commit',
            args: { message: `rename ${mod}Options to ${mod}Settings` },
            result: 'committed',
          },
          {
            tool: 'create_pull_request',
            args: { title: `Rename ${mod}Options`, body: 'Mechanical rename.', base: 'main' },
            result: 'opened #982',
          },
        ],
        answer: 'Renamed in 3 files, lint clean, PR #982 is open.',
      },
    ];
  },
  (pick) => {
    const who = pick(PEOPLE);
    return [
      {
        user: `Did ${who} reply about the vendor contract? If so, forward the gist to #legal.`,
        steps: [
          {
            tool: 'search_email',
            args: { query: `from:${who} contract` },
            result: `1 result: "Re: vendor contract" — ${who}: clause 7 needs a cap on liability.`,
          },
          {
            tool: 'send_slack_message',
            args: {
              channel: '#legal',
              text: `${who} on the vendor contract: clause 7 needs a liability cap.`,
            },
            result: 'sent',
          },
        ],
        answer: `${who} replied: clause 7 needs a liability cap. Forwarded to #legal.`,
      },
    ];
  },
  (pick) => {
    const svc = pick(SERVICES);
    return [
      {
        user: `The ${svc} pods keep restarting in prod. What's going on?`,
        steps: [
          {
            tool: 'list_pods',
            args: { namespace: svc },
            result: `${svc}-7d9c 0/1 CrashLoopBackOff restarts 14`,
          },
          {
            tool: 'get_logs',
            args: { service: svc, since: '10m' },
            result: 'FATAL: DATABASE_URL is not set',
          },
          {
            tool: 'run_shell',
            args: { command: `kubectl -n ${svc} get configmap ${svc}-env -o yaml` },
            result: 'data:\n  LOG_LEVEL: info',
          },
        ],
        answer: 'The pods crash because DATABASE_URL was removed from the configmap.',
      },
      {
        user: 'Scale it to zero until the config is fixed, and page nobody.',
        steps: [
          {
            tool: 'scale_deployment',
            args: { deployment: svc, replicas: '0' },
            result: 'scaled to 0',
          },
        ],
        answer: `${svc} is scaled to 0.`,
      },
    ];
  },
  () => [
    {
      user: 'Translate the release notes in docs/release.md into German and save them as docs/release.de.md.',
      steps: [
        {
          tool: 'read_file',
          args: { path: 'docs/release.md' },
          result: '# 4.2\n- Faster search\n- New export formats',
        },
        {
          tool: 'translate_text',
          args: { text: '# 4.2\n- Faster search\n- New export formats', target_language: 'de' },
          result: '# 4.2\n- Schnellere Suche\n- Neue Exportformate',
        },
        {
          tool: 'write_file',
          args: {
            path: 'docs/release.de.md',
            content: '# 4.2\n- Schnellere Suche\n- Neue Exportformate',
          },
          result: 'written',
        },
      ],
      answer: 'Saved docs/release.de.md.',
    },
  ],
  () => [
    {
      user: 'Which Jira tickets are still open in the current sprint for the platform team? Move the done ones to Done.',
      steps: [
        {
          tool: 'search_tickets',
          args: { query: 'sprint in openSprints() and team = platform and status != Done' },
          result: 'PLAT-4201 In Review; PLAT-4207 In Progress; PLAT-4219 Merged',
        },
        { tool: 'update_ticket', args: { key: 'PLAT-4219', status: 'Done' }, result: 'updated' },
      ],
      answer: 'Open: PLAT-4201 (review), PLAT-4207 (in progress). PLAT-4219 moved to Done.',
    },
  ],
  (pick) => {
    const mod = pick(MODULES);
    return [
      {
        user: `Add a --dry-run flag to the ${mod} CLI command.`,
        steps: [
          {
            tool: 'list_directory',
            args: { path: 'src/cli' },
            result: `run.ts\n${mod}.ts\nindex.ts`,
          },
          {
            tool: 'read_file',
            args: { path: `src/cli/${mod}.ts` },
            result: 'program.command(...).option("--force")',
          },
          {
            tool: 'edit_file',
            args: {
              path: `src/cli/${mod}.ts`,
              old_text: '.option("--force")',
              new_text: '.option("--force").option("--dry-run")',
            },
            result: 'edited',
          },
          {
            tool: 'run_tests',
            args: { filter: 'cli' },
            result: fail(
              'TS2345: Argument of type string is not assignable to parameter of type Options',
            ),
          },
          {
            tool: 'read_file',
            args: { path: 'src/cli/options.ts' },
            result: 'export interface Options { force: boolean }',
          },
          {
            tool: 'edit_file',
            args: {
              path: 'src/cli/options.ts',
              old_text: 'force: boolean',
              new_text: 'force: boolean; dryRun: boolean',
            },
            result: 'edited',
          },
          { tool: 'run_tests', args: { filter: 'cli' }, result: 'PASS 18 passed' },
        ],
        answer: '--dry-run is added and the CLI tests pass.',
      },
      {
        user: 'Commit it.',
        steps: [
          { tool: 'git_status', args: {}, result: 'M src/cli/options.ts\nM src/cli/x.ts' },
          { tool: 'git_commit', args: { message: 'cli: --dry-run' }, result: 'committed' },
        ],
        answer: 'Committed.',
      },
    ];
  },
  () => [
    {
      user: 'Apply the pending migrations on staging, then check that the new column exists.',
      steps: [
        { tool: 'run_migration', args: { environment: 'staging' }, result: 'applied 2 migrations' },
        {
          tool: 'describe_table',
          args: { table: 'invoices' },
          result: 'id, customer_id, total, currency, due_at',
        },
      ],
      answer: 'Both migrations are applied; invoices.due_at exists.',
    },
  ],
  () => [
    {
      user: 'Draw a simple architecture diagram of the checkout flow for the onboarding doc.',
      steps: [
        {
          tool: 'generate_image',
          args: {
            prompt: 'architecture diagram: web -> api gateway -> checkout -> payments, inventory',
          },
          result: 'image: https://img.acme.dev/d/8812.png',
        },
      ],
      answer: 'Here it is: https://img.acme.dev/d/8812.png',
    },
  ],
  (pick) => {
    const svc = pick(SERVICES);
    return [
      {
        user: `Check PR #977 for ${svc}: are the CI checks green and what did reviewers say?`,
        steps: [
          {
            tool: 'get_pull_request',
            args: { number: '977' },
            result: 'checks: 11/12 passed (e2e failed); review: "please add a test for retries"',
          },
        ],
        answer: 'One check (e2e) failed, and the reviewer asks for a retry test.',
      },
      {
        user: 'Look at the e2e failure in the logs.',
        steps: [
          {
            tool: 'get_logs',
            args: { service: 'ci', since: '2h', query: 'PR-977 e2e' },
            result: 'timeout waiting for checkout page after 30000ms',
          },
        ],
        answer: 'The e2e test timed out waiting for the checkout page.',
      },
    ];
  },
  () => [
    {
      user: 'Read the last 50 messages in #platform-oncall and tell me whether anything needs me.',
      steps: [
        {
          tool: 'read_slack_channel',
          args: { channel: '#platform-oncall', limit: '50' },
          result:
            'Dara: can someone approve the DNS change? (3 replies)\nEli: search latency alert resolved',
        },
      ],
      answer: 'Dara needs an approval for the DNS change; the search latency alert is resolved.',
    },
  ],
  (pick) => {
    const svc = pick(SERVICES);
    return [
      {
        user: `Rotate the ${svc} API key: generate a new one, store it, and restart the service.`,
        steps: [
          {
            tool: 'get_secret',
            args: { name: `${svc}/api-key` },
            result: 'secret metadata: created 2025-01-10, version 4',
          },
          {
            tool: 'run_shell',
            args: { command: `vault kv put secret/${svc}/api-key value=$(openssl rand -hex 32)` },
            result: 'version 5 written',
          },
          {
            tool: 'scale_deployment',
            args: { deployment: svc, replicas: '0' },
            result: 'scaled to 0',
          },
          {
            tool: 'scale_deployment',
            args: { deployment: svc, replicas: '3' },
            result: 'scaled to 3',
          },
        ],
        answer: `The ${svc} key is rotated (version 5) and the service restarted.`,
      },
    ];
  },
  () => {
    const steps: Step[] = [];
    for (let i = 0; i < 5; i++) {
      steps.push({
        tool: 'run_shell',
        args: { command: 'npm ci' },
        result: fail(
          `EACCES: permission denied, mkdir '/usr/lib/node_modules/.cache' (attempt ${i + 1})`,
        ),
      });
    }
    return [
      {
        user: 'Install the dependencies and build the project.',
        steps,
        answer: 'npm cannot write its cache: a permissions problem on the machine.',
      },
    ];
  },
  (pick) => {
    const who = pick(PEOPLE);
    return [
      {
        user: `Email ${who} the summary of yesterday's incident review, and put a follow-up in the calendar for Friday.`,
        steps: [
          {
            tool: 'search_email',
            args: { query: 'incident review notes yesterday' },
            result:
              '"Incident review 14/11": root cause: expired cert; actions: alerting on expiry',
          },
          {
            tool: 'send_email',
            args: {
              to: who,
              subject: 'Incident review summary',
              body: 'Root cause: expired certificate. Action: alert on expiry.',
            },
            result: 'sent',
          },
          {
            tool: 'create_calendar_event',
            args: { title: 'Incident follow-up', start: 'Friday 15:00', attendees: who },
            result: 'created',
          },
        ],
        answer: `Sent to ${who}, follow-up on Friday at 15:00.`,
      },
    ];
  },
  (pick) => {
    const mod = pick(MODULES);
    return [
      {
        user: `Profile why the ${mod} benchmark got 30% slower since last week.`,
        steps: [
          {
            tool: 'git_log',
            args: { path: `src/${mod}`, limit: '10' },
            result: 'e1 perf: cache keys; e2 deps: bump lru',
          },
          {
            tool: 'run_shell',
            args: { command: `npm run bench -- ${mod}` },
            result: `${mod}: 41.2 ms (was 31.0 ms)`,
          },
          { tool: 'git_diff', args: { ref: 'e2~1..e2' }, result: 'lru 10.1 -> 11.0' },
          {
            tool: 'run_shell',
            args: { command: `git stash && git checkout e2~1 && npm run bench -- ${mod}` },
            result: `${mod}: 30.8 ms`,
          },
        ],
        answer: 'The slowdown came with the lru upgrade in e2.',
      },
    ];
  },
  () => [
    {
      user: 'Which alerts are firing right now and is anything in production degraded?',
      steps: [
        { tool: 'list_alerts', args: {}, result: 'FIRING: search-p99-latency (warning)' },
        {
          tool: 'get_metrics',
          args: { query: 'histogram_quantile(0.99, search_latency_seconds)', range: '1h' },
          result: 'p99 820 ms (SLO 500 ms)',
        },
      ],
      answer: 'Only search p99 latency is degraded: 820 ms against an SLO of 500 ms.',
    },
  ],
  () => [
    {
      user: 'Write a README section about the new export formats, based on the code.',
      steps: [
        {
          tool: 'search_code',
          args: { pattern: 'registerExporter\\(', path: 'src' },
          result: "csv.ts: registerExporter('csv')\nparquet.ts: registerExporter('parquet')",
        },
        {
          tool: 'read_file',
          args: { path: 'README.md', start_line: '1', end_line: '40' },
          result: '# platform\n...\n## Import',
        },
        {
          tool: 'edit_file',
          args: {
            path: 'README.md',
            old_text: '## Import',
            new_text: '## Export\nCSV and Parquet.\n\n## Import',
          },
          result: 'edited',
        },
      ],
      answer: 'Added an Export section listing CSV and Parquet.',
    },
  ],
];

const FOLLOW_UP: Turn = {
  user: 'Thanks. Is there anything else I should know about it?',
  steps: [],
  answer: 'Nothing else stands out.',
};

/** How many conversations the fixture has by default. */
export const DEFAULT_CONVERSATIONS = 24;

/**
 * The fixture: `count` conversations (scenarios in turn, varied by the seed), each replayed as
 * the requests its agent sends.
 */
export function agentTraffic(count = DEFAULT_CONVERSATIONS, seed = 20): AgentConversation[] {
  const rand = random(seed);
  const pick: Pick = (items) => items[Math.floor(rand() * items.length)]!;
  const conversations: AgentConversation[] = [];
  for (let c = 0; c < count; c++) {
    const turns = SCENARIOS[c % SCENARIOS.length]!(pick, rand);
    // A short task gets the follow-up question users ask: every conversation reaches 5 messages.
    if (turns.length === 1 && turns[0]!.steps.length < 2) turns.push(FOLLOW_UP);
    conversations.push({ id: `conv-${c}`, requests: requestsOf(turns, c) });
  }
  return conversations;
}

/** The requests of one conversation: one before each model response. */
function requestsOf(turns: readonly Turn[], conversation: number): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: SYSTEM }];
  const requests: Record<string, unknown>[] = [];
  const send = () =>
    requests.push({
      model: 'auto',
      messages: [...messages],
      tools: AGENT_TOOLS,
      tool_choice: 'auto',
    });
  let call = 0;
  for (const turn of turns) {
    messages.push({ role: 'user', content: turn.user });
    send();
    for (const step of turn.steps) {
      const id = `call_${conversation}_${call++}`;
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id,
            type: 'function',
            function: { name: step.tool, arguments: JSON.stringify(step.args) },
          },
        ],
      });
      messages.push({ role: 'tool', tool_call_id: id, content: step.result });
      send();
    }
    messages.push({ role: 'assistant', content: turn.answer });
  }
  return requests;
}
