/**
 * `npm run check:blocks`: a release check of every view builder against Slack's contract.
 *
 * Always: renders the hostile fixtures of test/helpers/hostile-views.ts and prints the offline check of
 * test/slack/slack-contract.test.ts (src/slack/limits.ts and the Slack fake's validator).
 * With SLACK_VALIDATE_TOKEN (or SLACK_BOT_TOKEN) set: also sends each payload to Slack's `blocks.validate`
 * (docs.slack.dev/reference/methods/blocks.validate: no scopes, "special rate limits") and prints what
 * Slack refuses, by builder and JSON pointer. Without a token it never reaches the network.
 * Sends one fixture of each kind (about 200 calls, paced); `--all` sends every fixture.
 * Exits 1 when anything is refused. Never part of the test suite.
 */
import { WebClient } from '@slack/web-api';
import { renderAll, variants } from '../test/helpers/hostile-views.js';
import { contractProblems, type Payload } from '../test/helpers/slack-contract.js';

const token = process.env.SLACK_VALIDATE_TOKEN || process.env.SLACK_BOT_TOKEN || '';
const all = process.argv.includes('--all');
const PACE_MS = 1_000;

const every = variants();
let refused = 0;
let checked = 0;
for (const v of every) {
  for (const r of renderAll(v)) {
    checked++;
    for (const p of contractProblems(r.payload)) {
      refused++;
      console.log(`offline  ${r.name} [${v.label}] ${p}`);
    }
  }
}
console.log(`offline: ${checked} payloads from ${every.length} fixtures, ${refused} problems`);

async function online(client: WebClient): Promise<number> {
  // One fixture of each kind (emoji, entities, graphemes, words), or all of them.
  const chosen = all ? every : every.filter((v, i) => i === 0 || every[i - 1]!.label.split('+')[0] !== v.label.split('+')[0]);
  let bad = 0;
  for (const v of chosen) {
    for (const r of renderAll(v)) {
      const args = argsOf(r.payload);
      try {
        await client.blocks.validate(args);
      } catch (err) {
        bad++;
        const data = (err as { data?: { error?: string; errors?: unknown } }).data;
        console.log(`slack    ${r.name} [${v.label}] ${data?.error ?? (err as Error).message} ${JSON.stringify(data?.errors ?? [])}`);
      }
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
  }
  console.log(`slack: ${chosen.length} fixtures checked by blocks.validate, ${bad} refused`);
  return bad;
}

function argsOf(p: Payload): Parameters<WebClient['blocks']['validate']>[0] {
  if (p.surface === 'message') return { message: { blocks: p.blocks as never } };
  return { view: p.view as never };
}

if (!token) {
  console.log('No SLACK_VALIDATE_TOKEN or SLACK_BOT_TOKEN: Slack not asked (offline check only).');
  process.exit(refused ? 1 : 0);
} else {
  const client = new WebClient(token, {
    retryConfig: { retries: 2 },
    timeout: 10_000,
    ...(process.env.SLACK_API_URL ? { slackApiUrl: process.env.SLACK_API_URL } : {}),
  });
  const bad = await online(client);
  process.exit(refused || bad ? 1 : 0);
}
