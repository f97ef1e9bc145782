/** What the views need to know about an action, already resolved for display. */
export interface ActionView {
  id: string;
  actionNo: string | null;
  task: string | null;
  due: Date | null;
  urgent: boolean;
  completed: Date | null;
  /** Slack user to mention when the assignee is linked; otherwise a name if known. */
  assignee: { slackUserId?: string; name?: string } | null;
}

export interface RenderContext {
  now: Date;
  /** Zone for fallback text of date tokens. */
  timezone: string;
  /** Whether task text may be shown where this is posted. */
  showTask: boolean;
}

export const isOverdue = (a: ActionView, now: Date) => !a.completed && a.due !== null && a.due.getTime() < now.getTime();
