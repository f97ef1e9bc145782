import { ActionIds, BlockIds } from '../ids.js';
import { userText } from '../text.js';
import { actions, button, context, section, type Block } from './blocks.js';

export interface HelpState {
  linked: boolean;
  careUserName?: string;
  isAdmin: boolean;
  /** Not linked, and their request to link is waiting for an admin. */
  requestWaiting?: boolean;
  /** Whether they are linked could not be learned just now (the app's database did not answer). */
  linkUnknown?: boolean;
  /** How this deployment is set up: in Slack by its admins (many workspaces), or by its configuration (one). */
  setUp?: 'configured' | 'self-service';
}

/** The set-up commands an admin may use in this deployment. */
function setUpLines(setUp: HelpState['setUp']): string[] {
  if (setUp === 'self-service')
    return [
      '`/care admins add|remove @person` — who else may set up Care Actions here',
      '`/care settings` · `/care settings timezone &lt;zone&gt;` · `/care settings web-link &lt;address with {id}&gt;|off` — this workspace’s time zone and care link',
      '`/care connect` — where to connect the care system (the Home tab)',
    ];
  return [
    '`/care settings` — the time zone and care link. Here admins, the time zone, the care link and the care account come from the deployment’s configuration (ADMIN_SLACK_USER_IDS, APP_TIMEZONE, CARE_WEB_URL, CARE_API_KEY and CARE_API_SECRET)',
  ];
}

export function helpBlocks(state: HelpState): Block[] {
  const link = state.linkUnknown
    ? ':grey_question: I cannot check whether your Slack account is linked just now (the app cannot reach its database). Here is everything `/care` does; commands that need your care account may fail until it is back.'
    : state.linked
      ? `:link: Your Slack account is linked${state.careUserName ? ` to *${userText(state.careUserName, 100)}*` : ''} in the care system.`
      : state.requestWaiting
        ? ':hourglass_flowing_sand: Your Slack account is *not linked* yet: your request is waiting for an admin, and you will get a message when it is decided. Until then you can use the reference commands below.'
        : ':grey_question: Your Slack account is *not linked* yet. Type `/care link` so you can create, edit and complete actions.';
  const blocks: Block[] = [
    section(link),
    section(
      [
        '*Your actions*',
        '`/care mine` — your open actions: overdue, today, next 7 days',
        '`/care due [today|tomorrow|week|overdue] [@person]` — what is due',
        'Add `location &lt;name&gt;` or `resident &lt;Id&gt;` to either for one home or one resident (`/care due today location Rose House`)',
        '`/care new [task]` — create an action (`/care new Call the GP tomorrow 3pm` sets the due time too; `/care Call the GP tomorrow 3pm` does the same)',
        '`/care show|done|reopen &lt;action no&gt;` — see, complete or reopen one; `/care done &lt;action no&gt; &lt;note&gt;` completes it with a note (in its History)',
        '`/care find &lt;words&gt;` — search actions',
        '`/care two-staff &lt;action no&gt; on|off` — mark an action as needing two staff (its urgent alert keeps asking until two people answer)',
        '`/care summary [HH:MM|shift-start|at &lt;shift&gt; start] [daily|weekdays]` · `/care summary off` — a DM with your overdue, due-today and urgent actions, every day at that time (`shift-start`: at each shift start; `at Day start`: at the Day shift’s)',
        '`/care shifts` — the care home’s shifts and which is on now',
        '`/care oncall` — who’s on now: the shift, its seniors, the managers’ channel, and who is on each open urgent action',
        '*Reference*',
        '`/care locations [words]` · `/care literature [words]`',
        '*Your account*',
        '`/care link` · `/care unlink` · `/care whoami`',
        '`/care admins` — who the Care Actions admins are here',
      ].join('\n'),
    ),
  ];
  if (state.isAdmin) {
    blocks.push(
      section(
        [
          '*Admin*',
          '`/care link @person &lt;care user Id&gt;` · `/care links` (link requests come to you in a DM: Approve picks the care user by name)',
          '`/care digest here [HH:MM|shift-start|at &lt;shift&gt; start] [daily|weekdays] [mine-only|urgent-only|@person…|location &lt;name&gt;|resident &lt;Id&gt;] [--show-tasks] [--quiet]` (every day unless `weekdays`; `shift-start`: at each shift start, `at Night start`: at the Night shift’s; people by @name or name)',
          '`/care reassign @person to @other [overdue|today|all]` — move someone’s open work (sickness, a shift swap; anyone on the rota, by @ or by their care name); or *Reassign work* in the Team view on your Home tab',
          '`/care shifts Day 07:00-19:00, Night 19:00-07:00` · `/care shifts default` — set the shifts',
          '`/care digest off|list|now` · `/care route &lt;group&gt; #channel` · `/care routes`',
          '`/care export @person` · `/care forget @person` — what Care Actions holds about someone, as a file to you; or erased (asks first)',
          '`/care settings two-staff &lt;tag Ids&gt;|off` — the care system’s action tags that mean an action needs two staff',
          '`/care evidence [from YYYY-MM-DD] [to YYYY-MM-DD] [location &lt;name&gt;] [--with-tasks]` — a CSV of the actions first due or completed then, sent to your DM',
          '`/care handover here [--show-tasks [--public]]` (a post at each shift change, with Accept handover) · `/care handover off|list`',
          '`/care escalation` · `/care escalation after &lt;minutes&gt;|followup &lt;minutes&gt;|off|steps thread,seniors,managers|off|managers #channel|seniors &lt;shift&gt; @person…|repeat &lt;minutes&gt; &lt;times&gt;` — how urgent actions nobody takes are escalated',
          ...setUpLines(state.setUp),
        ].join('\n'),
      ),
    );
  }
  // Only linked people can create actions: the others are shown how to link, not a button that cannot work for them.
  if (state.linked) blocks.push(actions(BlockIds.helpActions, [button('New action', ActionIds.newAction, 'new', 'primary')]));
  else if (!state.requestWaiting && !state.linkUnknown)
    blocks.push(
      context(
        ':point_right: To link: type `/care link`. If your Slack email is the one the care system has, you are linked at once; otherwise an admin is asked and you get a message when it is done.',
      ),
    );
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
