/**
 * One notice per person per completion (issue 32), whatever roles they have (pure): the one rule every path
 * that tells people of a completion follows, so each person is told by exactly one of them.
 *
 * - Whoever completed it through Slack is told nothing (they know).
 * - Completed through Slack by someone else: the assignee hears it as their own work ("@x completed your
 *   action", the change DM, change-notices.ts), and nothing else.
 * - Else whoever created it through Slack (and is still linked) hears it as its creator ("… that you created
 *   was completed", creator-notices.ts), and not also as a member of its notification group.
 * - Else a member of a notification group gets the group's completion notice (completion-notices.ts).
 */

/** Which notice tells a person of a completion. */
export type CompletionNoticeKind = 'change' | 'creator' | 'group';

export interface CompletionFacts {
  /** The Slack user who completed it through Slack; null: in the care system (its web app, or itself). */
  completer: string | null;
  /** The Slack user who created it through Slack, while still linked; null: none. */
  creator: string | null;
  /** The Slack users linked to its assignee's care user (in this workspace). */
  assigneeUsers: readonly string[];
}

/**
 * The one notice this person gets among the roles they hold, or null when none. `roles.group`: they are a
 * member of one of its notification groups. A person who is neither creator, assignee nor group member gets null.
 */
export function completionNoticeFor(person: string, facts: CompletionFacts, roles: { group: boolean }): CompletionNoticeKind | null {
  if (facts.completer !== null && person === facts.completer) return null;
  if (facts.completer !== null && facts.assigneeUsers.includes(person)) return 'change';
  if (facts.creator !== null && person === facts.creator) return 'creator';
  return roles.group ? 'group' : null;
}
