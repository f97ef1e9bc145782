/** What a reassign run plans, moves and tells (services/reassign/reassign.ts, its Undo, and the views). */

/** Which of the open work moves: overdue only; what is due by the end of today (overdue included); all of it. */
export type ReassignScope = 'overdue' | 'today' | 'all';

/** A person as an admin names them: Slack's mention, an @name of the workspace, a care user Id, or their care name. */
export type PersonRef = { type: 'slack'; id: string } | { type: 'care'; id: string } | { type: 'name'; name: string };

/** Someone on the rota: a care user, and the Slack person of this workspace linked to them, if any. */
export interface RotaPerson {
  careUserId: string;
  name: string;
  slackUserId?: string;
}

export interface ReassignPlan {
  from: RotaPerson;
  to: RotaPerson;
  scope: ReassignScope;
  /** The actions that would move, by due time (with their numbers, to name one that cannot be moved). */
  actions: MovedAction[];
  total: number;
  overdue: number;
  /** Due later today (not overdue). */
  today: number;
  /** Due after today, or with no due time. */
  later: number;
  /** More open actions than one run moves: only the first MAX_MOVES are planned. */
  capped: boolean;
}

export interface MovedAction {
  id: string;
  no: string | null;
}

export interface ReassignOutcome {
  moved: MovedAction[];
  failed: (MovedAction & { why: string })[];
}

/** What the summary DMs say (the Slack layer renders them). */
export interface ReassignSummary {
  /** The admin who moved the work. */
  by: string;
  from: RotaPerson;
  to: RotaPerson;
  moved: MovedAction[];
  /** Who reads it: the one who lost the work or the one who got it. */
  reader: 'from' | 'to';
  /** The moves are an Undo of an earlier reassignment (the work goes back). */
  back?: boolean;
}
