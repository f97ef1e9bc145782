import type { EscalationView } from '../../services/escalation-settings.js';
import { ladderEndsAt } from '../../services/escalation-ladder.js';
import { userText } from '../text.js';

const STEP_WORDS = {
  thread: 'a reminder in the urgent alert’s thread',
  seniors: 'a DM to the seniors on shift',
  managers: 'a post in the managers’ channel',
} as const;

/** The ladder as an admin reads it (`/care escalation`): the steps and their times, the channel, the seniors per shift. Pure. */
export function escalationSettingText(view: EscalationView, changed = false): string {
  const { settings, shifts } = view;
  const head = changed ? 'Escalation set. ' : '';
  if (!settings.steps.length)
    return `${head}Escalation is *off*: an urgent action nobody takes is alerted once and not escalated. Turn it on with \`/care escalation steps thread,seniors,managers\`.`;
  const n = settings.afterMinutes;
  const steps = settings.steps.map((s, i) => `${i + 1}. after ${n * (i + 1)} minutes: ${STEP_WORDS[s]}`);
  const managers = settings.managersChannel ? `<#${settings.managersChannel}>` : '_not set_ (`/care escalation managers #channel`)';
  const seniors = shifts.map((s) => {
    const people = settings.seniors[s.name] ?? [];
    return `• ${userText(s.name, 40)}: ${people.length ? people.map((u) => `<@${u}>`).join(' ') : '_nobody named_'}`;
  });
  const end = ladderEndsAt(settings, 0);
  return [
    `${head}An urgent action that nobody takes, completes or makes not urgent climbs this ladder (each step once, counted from when it became urgent${end ? `; the last at ${end / 60_000} minutes` : ''}):`,
    ...steps,
    'A step with nobody to tell (no seniors named for the shift on, no managers’ channel) is skipped, and the next comes at once.',
    `Managers’ channel: ${managers}`,
    'Seniors by shift:',
    ...seniors,
    'Change it: `/care escalation after &lt;minutes&gt;` · `steps thread,seniors,managers|off` · `managers #channel` · `seniors &lt;shift&gt; @person…|off`',
  ].join('\n');
}
