import type { CommandContext, CommandHandler, SlackDeps } from '../../deps.js';
import { publishHome } from '../../home-publisher.js';
import { slackDate } from '../../../time/slack-date.js';
import { userText } from '../../text.js';
import { valueWithin } from '../../within.js';
import { section } from '../../views/blocks.js';
import { helpBlocks } from '../../views/help.js';
import { careAccountText, linkedNotice, linkRequestBlocks, linksBlocks } from '../../views/links.js';

const actorOf = (ctx: CommandContext) => ({ userId: ctx.userId });

const WHY_REQUESTED = {
  'no-users-permission': 'I cannot look people up in the care system',
  'no-email-match': 'no care user has your Slack email address',
  'no-email': 'your Slack profile has no email I can read',
} as const;

/** How long help waits for the person's link (the database) or their care user's name (the care API) before answering without it. */
const HELP_DETAIL_WAIT_MS = 1000;

/**
 * `/care`, `/care help`. Needs neither the database nor the care API: what it
 * cannot learn within HELP_DETAIL_WAIT_MS (whether the person is linked, their
 * care user's name) it leaves out, and says so.
 */
export const help: CommandHandler<'help'> = async (_cmd, ctx, deps) => {
  const actor = actorOf(ctx);
  const account = valueWithin(
    (async () => {
      const link = await deps.identity.getLink(actor);
      return { link, pending: link ? null : await deps.identity.pendingRequestOf(actor) };
    })(),
    HELP_DETAIL_WAIT_MS,
  );
  const [known, isAdmin] = await Promise.all([account, deps.identity.isAdmin(actor)]);
  const link = known?.link;
  const careUserName = link ? await valueWithin(deps.identity.careUserName(link.careUserId), HELP_DETAIL_WAIT_MS) : undefined;
  await ctx.reply({
    text: 'What /care can do',
    blocks: helpBlocks({
      linked: Boolean(link),
      ...(known ? {} : { linkUnknown: true }),
      ...(careUserName ? { careUserName } : {}),
      isAdmin,
      setUp: deps.workspaceSetup.mode,
      ...(known?.pending ? { requestWaiting: true } : {}),
    }),
  });
};

/** `/care whoami`: linked to whom, or not linked (and whether a request is waiting for an admin). */
export const whoami: CommandHandler<'whoami'> = async (_cmd, ctx, deps) => {
  const link = await deps.identity.getLink(actorOf(ctx));
  if (!link) {
    const pending = await deps.identity.pendingRequestOf(actorOf(ctx));
    await ctx.reply({
      text: pending
        ? `Your Slack account is not linked yet: your request to link it, sent ${slackDate(new Date(pending.requestedAt), deps.timezone)}, is waiting for an admin. You will get a message when it is decided; nothing more to do meanwhile.`
        : 'Your Slack account is not linked to the care system. Type `/care link`: it matches your Slack email, or asks an admin.',
    });
    return;
  }
  const name = await deps.identity.careUserName(link.careUserId);
  // Who linked it is cleared when that person's data is erased (services/evidence/person-data.ts).
  const by = link.linkedBy ? `<@${link.linkedBy}>` : 'an admin';
  const how = link.method === 'email' ? 'email match' : link.method === 'admin' ? by : `request approved by ${by}`;
  await ctx.reply({ text: `You are linked to ${name ? `*${userText(name, 100)}* ` : ''}(care user \`${link.careUserId}\`), by ${how}.` });
};

