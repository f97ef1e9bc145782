import type { Command } from '../../commands/parse.js';
import type { CommandContext, SlackDeps } from '../../deps.js';
import { helpBlocks } from '../../views/help.js';
import { linkRequestBlocks, linksBlocks } from '../../views/links.js';
import { section } from '../../views/blocks.js';
import { userText } from '../../text.js';
import { publishHome } from '../../home.js';

/** help, link, unlink, whoami, links. */
export async function handleAccountCommand(cmd: Command, ctx: CommandContext, deps: SlackDeps): Promise<boolean> {
  const actor = { teamId: ctx.teamId, userId: ctx.userId };
  switch (cmd.kind) {
    case 'help': {
      const [link, isAdmin] = await Promise.all([deps.identity.getLink(actor), deps.identity.isAdmin(actor)]);
      const careUserName = link ? await deps.identity.careUserName(link.careUserId) : undefined;
      await ctx.reply({
        text: 'What /care can do',
        blocks: helpBlocks({ linked: Boolean(link), ...(careUserName ? { careUserName } : {}), isAdmin }),
      });
      return true;
    }
    case 'whoami': {
      const link = await deps.identity.getLink(actor);
      if (!link) {
        await ctx.reply({ text: 'Your Slack account is not linked to the care system. Type `/care link`.' });
        return true;
      }
      const name = await deps.identity.careUserName(link.careUserId);
      await ctx.reply({
        text: `You are linked to ${name ? `*${userText(name, 100)}* ` : ''}(care user \`${link.careUserId}\`), by ${link.method === 'email' ? 'email match' : link.method === 'admin' ? `<@${link.linkedBy}>` : `request approved by <@${link.linkedBy}>`}.`,
      });
      return true;
    }
    case 'link': {
      if (cmd.target) {
        const link = await deps.identity.adminLink(actor, cmd.target.slackUserId, cmd.target.careUserId);
        await ctx.reply({ text: `Linked <@${link.slackUserId}> to care user \`${link.careUserId}\`.` });
        await publishHome(deps, ctx.teamId, link.slackUserId);
        return true;
      }
      const result = await deps.identity.linkSelf(actor, cmd.requestedCareUserId);
      if (result.kind === 'already') {
        await ctx.reply({ text: 'Your account is already linked. `/care whoami` shows to whom; `/care unlink` undoes it.' });
      } else if (result.kind === 'linked') {
        await ctx.reply({ text: `:link: Linked: your Slack email matches *${userText(result.careUserName, 100)}* in the care system.` });
        await publishHome(deps, ctx.teamId, ctx.userId);
      } else {
        const why = {
          'no-users-permission': 'I cannot look people up in the care system',
          'no-email-match': 'no care user has your Slack email address',
          'no-email': 'your Slack profile has no email I can read',
        }[result.reason];
        if (result.created) await notifyAdmins(deps, String(result.request.id), ctx.userId, result.request.careUserId);
        await ctx.reply({
          text: `${why.charAt(0).toUpperCase()}${why.slice(1)}, so I have asked an admin to link you${result.created ? '' : ' (your request is still waiting)'}. You will get a message when it is done.`,
        });
      }
      return true;
    }
    case 'unlink': {
      const target = cmd.slackUserId ?? ctx.userId;
      const removed = await deps.identity.unlink(actor, target);
      await ctx.reply({ text: removed ? (target === ctx.userId ? 'Your account is unlinked.' : `<@${target}> is unlinked.`) : 'There was no link to remove.' });
      if (removed) await publishHome(deps, ctx.teamId, target);
      return true;
    }
    case 'links': {
      await deps.identity.requireAdmin(actor);
      const links = await deps.store.listLinks(ctx.teamId);
      const names = await deps.identity.careUserNames(links.map((l) => l.careUserId));
      const rows = links.map((l) => ({
        slackUserId: l.slackUserId,
        careUserId: l.careUserId,
        ...(names.get(l.careUserId) ? { careUserName: names.get(l.careUserId)! } : {}),
        method: l.method,
        createdBy: l.linkedBy,
        createdAt: l.linkedAt,
      }));
      const pending = await deps.store.listLinkRequests({ state: 'pending', teamId: ctx.teamId });
      const blocks = linksBlocks(rows);
      if (pending.length)
        blocks.push(
          section(
            `${pending.length} link request(s) waiting: ${pending
              .slice(0, 10)
              .map((p) => `<@${p.slackUserId}>`)
              .join(', ')}`,
          ),
        );
      await ctx.reply({ text: 'Linked accounts', blocks });
      return true;
    }
    default:
      return false;
  }
}

/** Tell each admin in a DM, with Approve / Reject buttons. */
export async function notifyAdmins(deps: SlackDeps, requestId: string, requester: string, careUserId: string | null): Promise<void> {
  for (const adminId of deps.identity.adminIds()) {
    try {
      await deps.slack.chat.postMessage({
        channel: adminId,
        text: `<@${requester}> asks to link their Slack account to the care system.`,
        blocks: linkRequestBlocks(requestId, requester, careUserId ? { id: careUserId } : undefined),
      });
    } catch (err) {
      deps.logger.warn('could not tell an admin about a link request', { requestId, error: err });
    }
  }
}
