import type { NameProblem } from '../../services/shift-work/channel-setup.js';
import type { NamedPerson } from '../../services/people/workspace-names.js';
import { userText } from '../text.js';

// Slack shows the mention as the display name; the real name and the Id tell two people apart.
const person = (p: NamedPerson) => `• <@${p.id}>${p.realName ? ` ${userText(p.realName, 80)}` : ''} · Id \`${p.id}\``;

/**
 * What an admin reads when a typed channel or person name found no one or
 * several: the candidates (mentions, names and Ids) and how to say it again.
 * Pure.
 */
export function nameProblemText(problem: NameProblem): string {
  if (problem.kind === 'channel-name') {
    const { lookup } = problem;
    const typed = userText(lookup.typed.replace(/^#/, ''), 80);
    const near = lookup.kind === 'unknown' ? lookup.near : lookup.matches;
    return [
      `No channel I can see is called #${typed}.`,
      near.length ? ` Did you mean ${near.map((c) => `<#${c.id}>`).join(', ')}? Type its name exactly.` : '',
      ' Pick the channel with # from Slack’s list, or type its exact name. A private channel shows only once I am in it (`/invite @Care Actions` there).',
    ].join('');
  }
  const { lookup } = problem;
  const typed = userText(lookup.typed, 80);
  if (lookup.kind === 'ambiguous') {
    return [
      `More than one person matches “${typed}”:`,
      ...lookup.matches.map(person),
      `Type the command again with the one you mean: pick them with @ from Slack’s list, or give their Id instead of “${typed}” (e.g. \`${lookup.matches[0]!.id}\`).`,
    ].join('\n');
  }
  if (lookup.near.length) {
    return [
      `No one in this workspace is called “${typed}”. Did you mean:`,
      ...lookup.near.map(person),
      'Type the command again with their name as shown, their Id, or pick them with @ from Slack’s list.',
    ].join('\n');
  }
  return `No one in this workspace is called “${typed}”. Check the spelling, or pick the person with @ from Slack’s list.`;
}
