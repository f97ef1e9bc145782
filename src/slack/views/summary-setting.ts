import type { types } from '@slack/bolt';
import type { SummaryStatus } from '../../services/summary-settings.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds, FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { actions, button, plainText, section, type Block } from './blocks.js';

type Days = 'weekdays' | 'daily';

/** "07:30 on weekdays (Europe/London)", "07:30 every day (America/New_York)". */
export function describeSummarySchedule(s: { time: string; days: Days; timezone: string }): string {
  return `${s.time} ${s.days === 'daily' ? 'every day' : 'on weekdays'} (${s.timezone})`;
}

const WHAT = 'a DM with your overdue, due-today and urgent actions';

/** The answer to `/care summary` (and after a change): the setting, and when the next one comes. */
export function summaryStatusText(status: SummaryStatus, changed = false): string {
  const s = status.setting;
  if (!s?.enabled) {
    return `${s ? 'Your morning summary is off.' : 'You have no morning summary.'} \`/care summary 07:30\` sends you ${WHAT} every day at 07:30 your time (\`weekdays\` for Monday to Friday only).`;
  }
  const schedule = describeSummarySchedule({ time: s.time, days: s.days, timezone: status.timezone });
  const next = status.next ? ` Next: ${slackDate(status.next, status.timezone)}.` : '';
  return `${changed ? ':white_check_mark: Morning summary on' : 'Your morning summary'}: ${schedule}, ${WHAT}.${next} It follows your Slack time zone. \`/care summary off\` stops it.`;
}

/** The Home tab's summary row: the setting with Change / Turn off, or Turn on. */
export function summaryHomeBlocks(status: SummaryStatus): Block[] {
  const s = status.setting;
  if (!s?.enabled) {
    return [
      section(`:sunrise: *Morning summary:* off. Get ${WHAT} at a time you choose.`),
      actions(BlockIds.homeSummary, [button('Turn on', ActionIds.summaryChange, 'on')]),
    ];
  }
  return [
    section(`:sunrise: *Morning summary:* ${describeSummarySchedule({ time: s.time, days: s.days, timezone: status.timezone })}`),
    actions(BlockIds.homeSummary, [button('Change', ActionIds.summaryChange, 'change'), button('Turn off', ActionIds.summaryOff, 'off')]),
  ];
}

const DAY_OPTIONS: Record<Days, types.PlainTextOption> = {
  weekdays: { text: plainText('Weekdays (Monday to Friday)'), value: 'weekdays' },
  daily: { text: plainText('Every day'), value: 'daily' },
};

/** The small form behind Change / Turn on: a time and weekdays or every day. `privateMetadata` is sealed by the caller. */
export function summaryModal(callbackId: string, privateMetadata: string, status: SummaryStatus, defaults: { time: string; days: Days }): types.ModalView {
  const s = status.setting;
  const time = s?.time ?? defaults.time;
  const days = s?.days ?? defaults.days;
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plainText('Morning summary', 24),
    submit: plainText(s?.enabled ? 'Save' : 'Turn on', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(`Once a day, ${WHAT}, at this time in your Slack time zone (*${status.timezone}*).`),
      {
        type: 'input',
        block_id: FieldIds.summaryTime,
        label: plainText('Time'),
        element: { type: 'timepicker', action_id: FIELD_ACTION_ID, initial_time: time },
      },
      {
        type: 'input',
        block_id: FieldIds.summaryDays,
        label: plainText('Days'),
        element: { type: 'radio_buttons', action_id: FIELD_ACTION_ID, options: [DAY_OPTIONS.daily, DAY_OPTIONS.weekdays], initial_option: DAY_OPTIONS[days] },
      },
    ],
  };
}