/** `/care link [care user Id]` (yourself) and, for admins, `/care link @person <care user Id>`. */
export const link: CommandHandler<'link'> = async (cmd, ctx, deps) => {
  const actor = actorOf(ctx);
  if (cmd.target) {
    const made = await deps.identity.adminLink(actor, cmd.target.slackUserId, cmd.target.careUserId);
    const user = (await deps.identity.careUsers([made.careUserId])).get(made.careUserId);
    const to = { careUserId: made.careUserId, careUserName: user?.name, careUserEmail: user?.email, by: ctx.userId };
    const told = made.slackUserId === ctx.userId ? '' : ' They were told whose care account it is.';
    await ctx.reply({ text: `Linked <@${made.slackUserId}> to the care account of ${careAccountText(to)}.${told}` });
    if (made.slackUserId !== ctx.userId) await deps.slack.chat.postMessage({ channel: made.slackUserId, text: linkedNotice(to) });
    await publishHome(deps, ctx.teamId, made.slackUserId);
    return;
  }
  const result = await deps.identity.linkSelf(actor, cmd.requestedCareUserId);
  if (result.kind === 'already') {
    await ctx.reply({ text: 'Your account is already linked. `/care whoami` shows to whom; `/care unlink` undoes it.' });
  } else if (result.kind === 'linked') {
    const account = careAccountText({ careUserId: result.link.careUserId, careUserName: result.careUserName, careUserEmail: result.careUserEmail });
    await ctx.reply({ text: `:link: Linked: your Slack email matches ${account} in the care system.` });
    await publishHome(deps, ctx.teamId, ctx.userId);
  } else if (result.kind === 'taken') {
    const { careUserName, linkedTo } = result.error;
    await ctx.reply({
      text: `Your Slack email matches *${userText(careUserName, 100)}* in the care system, but that care account is already linked to <@${linkedTo}>, so I did not link you. If it is yours, ask an admin: they can unlink it and link you.`,
    });
  } else {
    const why = WHY_REQUESTED[result.reason];
    if (result.created) await notifyAdmins(deps, String(result.request.id), ctx.userId, result.request.careUserId);
    await ctx.reply({
      text: `${why.charAt(0).toUpperCase()}${why.slice(1)}, so I have asked an admin to link you${result.created ? '' : ' (your request is still waiting)'}. You will get a message when it is done.`,
    });
    // The Home tab says the request is waiting, instead of "Type /care link".
    if (result.created) await publishHome(deps, ctx.teamId, ctx.userId);
  }
};

/** `/care unlink` (yourself) or, for admins, `/care unlink @person`. */
export const unlink: CommandHandler<'unlink'> = async (cmd, ctx, deps) => {
  const target = cmd.slackUserId ?? ctx.userId;
  const removed = await deps.identity.unlink(actorOf(ctx), target);
  const none =
    target === ctx.userId
      ? 'Your account was not linked, so there was nothing to unlink. `/care whoami` shows where you stand.'
      : `<@${target}> was not linked, so there was nothing to unlink. \`/care links\` lists who is.`;
  await ctx.reply({ text: removed ? (target === ctx.userId ? 'Your account is unlinked.' : `<@${target}> is unlinked.`) : none });
  if (removed) await publishHome(deps, ctx.teamId, target);
};

/** `/care links` (admins): every link with Unlink buttons, and the requests waiting. */
export const links: CommandHandler<'links'> = async (_cmd, ctx, deps) => {
  const { links: rows, pending } = await deps.identity.listLinks(actorOf(ctx));
  const blocks = linksBlocks(rows);
  if (pending.length) {
    blocks.push(
      section(
        `${pending.length} link request(s) waiting: ${pending
          .slice(0, 10)
          .map((p) => `<@${p.slackUserId}>`)
          .join(', ')}`,
      ),
    );
  }
  await ctx.reply({ text: 'Linked accounts', blocks });
};

/** Tell each admin in a DM who asks (Slack name and email), with Approve / Reject buttons. */
async function notifyAdmins(deps: SlackDeps, requestId: string, requester: string, careUserId: string | null): Promise<void> {
  const [profile, named] = await Promise.all([
    deps.profiles.get(requester).catch(() => null),
    careUserId ? deps.identity.careUserName(careUserId) : Promise.resolve(undefined),
  ]);
  const who = { slackUserId: requester, ...(profile ? { name: profile.name, email: profile.email } : {}) };
  const candidate = careUserId ? { id: careUserId, ...(named ? { name: named } : {}) } : undefined;
  for (const adminId of deps.identity.adminIds()) {
    try {
      await deps.slack.chat.postMessage({
        channel: adminId,
        text: `<@${requester}> asks to link their Slack account to the care system.`,
        blocks: linkRequestBlocks(requestId, who, candidate),
      });
    } catch (err) {
      deps.logger.warn('could not tell an admin about a link request', { requestId, error: err });
    }
  }
}
