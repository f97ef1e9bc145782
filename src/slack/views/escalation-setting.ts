import type { EscalationView } from '../../services/urgent/escalation-settings.js';
import { ladderEndsAt } from '../../services/urgent/escalation-ladder.js';
import type { EscalationGap } from '../../services/renderers.js';
import { slackDate } from '../../time/slack-date.js';
import { userText } from '../text.js';
import { section, type Block } from './blocks.js';

const STEP_WORDS = {
  thread: 'a reminder in the urgent alert’s thread',
  seniors: 'a DM to the seniors on shift',
  managers: 'a post in the managers’ channel',
} as const;

/** The ladder as an admin reads it (`/care escalation`): the steps and their times, the channel, the seniors per shift. Pure. */
export function escalationSettingText(view: EscalationView, changed = false): string {
  const { settings, shifts } = view;
  const head = changed ? 'Escalation set. ' : '';
  const followup = followupText(settings.followupMinutes);
  if (!settings.steps.length)
    return `${head}Escalation is *off*: an urgent action nobody takes is alerted once and not escalated. Turn it on with \`/care escalation steps thread,seniors,managers\`.\n${followup}`;
  const n = settings.afterMinutes;
  const steps = settings.steps.map((s, i) => `${i + 1}. after ${n * (i + 1)} minutes: ${STEP_WORDS[s]}`);
  const managers = settings.managersChannel ? `<#${settings.managersChannel}>` : '_not set_ (`/care escalation managers #channel`)';
  const seniors = shifts.map((s) => {
    const people = settings.seniors[s.name] ?? [];
    return `• ${userText(s.name, 40)}: ${people.length ? people.map((u) => `<@${u}>`).join(' ') : '_nobody named_'}`;
  });
  const end = ladderEndsAt(settings, 0);
  const r = settings.repeat;
  const last = settings.steps[settings.steps.length - 1]!;
  const repeat = r
    ? `Then ${STEP_WORDS[last]} again every ${r.everyMinutes} minutes, at most ${r.times} time${r.times === 1 ? '' : 's'}, until someone answers (\`/care escalation repeat off\` stops it).`
    : 'The last step runs once (`/care escalation repeat &lt;minutes&gt; &lt;times&gt;` repeats it until someone answers).';
  return [
    `${head}An urgent action that nobody takes, completes or makes not urgent climbs this ladder (each step once, counted from when it became urgent${end ? `; the last at ${end / 60_000} minutes` : ''}):`,
    ...steps,
    repeat,
    'A step with nobody to tell (no seniors named for the shift on, no managers’ channel) is skipped, the alert says why, the next comes at once, and the admins are told once how to fix it.',
    `Managers’ channel: ${managers}`,
    'Seniors by shift:',
    ...seniors,
    followup,
    'Change it: `/care escalation after &lt;minutes&gt;` · `followup &lt;minutes&gt;|off` · `steps thread,seniors,managers|off` · `managers #channel` · `seniors &lt;shift&gt; @person…|off` · `repeat &lt;minutes&gt; &lt;times&gt;|off`',
  ].join('\n');
}

/** The follow-up of taken work, as an admin reads it. Pure. */
export function followupText(minutes: number | null): string {
  if (minutes === null)
    return 'Follow-up of taken work: *off* (an urgent action once taken is not followed up). Turn it on with `/care escalation followup 30`.';
  return `Follow-up of taken work: an urgent action taken (or acknowledged) but still open after ${minutes} minutes gets one DM to whoever holds it (Done · Still on it · Hand back); still open ${minutes} minutes after that, the ladder resumes from the seniors’ step.`;
}

const NEXT_WORDS = {
  thread: 'goes on at once to a reminder in the alert’s thread',
  seniors: 'goes on at once to the seniors on shift',
  managers: 'goes straight to the managers',
} as const;

/**
 * The admins' one DM that a step of the ladder had nobody to reach, what it did instead, and the command that
 * fixes it. Told once per workspace per missing setting (per shift for the seniors). The text names an action by
 * its number only. Pure.
 */
export function escalationGapMessage(gap: EscalationGap, ctx: { timezone: string }): { text: string; blocks: Block[] } {
  const when = slackDate(gap.at, ctx.timezone);
  const next = gap.next ? `${NEXT_WORDS[gap.next]}${gap.next === 'managers' && gap.managersChannel ? ` in <#${gap.managersChannel}>` : ''}` : 'goes no further';
  const first = `Urgent action ${gap.actionNo ? `#${userText(gap.actionNo, 20)}` : `Id ${gap.actionId}`} was the first (${when}).`;
  if (gap.missing === 'seniors') {
    const shift = userText(gap.shift ?? '', 40);
    const text = `No seniors are named for the ${shift} shift, so urgent work nobody takes on that shift is DMed to nobody and ${next}.`;
    return { text, blocks: [section(`:warning: ${text} ${first}\nName them with \`/care escalation seniors ${shift} @person…\` (you are told this once).`)] };
  }
  const text = `No managers’ channel is set, so urgent work nobody takes is never brought to the managers: the ladder ${next}.`;
  return { text, blocks: [section(`:warning: ${text} ${first}\nSet one with \`/care escalation managers #channel\` (you are told this once).`)] };
}
