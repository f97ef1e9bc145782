/**
 * The message renderers a workspace's services post with (services/renderers.ts), from the pure view
 * builders; every card about an action shows the same "Open in care system" link (CARE_WEB_URL).
 */
import type { ActionView } from '../../services/action-model.js';
import { withCareWebLink } from '../../services/care-web-link.js';
import type { MessageRenderers } from '../../services/renderers.js';
import { assignmentNotice } from '../../slack/views/assignment-notice.js';
import { changeNotice } from '../../slack/views/change-notice.js';
import { renderDigest } from '../../slack/views/digest.js';
import { answerNotice } from '../../slack/views/episode-answers.js';
import { escalatedAlert, escalationMessage } from '../../slack/views/escalation.js';
import { escalationFollowing } from '../../slack/views/escalation-follow.js';
import { followUpMessage, handBackAlert } from '../../slack/views/follow-up.js';
import { renderMorningSummary } from '../../slack/views/morning-summary.js';
import { noticeFollowing } from '../../slack/views/notice-following.js';
import { completionNotice, creatorNotice, urgentAlert } from '../../slack/views/notices.js';
import { redactedMessage } from '../../slack/views/redacted.js';

export function messageRenderers(careWebUrl: string | undefined): MessageRenderers {
  const linked = (view: ActionView) => withCareWebLink(careWebUrl, view);
  return {
    completionNotice: (a, ctx, groups) => completionNotice(linked(a), ctx, groups),
    urgentAlert: (a, ctx) => urgentAlert(linked(a), ctx),
    creatorNotice: (a, ctx) => creatorNotice(linked(a), ctx),
    assignmentNotice: (a, ctx, by) => assignmentNotice(linked(a), ctx, by),
    changeNotice: (a, ctx, change) => changeNotice(linked(a), ctx, change),
    digest: renderDigest,
    morningSummary: renderMorningSummary,
    redacted: redactedMessage,
    escalatedAlert: (a, ctx, lines, current) => escalatedAlert(linked(a), ctx, lines, current),
    escalation: (a, ctx, info) => escalationMessage(linked(a), ctx, info),
    escalationFollowing: (a, ctx, info, state) => escalationFollowing(linked(a), ctx, info, state),
    noticeFollowing: (a, ctx, headline) => noticeFollowing(linked(a), ctx, headline),
    followUp: (a, ctx, info) => followUpMessage(linked(a), ctx, info),
    handBackAlert: (a, ctx, handed) => handBackAlert(linked(a), ctx, handed),
    answerNotice: (a, ctx, answer, state) => answerNotice(linked(a), ctx, answer, state),
  };
}
