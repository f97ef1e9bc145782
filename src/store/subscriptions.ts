/** Channel digest subscriptions: one per channel, replaced on re-configuration. */
import { z } from 'zod';
import type { Ctx, Row } from './db.js';
import { bool, json, num, str } from './db.js';
import { StoreError } from './errors.js';
import { isTimeZone } from './time-zone.js';
import type { DigestDays, DigestFilters, Subscription, SubscriptionInput } from './types.js';

const COLUMNS =
  'team_id, channel_id, digest_time, digest_days, time_zone, filters, show_task_text, post_when_empty, urgent_alerts, channel_private, set_up_by, set_up_at';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** At a shift's start instead of a clock time: `shift` (every shift) or `shift:<name>` (time/start-time.ts). */
const SHIFT_START = /^shift(:\S.{0,23})?$/u;

const filtersSchema = z.looseObject({
  careUserIds: z.array(z.string()).optional(),
  slackUserIds: z.array(z.string()).optional(),
  mineOnly: z.boolean().optional(),
  urgentOnly: z.boolean().optional(),
  locationId: z.string().nullable().optional(),
});

function validate(input: SubscriptionInput): DigestFilters {
  if (!HH_MM.test(input.time) && !SHIFT_START.test(input.time)) {
    throw new StoreError('invalid-input', `The digest time "${input.time}" is not a 24-hour HH:MM time such as 08:30 (or a shift start).`);
  }
  if (input.days !== 'weekdays' && input.days !== 'daily') {
    throw new StoreError('invalid-input', `Digest days must be "weekdays" or "daily", not "${String(input.days)}".`);
  }
  if (!isTimeZone(input.timeZone)) {
    throw new StoreError('invalid-input', `"${input.timeZone}" is not a known time zone; use an IANA name such as Europe/London.`);
  }
  const parsed = filtersSchema.safeParse(input.filters ?? {});
  if (!parsed.success) {
    throw new StoreError(
      'invalid-input',
      `The digest filters are not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}.`,
    );
  }
  return parsed.data as DigestFilters;
}

function toSubscription(row: Row): Subscription {
  const filters = filtersSchema.safeParse(json(row.filters));
  return {
    teamId: str(row.team_id),
    channelId: str(row.channel_id),
    time: str(row.digest_time),
    days: str(row.digest_days) as DigestDays,
    timeZone: str(row.time_zone),
    filters: filters.success ? (filters.data as DigestFilters) : {},
    showTaskText: bool(row.show_task_text),
    postWhenEmpty: bool(row.post_when_empty),
    urgentAlerts: bool(row.urgent_alerts),
    channelPrivate: bool(row.channel_private),
    setUpBy: str(row.set_up_by),
    setUpAt: num(row.set_up_at),
  };
}

/** Set (or replace) the channel's digest. Throws StoreError('invalid-input') for a bad time, days, zone or filters. */
export async function upsertSubscription(ctx: Ctx, input: SubscriptionInput): Promise<Subscription> {
  const filters = validate(input);
  const row = await ctx.db.get(
    `INSERT INTO channel_subscriptions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET
       digest_time = excluded.digest_time, digest_days = excluded.digest_days, time_zone = excluded.time_zone,
       filters = excluded.filters, show_task_text = excluded.show_task_text, post_when_empty = excluded.post_when_empty,
       urgent_alerts = excluded.urgent_alerts, channel_private = excluded.channel_private,
       set_up_by = excluded.set_up_by, set_up_at = excluded.set_up_at
     RETURNING ${COLUMNS}`,
    [
      input.teamId,
      input.channelId,
      input.time,
      input.days,
      input.timeZone,
      JSON.stringify(filters),
      input.showTaskText,
      input.postWhenEmpty,
      input.urgentAlerts,
      input.channelPrivate,
      input.setUpBy,
      input.setUpAt ?? ctx.now(),
    ],
  );
  return toSubscription(row!);
}

export async function getSubscription(ctx: Ctx, teamId: string, channelId: string): Promise<Subscription | null> {
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM channel_subscriptions WHERE team_id = ? AND channel_id = ?`, [teamId, channelId]);
  return row ? toSubscription(row) : null;
}

export async function listSubscriptions(ctx: Ctx, teamId?: string): Promise<Subscription[]> {
  const rows =
    teamId === undefined
      ? await ctx.db.all(`SELECT ${COLUMNS} FROM channel_subscriptions ORDER BY team_id, channel_id`)
      : await ctx.db.all(`SELECT ${COLUMNS} FROM channel_subscriptions WHERE team_id = ? ORDER BY channel_id`, [teamId]);
  return rows.map(toSubscription);
}

export async function deleteSubscription(ctx: Ctx, teamId: string, channelId: string): Promise<boolean> {
  return (await ctx.db.run('DELETE FROM channel_subscriptions WHERE team_id = ? AND channel_id = ?', [teamId, channelId])) > 0;
}
