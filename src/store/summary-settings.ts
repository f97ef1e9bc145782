/** Each person's own morning summary setting: one per (team, Slack user), replaced on change. */
import type { Ctx, Row } from './db.js';
import { bool, num, str } from './db.js';
import { StoreError } from './errors.js';
import type { DigestDays, SummarySetting, SummarySettingInput } from './types.js';

const COLUMNS = 'team_id, slack_user_id, summary_time, summary_days, enabled, set_at';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** At a shift's start instead of a clock time: `shift` (every shift) or `shift:<name>` (time/start-time.ts). */
const SHIFT_START = /^shift(:\S.{0,23})?$/u;

function toSetting(row: Row): SummarySetting {
  return {
    teamId: str(row.team_id),
    slackUserId: str(row.slack_user_id),
    time: str(row.summary_time),
    days: str(row.summary_days) as DigestDays,
    enabled: bool(row.enabled),
    setAt: num(row.set_at),
  };
}

/** Set (or replace) a person's summary. Throws StoreError('invalid-input') for a bad time or days. */
export async function upsertSummarySetting(ctx: Ctx, input: SummarySettingInput): Promise<SummarySetting> {
  if (!HH_MM.test(input.time) && !SHIFT_START.test(input.time)) {
    throw new StoreError('invalid-input', `The summary time "${input.time}" is not a 24-hour HH:MM time such as 07:30 (or a shift start).`);
  }
  if (input.days !== 'weekdays' && input.days !== 'daily') {
    throw new StoreError('invalid-input', `Summary days must be "weekdays" or "daily", not "${String(input.days)}".`);
  }
  const row = await ctx.db.get(
    `INSERT INTO summary_settings (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, slack_user_id) DO UPDATE SET
       summary_time = excluded.summary_time, summary_days = excluded.summary_days,
       enabled = excluded.enabled, set_at = excluded.set_at
     RETURNING ${COLUMNS}`,
    [input.teamId, input.slackUserId, input.time, input.days, input.enabled, input.setAt ?? ctx.now()],
  );
  return toSetting(row!);
}

export async function getSummarySetting(ctx: Ctx, teamId: string, slackUserId: string): Promise<SummarySetting | null> {
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM summary_settings WHERE team_id = ? AND slack_user_id = ?`, [teamId, slackUserId]);
  return row ? toSetting(row) : null;
}

/** The summaries that are on (every workspace, or only teamId's), in a stable order. */
export async function listEnabledSummarySettings(ctx: Ctx, teamId?: string): Promise<SummarySetting[]> {
  const rows =
    teamId === undefined
      ? await ctx.db.all(`SELECT ${COLUMNS} FROM summary_settings WHERE enabled = ? ORDER BY team_id, slack_user_id`, [true])
      : await ctx.db.all(`SELECT ${COLUMNS} FROM summary_settings WHERE enabled = ? AND team_id = ? ORDER BY slack_user_id`, [true, teamId]);
  return rows.map(toSetting);
}
