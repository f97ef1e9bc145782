import type { types } from '@slack/bolt';
import type { SummaryStatus } from '../../services/shift-work/summary-settings.js';
import { slackDate } from '../../time/slack-date.js';
import { ActionIds, BlockIds, FIELD_ACTION_ID, FieldIds } from '../ids.js';
import type { Shift } from '../../time/shifts.js';
import { EVERY_SHIFT, isShiftStart, namedShift, readStartTime } from '../../time/start-time.js';
import { userText } from '../text.js';
import { actions, button, plainText, section, type Block } from './blocks.js';

type Days = 'weekdays' | 'daily';

/**
 * "07:30 on weekdays (Europe/London)", "07:30 every day (America/New_York)", "at each shift start (Day 07:00,
 * Night 19:00) every day (Europe/London)", "at the Night shift's start (19:00) every day (Europe/London)".
 * `shifts`: the home's, to show their times (left out when not known).
 */
export function describeSummarySchedule(s: { time: string; days: Days; timezone: string; shifts?: readonly Shift[] | undefined }): string {
  const days = s.days === 'daily' ? 'every day' : 'on weekdays';
  const start = readStartTime(s.time);
  if (start.type === 'clock') return `${start.time} ${days} (${s.timezone})`;
  if (!start.name) {
    const times = s.shifts?.length ? ` (${s.shifts.map((x) => `${userText(x.name, 24)} ${x.start}`).join(', ')})` : '';
    return `at each shift start${times} ${days} (${s.timezone})`;
  }
  const shift = s.shifts ? namedShift(s.shifts, start.name) : undefined;
  const time = shift ? ` (${shift.start})` : s.shifts ? ' (no shift has that name now: none is sent until one does)' : '';
  return `at the ${userText(start.name, 24)} shift’s start${time} ${days} (${s.timezone})`;
}

const WHAT = 'a DM with your overdue, due-today and urgent actions';

/** The setting as the person reads it: a shift start shows the shifts' times in the home's zone. */
const scheduleOf = (status: SummaryStatus, s: { time: string; days: Days }) =>
  describeSummarySchedule({ time: s.time, days: s.days, timezone: status.timezone, shifts: status.shifts });

/** The answer to `/care summary` (and after a change): the setting, and when the next one comes. */
export function summaryStatusText(status: SummaryStatus, changed = false): string {
  const s = status.setting;
  if (!s?.enabled) {
    return `${s ? 'Your morning summary is off.' : 'You have no morning summary.'} \`/care summary 07:30\` sends you ${WHAT} every day at 07:30 your time (\`weekdays\` for Monday to Friday only); \`/care summary shift-start\` sends it at each shift start.`;
  }
  const next = status.next ? ` Next: ${slackDate(status.next, status.timezone)}.` : '';
  const follows = isShiftStart(s.time)
    ? 'It follows the home’s shifts (`/care shifts`); `/care summary 07:30` sends it at a clock time instead.'
    : 'It follows your Slack time zone; `/care summary shift-start` sends it at each shift start instead.';
  return `${changed ? ':white_check_mark: Morning summary on' : 'Your morning summary'}: ${scheduleOf(status, s)}, ${WHAT}.${next} ${follows} \`/care summary off\` stops it.`;
}

/** The Home tab's summary row: the setting with Change / Turn off, or Turn on. */
export function summaryHomeBlocks(status: SummaryStatus): Block[] {
  const s = status.setting;
  if (!s?.enabled) {
    return [
      section(`:sunrise: *Morning summary:* off. Get ${WHAT} at a time you choose, or at each shift start.`),
      actions(BlockIds.homeSummary, [button('Turn on', ActionIds.summaryChange, 'on')]),
    ];
  }
  return [
    section(`:sunrise: *Morning summary:* ${scheduleOf(status, s)}`),
    actions(BlockIds.homeSummary, [button('Change', ActionIds.summaryChange, 'change'), button('Turn off', ActionIds.summaryOff, 'off')]),
  ];
}

const DAY_OPTIONS: Record<Days, types.PlainTextOption> = {
  weekdays: { text: plainText('Weekdays (Monday to Friday)'), value: 'weekdays' },
  daily: { text: plainText('Every day'), value: 'daily' },
};

/** What the form's "When" offers: a clock time (the time field), at each shift start, or a named shift's start (kept when set). */
export const CLOCK_TIME = 'clock';

function whenOptions(status: SummaryStatus, time: string): types.PlainTextOption[] {
  const start = readStartTime(time);
  const options: types.PlainTextOption[] = [
    { text: plainText('At the time below'), value: CLOCK_TIME },
    { text: plainText(`At each shift start (${status.shifts.map((x) => `${x.name} ${x.start}`).join(', ')})`, 75), value: EVERY_SHIFT },
  ];
  if (start.type === 'shift' && start.name) options.push({ text: plainText(`At the ${start.name} shift’s start`, 75), value: time });
  return options;
}

/**
 * The small form behind Change / Turn on: when (a time, or at each shift start), and weekdays or every day.
 * `privateMetadata` is sealed by the caller.
 */
export function summaryModal(callbackId: string, privateMetadata: string, status: SummaryStatus, defaults: { time: string; days: Days }): types.ModalView {
  const s = status.setting;
  const stored = s?.time ?? defaults.time;
  const time = readStartTime(stored).type === 'clock' ? stored : defaults.time;
  const days = s?.days ?? defaults.days;
  const when = whenOptions(status, stored);
  const initialWhen = when.find((o) => o.value === (isShiftStart(stored) ? stored : CLOCK_TIME)) ?? when[0]!;
  return {
    type: 'modal',
    callback_id: callbackId,
    title: plainText('Morning summary', 24),
    submit: plainText(s?.enabled ? 'Save' : 'Turn on', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(
        isShiftStart(stored)
          ? `${WHAT[0]!.toUpperCase()}${WHAT.slice(1)}: at each shift start (the home’s shifts, *${status.timezone}*), or once a day at a time in your Slack time zone.`
          : `Once a day, ${WHAT}, at this time in your Slack time zone (*${status.timezone}*), or at each shift start (the home’s shifts).`,
      ),
      {
        type: 'input',
        block_id: FieldIds.summaryWhen,
        label: plainText('When'),
        element: { type: 'radio_buttons', action_id: FIELD_ACTION_ID, options: when, initial_option: initialWhen },
      },
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
