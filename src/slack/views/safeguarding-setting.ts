import type { SafeguardingSettings } from '../../services/urgent/safeguarding.js';
import { userText } from '../text.js';

/** The safeguarding tier as an admin reads it (`/care settings safeguarding`). Pure. */
export function safeguardingSettingText(s: SafeguardingSettings, changed = false): string {
  const head = changed ? 'Safeguarding set. ' : '';
  const on = s.tags.length > 0 || s.groups.length > 0;
  const tags = s.tags.length ? s.tags.map((t) => `\`${userText(t, 64)}\``).join(', ') : '_none_';
  const groups = s.groups.length ? s.groups.map((g) => userText(g.name, 80)).join(', ') : '_none_';
  const officers = s.officers.length ? s.officers.map((u) => `<@${u}>`).join(' ') : '_nobody named: the app’s admins are told_';
  return [
    on
      ? `${head}An action with one of these action tags or notification groups is about safeguarding: it is never posted in a channel (no digest, handover, alert, escalation or routed notice shows it, not even its number); its urgent alert and escalation go by DM to the officers alone, and its History is shown only to them and admins.`
      : `${head}Safeguarding is *off*: no action is kept out of channels. Name the care system’s action tags with \`/care settings safeguarding tags &lt;tag Id…&gt;\` or its notification groups with \`/care settings safeguarding groups &lt;name&gt;\`.`,
    `• Action tags: ${tags}`,
    `• Notification groups: ${groups}`,
    `• Officers: ${officers}`,
  ].join('\n');
}
