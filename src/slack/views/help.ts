import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { actions, button, context, section, type Block } from './blocks.js';

export interface HelpState {
  linked: boolean;
  careUserName?: string;
  isAdmin: boolean;
}

export function helpBlocks(state: HelpState): Block[] {
  const link = state.linked
    ? `:link: Your Slack account is linked${state.careUserName ? ` to *${userText(state.careUserName, 100)}*` : ''} in the care system.`
    : ':grey_question: Your Slack account is *not linked* yet. Type `/care link` so you can create, edit and complete actions.';
  const blocks: Block[] = [
    section(link),
    section(
      [
        '*Your actions*',
        '`/care mine` — your open actions: overdue, today, next 7 days',
        '`/care due [today|tomorrow|week|overdue] [@person]` — what is due',
        '`/care new [task]` — create an action (`/care new Call the GP tomorrow 3pm` sets the due time too)',
        '`/care show|done|reopen <action no>` — see, complete or reopen one',
        '`/care find <words>` — search actions',
        '`/care summary [HH:MM] [weekdays|daily]` · `/care summary off` — a DM each morning with your overdue, due-today and urgent actions',
        '*Reference*',
        '`/care locations [words]` · `/care literature [words]`',
        '*Your account*',
        '`/care link` · `/care unlink` · `/care whoami`',
      ].join('\n'),
    ),
  ];
  if (state.isAdmin) {
    blocks.push(
      section(
        [
          '*Admin*',
          '`/care link @person <care user Id>` · `/care links`',
          '`/care digest here [HH:MM] [weekdays|daily] [mine-only|urgent-only|@person…|location <name>] [--show-tasks] [--quiet]`',
          '`/care digest off|list|now` · `/care route <group> #channel` · `/care routes`',
        ].join('\n'),
      ),
    );
  }
  blocks.push(actions(BlockIds.helpActions, [button('New action', ActionIds.newAction, 'new', 'primary')]));
  blocks.push(context('Task text is only shown in private places and in channels an admin opted in.'));
  return blocks;
}

/** A short error with the way forward, for ephemeral replies. */
export function errorBlocks(message: string): Block[] {
  return [section(`:warning: ${message}`)];
}

export function notLinkedBlocks(): Block[] {
  return [section(':lock: Only people with a linked care account can do that. Type `/care link` to link yours (an admin may need to approve it).')];
}
