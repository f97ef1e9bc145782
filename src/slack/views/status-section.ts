/** The admins' "Status" section of the Home tab: a fixed, small number of blocks whatever the numbers. */
import type { DeliveryRecipient, FailedDeliveryRow, StatusReport } from '../../services/admin/status.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { button, context, header, section, type Block } from './blocks.js';
import { describeSummarySchedule } from './summary-setting.js';
import { linesWithin } from './team-section.js';
import { cut } from '../cut.js';

/** "just now", "12 s ago", "4 min ago", "3 h ago", "2 days ago". */
export function ago(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 2) return 'just now';
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** "45 s", "4 min", "3 h": how far behind. */
function span(ms: number): string {
  return ago(ms).replace(/ ago$/, '').replace('just now', 'under 2 s');
}

const KINDS: Record<string, string> = {
  completion: 'Completion notice',
  assignment: 'Assignment DM',
  creator: 'Completion DM to its creator',
  urgent: 'Urgent alert',
  digest: 'Digest',
  'digest-part': 'Digest thread part',
  summary: 'Morning summary',
};

function recipientText(r: DeliveryRecipient): string {
  if (r.type === 'user') return `<@${r.id}>`;
  if (r.type === 'channel') return `<#${r.id}>`;
  if (r.type === 'address') return 'a notification address';
  return 'someone';
}

function careField(c: StatusReport['care']): string {
  const lines = ['*Care API*'];
  lines.push(c.lastAnswerAgoMs === null ? 'no answer yet since start' : `:white_check_mark: last answered ${ago(c.lastAnswerAgoMs)}`);
  if (c.lastTrouble) lines.push(`:warning: last error: ${userText(c.lastTrouble.error, 120)}, ${ago(c.lastTrouble.agoMs)}`);
  else lines.push('no errors since start');
  if (c.rateLimit) lines.push(`headroom: ${c.rateLimit.remaining} of ${c.rateLimit.limit} requests/s left (${ago(c.rateLimit.agoMs)})`);
  return lines.join('\n');
}

/**
 * The poll's last run, then: on time, when the care system last changed (a quiet night is no lag);
 * late (no good run for a few intervals), how long since one and how far behind it is.
 * Times are Slack date tokens, in each reader's own zone (`tz`: the fallback's).
 */
function pollField(p: StatusReport['poll'], tz: string): string {
  const lines = [`*Changes poll* (every ${p.everySeconds} s)`];
  const r = p.lastRun;
  const counts = r ? `${r.requests} request${r.requests === 1 ? '' : 's'}, ${r.seen} changed` : '';
  if (!r) lines.push('not run yet since the store was made');
  else if (r.ok && !p.late) lines.push(`:white_check_mark: last run ${ago(r.agoMs)}: ${counts}`);
  else if (r.ok) lines.push(`:warning: late: last run ${ago(r.agoMs)}: ${counts}`);
  else {
    lines.push(`:warning: last run failed ${ago(r.agoMs)}: ${userText(r.error ?? 'unknown error', 200)}`);
    if (p.late) lines.push(`:warning: late: ${p.lastOkAgoMs === null ? 'no good run yet' : `last good run ${ago(p.lastOkAgoMs)}`}`);
  }
  if (p.late) {
    if (p.lagMs !== null) lines.push(`lag: ${span(p.lagMs)} since the newest change seen`);
  } else if (p.newestChange) lines.push(`no changes since ${slackDate(p.newestChange, tz, '{date_short_pretty} at {time}')}`);
  return lines.join('\n');
}

function deliveriesField(d: StatusReport['deliveries']): string {
  const failed = d.failed ? `:x: *${d.failed}* failed` : '0 failed';
  return `*Deliveries, last ${d.windowHours} h*\n${d.sent} sent · ${d.pending} pending · ${failed}`;
}

function failedRow(r: FailedDeliveryRow): Block {
  const text = `:x: ${KINDS[r.kind] ?? userText(r.kind, 40)} to ${recipientText(r.recipient)}: ${userText(r.reason, 400)}`;
  return section(text, {
    block_id: BlockIds.statusFailed(r.id),
    ...(r.retry ? { accessory: button('Retry', ActionIds.retryDelivery, String(r.id)) } : {}),
  });
}

function digestLine(d: StatusReport['digests'][number]): string {
  const last = d.last ? `last ${slackDate(d.last, d.timezone)}` : 'not posted yet';
  return `<#${d.channelId}> ${describeSummarySchedule(d)}: ${last}, next ${d.next ? slackDate(d.next, d.timezone) : 'none'}`;
}

/** The Status section: connection, poll, deliveries (failed ones with their reason and Retry), digests, version. */
export function statusSectionBlocks(report: StatusReport, timezone: string): Block[] {
  const blocks: Block[] = [
    header('Status'),
    {
      type: 'section',
      fields: [careField(report.care), pollField(report.poll, timezone), deliveriesField(report.deliveries), `*Version*\n${userText(report.version, 60)}`].map(
        (text) => ({
          type: 'mrkdwn' as const,
          text: cut(text, 2000),
        }),
      ),
    },
  ];
  const d = report.deliveries;
  for (const r of d.rows) blocks.push(failedRow(r));
  if (d.failed > d.rows.length) blocks.push(context(`…and ${d.failed - d.rows.length} more failed in the last ${d.windowHours} h (newest shown).`));
  if (report.digests.length) {
    blocks.push(section(linesWithin('*Digests*', report.digests.map(digestLine), (n) => `…and ${n} more: \`/care digest list\`.`)));
  }
  return blocks;
}
