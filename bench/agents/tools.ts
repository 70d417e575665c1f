/**
 * The 40 tools of the agent-traffic fixture: what a coding and operations agent typically
 * declares on every call (files, shell, git, tests, web, tickets, chat, calendar, mail, cloud,
 * databases), with JSON-schema parameters as agents send them.
 */

/** One tool: name, description and parameter names (all strings, some required). */
interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly params: readonly string[];
}

const SPECS: readonly ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read the contents of a file in the workspace, optionally a range of lines.',
    params: ['path', 'start_line', 'end_line'],
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a file in the workspace with the given content.',
    params: ['path', 'content'],
  },
  {
    name: 'edit_file',
    description: 'Replace an exact snippet of text in a source file with new text.',
    params: ['path', 'old_text', 'new_text'],
  },
  {
    name: 'list_directory',
    description: 'List the files and folders in a directory of the workspace.',
    params: ['path'],
  },
  {
    name: 'search_code',
    description:
      'Search the source code of the repository for a regular expression and return matching lines.',
    params: ['pattern', 'path'],
  },
  {
    name: 'run_shell',
    description: 'Run a shell command in the workspace and return its output and exit code.',
    params: ['command', 'cwd'],
  },
  {
    name: 'run_tests',
    description: 'Run the project test suite, or the tests matching a filter, and report failures.',
    params: ['filter'],
  },
  {
    name: 'run_linter',
    description: 'Run the linter and formatter over the code and report style problems.',
    params: ['path'],
  },
  {
    name: 'git_status',
    description: 'Show the git working tree status: modified, staged and untracked files.',
    params: [],
  },
  {
    name: 'git_diff',
    description: 'Show the git diff of uncommitted changes or between two commits.',
    params: ['ref'],
  },
  {
    name: 'git_commit',
    description: 'Commit the staged changes to git with a commit message.',
    params: ['message'],
  },
  {
    name: 'git_log',
    description: 'Show the recent git commit history of the repository or a file.',
    params: ['path', 'limit'],
  },
  {
    name: 'create_pull_request',
    description:
      'Open a pull request on GitHub from the current branch with a title and description.',
    params: ['title', 'body', 'base'],
  },
  {
    name: 'get_pull_request',
    description: 'Fetch a GitHub pull request: its description, review comments and CI checks.',
    params: ['number'],
  },
  {
    name: 'web_search',
    description: 'Search the web and return the top results with titles, links and snippets.',
    params: ['query'],
  },
  {
    name: 'fetch_url',
    description: 'Download a web page or API response by URL and return its text.',
    params: ['url'],
  },
  {
    name: 'create_ticket',
    description: 'Create a Jira ticket for a bug or task with a summary, description and priority.',
    params: ['summary', 'description', 'priority'],
  },
  {
    name: 'update_ticket',
    description: 'Update the status, assignee or comments of an existing Jira ticket.',
    params: ['key', 'status', 'comment'],
  },
  {
    name: 'search_tickets',
    description: 'Search Jira tickets by text, status, assignee or sprint.',
    params: ['query'],
  },
  {
    name: 'send_slack_message',
    description: 'Post a message to a Slack channel or send a direct message to a colleague.',
    params: ['channel', 'text'],
  },
  {
    name: 'read_slack_channel',
    description: 'Read the latest messages of a Slack channel or thread.',
    params: ['channel', 'limit'],
  },
  {
    name: 'send_email',
    description: 'Send an email to one or more recipients with a subject and body.',
    params: ['to', 'subject', 'body'],
  },
  {
    name: 'search_email',
    description: 'Search the mailbox for emails by sender, subject or text.',
    params: ['query'],
  },
  {
    name: 'create_calendar_event',
    description: 'Schedule a meeting in the calendar with attendees, a start time and a duration.',
    params: ['title', 'start', 'attendees'],
  },
  {
    name: 'list_calendar_events',
    description: 'List upcoming meetings and events in the calendar for a date range.',
    params: ['from', 'to'],
  },
  {
    name: 'query_database',
    description:
      'Run a read-only SQL query against the production replica database and return rows.',
    params: ['sql'],
  },
  {
    name: 'describe_table',
    description: 'Show the columns, types and indexes of a database table.',
    params: ['table'],
  },
  {
    name: 'run_migration',
    description: 'Apply pending database schema migrations to a target environment.',
    params: ['environment'],
  },
  {
    name: 'get_logs',
    description: 'Fetch application logs from the logging service for a service and time window.',
    params: ['service', 'since', 'query'],
  },
  {
    name: 'get_metrics',
    description:
      'Query monitoring metrics (latency, error rate, CPU) of a service from Prometheus.',
    params: ['query', 'range'],
  },
  {
    name: 'list_alerts',
    description: 'List the firing monitoring alerts and incidents from the on-call pager.',
    params: ['service'],
  },
  {
    name: 'deploy_service',
    description: 'Deploy a service version to staging or production with the deployment pipeline.',
    params: ['service', 'version', 'environment'],
  },
  {
    name: 'rollback_deployment',
    description: 'Roll a service back to its previous deployed version.',
    params: ['service', 'environment'],
  },
  {
    name: 'list_pods',
    description: 'List the Kubernetes pods of a namespace with their status and restarts.',
    params: ['namespace'],
  },
  {
    name: 'scale_deployment',
    description: 'Change the number of replicas of a Kubernetes deployment.',
    params: ['deployment', 'replicas'],
  },
  {
    name: 'get_secret',
    description: 'Read a secret value (API key, password, token) from the vault.',
    params: ['name'],
  },
  {
    name: 'translate_text',
    description: 'Translate text between languages.',
    params: ['text', 'target_language'],
  },
  {
    name: 'summarize_document',
    description: 'Summarize a long document, PDF or meeting transcript into key points.',
    params: ['url'],
  },
  {
    name: 'generate_image',
    description: 'Generate an image or diagram from a text prompt.',
    params: ['prompt'],
  },
  {
    name: 'get_weather',
    description: 'Get the current weather and forecast for a city.',
    params: ['city'],
  },
];

/** The tools as an OpenAI `tools` array. */
export const AGENT_TOOLS: readonly Record<string, unknown>[] = SPECS.map((spec) => ({
  type: 'function',
  function: {
    name: spec.name,
    description: spec.description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        spec.params.map((param) => [
          param,
          { type: 'string', description: `The ${param.replace(/_/g, ' ')}.` },
        ]),
      ),
      required: spec.params.slice(0, 1),
      additionalProperties: false,
    },
  },
}));

/** The tool names, in declaration order. */
export const AGENT_TOOL_NAMES: readonly string[] = SPECS.map((spec) => spec.name);
