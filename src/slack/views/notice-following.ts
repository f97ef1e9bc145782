import type { ActionView, RenderContext } from '../../services/action-model.js';
import type { FollowedHeadline } from '../../services/renderers.js';
import { slackDate } from '../../time/slack-date.js';
import { actionCard, actionFallback } from './action-card.js';
import { assignmentHeadline } from './assignment-notice.js';
import { context, section, type Block } from './blocks.js';
import { changeHeadline } from './change-notice.js';
import { creatorHeadline } from './notices.js';

/**
 * A DM or confirmation card about an action, drawn again as the action is now (services/notices/post-redraw.ts): the
 * headline keeps the event it told, in the words it was sent with ("You were assigned action #12 by @amelia",
 * "@priya snoozed your action #5", "✅ Created."), and below it the action's card as it is now — completed
 * (Reopen, no Complete), reassigned, snoozed, no longer urgent. What the first post said of the action as it was
 * then ("It is now due …", "· assigned to …") is left to the card, which says it as it is now. The notification
 * text is the headline, never the task.
 */
export function noticeFollowing(a: ActionView, ctx: RenderContext, headline: FollowedHeadline): { text: string; blocks: Block[] } {
  const card = actionCard(a, ctx);
  switch (headline.kind) {
    case 'assignment': {
      const text = assignmentHeadline(a, headline);
      return { text, blocks: [section(`:inbox_tray: *${text}*`), ...card] };
    }
    case 'change': {
      const text = changeHeadline(a, headline.change);
      return { text, blocks: [section(`:bust_in_silhouette: *${text}*.`), ...card] };
    }
    case 'creator': {
      const by = headline.by ? `by <@${headline.by}>` : a.generated ? 'by the care system' : 'in the care system';
      const text = creatorHeadline(a, by);
      return {
        text,
        blocks: [
          section(`:white_check_mark: *${text}* ${slackDate(headline.completed, ctx.timezone)}`),
          ...card,
          context('You are told because you created it in Slack.'),
        ],
      };
    }
    case 'saved': {
      const said = headline.by ? `${headline.verb} by <@${headline.by}>` : headline.verb;
      return {
        text: `${said}: ${actionFallback(a, ctx)}`,
        blocks: [section(`:white_check_mark: ${said}${headline.by ? '' : '.'}`), ...card],
      };
    }
  }
}
