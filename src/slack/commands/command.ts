import type { ActionRef } from '../../services/action-model.js';
import type { DigestScope } from '../../services/shift-work/channel-setup.js';
import type { WhereRef } from '../../services/actions/list-where.js';
import type { PersonRef, ReassignScope } from '../../services/reassign/reassign.js';
import type { NameRef } from '../../services/people/workspace-names.js';
import type { DueWindowName } from '../../time/due-windows.js';
import type { Shift } from '../../time/shifts.js';
import type { EscalationCommand } from './escalation-parse.js';
import type { SafeguardingCommand } from './safeguarding-parse.js';
import type { TwoStaffCommand } from './two-staff-parse.js';
import type { WorkspaceCommand } from './workspace-parse.js';

/**
 * What `/care …` says, typed: the one command table's kinds (parse.ts reads the words into one, each family of
 * sub-commands in its own file), the usage line of each, and an answer in words when the words make no command.
 */
export type Command =
  | { kind: 'help' }
  /** `implied`: the words were no sub-command, so they were read as `/care new …` (Todoist-style); the form says so. */
  | { kind: 'new'; task: string; implied?: boolean }
  /** `where`: only one location's or one resident's (`location <name>`, `resident <Id>`). */
  | { kind: 'mine'; where?: WhereRef }
  /** `slackUserId` from a mention; `personName` as typed after @ (looked up in the workspace). */
  | { kind: 'due'; window: DueWindowName; slackUserId?: string; personName?: string; where?: WhereRef }
  /** `note`: `/care done 301 <note words>` (action-parse.ts). */
  | { kind: 'show' | 'done' | 'reopen'; ref: ActionRef; note?: string }
  | { kind: 'find'; words: string }
  | { kind: 'locations' | 'literature'; words: string }
  | { kind: 'link'; target?: { slackUserId: string; careUserId: string }; requestedCareUserId?: string }
  | { kind: 'unlink'; slackUserId?: string }
  | { kind: 'whoami' | 'links' }
  /** `time`: "HH:MM", or a shift start: "shift" (every shift's) or "shift:<name>" (time/start-time.ts). */
  | { kind: 'digest-here'; time: string; days: 'weekdays' | 'daily'; filter: DigestScope; showTasks: boolean; quietWhenEmpty: boolean }
  | { kind: 'digest-off' | 'digest-list' | 'digest-now' }
  /** `publicConfirmed`: `--public`, the second step for task text in a public channel. */
  | { kind: 'handover-here'; showTasks: boolean; publicConfirmed: boolean }
  | { kind: 'handover-off' | 'handover-list' }
  | { kind: 'route'; groupName: string; channel: NameRef }
  | { kind: 'route-off'; groupName: string; channelId?: string }
  | { kind: 'routes' }
  | { kind: 'summary-show' | 'summary-off' }
  | { kind: 'summary-set'; time?: string; days?: 'weekdays' | 'daily' }
  /** Admins: move someone's open work to someone else (`scope` default all). */
  | { kind: 'reassign'; from: PersonRef; to: PersonRef; scope: ReassignScope }
  /** Admins: the evidence export (dates as typed, checked by the service: services/evidence/evidence-range.ts). */
  | { kind: 'evidence'; from?: string; to?: string; location?: string; withTasks: boolean }
  | { kind: 'shifts-show' }
  /** Who's on now: the shift, its seniors, the managers' channel and the open urgent actions (anyone linked). */
  | { kind: 'oncall' }
  /** null: back to the default shifts. */
  | { kind: 'shifts-set'; shifts: Shift[] | null }
  /** The set-up words (`admins`, `settings`, `connect`): workspace-parse.ts. */
  | { kind: 'workspace'; command: WorkspaceCommand }
  /** `/care escalation …` (admins): escalation-parse.ts. */
  | { kind: 'escalation'; command: EscalationCommand }
  /** `/care settings safeguarding …` (admins): safeguarding-parse.ts. */
  | { kind: 'safeguarding'; command: SafeguardingCommand }
  /** `/care settings two-staff …` (admins) and `/care two-staff <no> on|off`: two-staff-parse.ts. */
  | { kind: 'two-staff'; command: TwoStaffCommand }
  /** Admins: a person's data sent to them as a file (`export`), or erased after a confirmation (`forget`). */
  | { kind: 'person-export' | 'person-forget'; slackUserId: string }
  | { kind: 'error'; message: string };

export const USAGE = {
  due: '/care due [today|tomorrow|week|overdue] [@person] [location <name>|resident <Id>]',
  mine: '/care mine [location <name>|resident <Id>]',
  show: '/care show <action no or Id>',
  done: '/care done <action no or Id> [note]',
  reopen: '/care reopen <action no or Id>',
  find: '/care find <words>',
  link: '/care link [your care user Id]  (admins: /care link @user <care user Id>)',
  unlink: '/care unlink  (or, admins: /care unlink @user)',
  digest:
    '/care digest here [HH:MM|shift-start|at <shift> start] [daily|weekdays] [mine-only|urgent-only|@person…|location <name>|resident <Id>] [--show-tasks] [--quiet]  ·  /care digest off|list|now',
  shifts: '/care shifts  ·  admins: /care shifts Day 07:00-19:00, Night 19:00-07:00  ·  /care shifts default',
  route: '/care route <notification group name> #channel  ·  /care route off <group name>  ·  /care routes',
  summary: '/care summary [HH:MM|shift-start|at <shift> start] [daily|weekdays]  ·  /care summary off  ·  /care summary (your setting)',
  reassign: '/care reassign @person to @other [overdue|today|all]',
  handover: '/care handover here [--show-tasks [--public]]  ·  /care handover off|list',
  export: '/care export @person  (admins: everything the app holds about them, as a file)',
  forget: '/care forget @person  (admins: erase what the app holds about them, after a confirmation)',
  evidence: '/care evidence [from YYYY-MM-DD] [to YYYY-MM-DD] [location <name>] [--with-tasks]',
} as const;

export const error = (message: string): Command => ({ kind: 'error', message });
