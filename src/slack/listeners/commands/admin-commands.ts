import type { Digests } from '../../../services/digests.js';
import type { DigestFilters } from '../../../store/index.js';
import { nextOccurrence } from '../../../time/schedule.js';
import { slackDate } from '../../../time/slack-date.js';
import type { AdminCommandHandler, SlackDeps } from '../../deps.js';
import { userText } from '../../text.js';

const describeFilters = (f: DigestFilters) =>
  f.urgentOnly
    ? 'urgent only (and live urgent alerts)'
    : f.mineOnly
      ? 'actions of the person who set it up'
      : f.slackUserIds?.length
        ? `actions of ${f.slackUserIds.map((u) => `<@${u}>`).join(' ')}`
        : f.locationName
          ? `location ${userText(String(f.locationName), 80)}`
          : 'all actions';

/** `/care digest …` and `/care route …`: admin configuration of what goes to which channel. */
export function createAdminCommands(deps: SlackDeps, digests: Digests): AdminCommandHandler {
  return async (ctx, cmd) => {
    if (!['digest-here', 'digest-off', 'digest-list', 'digest-now', 'route', 'route-off', 'routes'].includes(cmd.kind)) return false;
    const actor = { teamId: ctx.teamId, userId: ctx.userId };
    await deps.identity.requireAdmin(actor);
    const audit = (verb: string, details: Record<string, unknown>) => deps.store.appendAudit({ teamId: ctx.teamId, userId: ctx.userId, verb, details });

    switch (cmd.kind) {
      case 'digest-here': {
        const info = await deps.channels.info(ctx.channelId).catch(() => null);
        if (!info?.isMember) {
          // A digest the app cannot post would be lost every morning: say so now.
          await ctx.reply({ text: 'I am not in this channel, so I could not post its digest. Invite me first (`/invite @Care Actions`), then try again.' });
          return true;
        }
        const filters: DigestFilters = {};
        if (cmd.filter.type === 'mine-only') filters.mineOnly = true;
        if (cmd.filter.type === 'urgent-only') filters.urgentOnly = true;
        if (cmd.filter.type === 'users') filters.slackUserIds = cmd.filter.slackUserIds;
        if (cmd.filter.type === 'location') {
          const name = cmd.filter.name;
          const matches = await deps.directory.locations(name);
          const found = matches.find((l) => (l.name ?? '').toLowerCase() === name.toLowerCase()) ?? matches[0];
          if (!found) {
            await ctx.reply({ text: `No location is called “${userText(name, 80)}”. \`/care locations\` lists them.` });
            return true;
          }
          filters.locationId = found.id;
          filters.locationName = found.name ?? name;
        }
        const sub = await deps.store.upsertSubscription({
          teamId: ctx.teamId,
          channelId: ctx.channelId,
          time: cmd.time,
          days: cmd.days,
          timeZone: deps.timezone,
          filters,
          showTaskText: cmd.showTasks,
          postWhenEmpty: !cmd.quietWhenEmpty,
          urgentAlerts: cmd.filter.type === 'urgent-only',
          channelPrivate: info.isPrivate,
          setUpBy: ctx.userId,
        });
        await audit('subscription.set', { channelId: ctx.channelId, time: sub.time, days: sub.days, filters, showTaskText: sub.showTaskText });
        const unlinked = [];
        for (const u of filters.slackUserIds ?? []) if (!(await deps.identity.getLink({ teamId: ctx.teamId, userId: u }))) unlinked.push(`<@${u}>`);
        const next = nextOccurrence({ time: sub.time, days: sub.days, timezone: sub.timeZone }, deps.now());
        const privacy = info.isPrivate
          ? 'Task text is shown (private channel).'
          : sub.showTaskText
            ? 'Task text is shown here, as you chose with --show-tasks.'
            : 'Task text is hidden here (public channel); numbers, due times and assignees only.';
        await ctx.reply({
          text: `Digest set for this channel: ${sub.time} ${sub.days} (${sub.timeZone}), ${describeFilters(filters)}. Next: ${slackDate(next.at, sub.timeZone)}. ${privacy}${unlinked.length ? ` Not linked yet, so not covered: ${unlinked.join(' ')}.` : ''}`,
        });
        return true;
      }
      case 'digest-off': {
        const removed = await deps.store.deleteSubscription(ctx.teamId, ctx.channelId);
        if (removed) await audit('subscription.remove', { channelId: ctx.channelId });
        await ctx.reply({ text: removed ? 'This channel will get no more digests.' : 'This channel had no digest.' });
        return true;
      }
      case 'digest-list': {
        const subs = await deps.store.listSubscriptions(ctx.teamId);
        await ctx.reply({
          text: subs.length
            ? subs
                .map(
                  (s) =>
                    `<#${s.channelId}>: ${s.time} ${s.days} (${s.timeZone}), ${describeFilters(s.filters)}${s.showTaskText ? ', task text shown' : ''}, set by <@${s.setUpBy}>`,
                )
                .join('\n')
            : 'No channel has a digest yet. `/care digest here` sets one up.',
        });
        return true;
      }
      case 'digest-now': {
        const sub = await deps.store.getSubscription(ctx.teamId, ctx.channelId);
        if (!sub) {
          await ctx.reply({ text: 'This channel has no digest. Set one up with `/care digest here`.' });
          return true;
        }
        const report = await digests.postNow(sub, deps.now());
        const posted = (report.results.sent ?? 0) > 0;
        await ctx.reply({
          text: posted
            ? 'Digest posted.'
            : report.results['empty-skipped']
              ? 'Nothing is due, and this digest stays quiet when empty.'
              : 'The digest could not be posted; it is logged for your admin.',
        });
        return true;
      }
      case 'route': {
        const target = await deps.channels.info(cmd.channelId).catch(() => null);
        if (!target?.isMember) {
          await ctx.reply({ text: `I am not in <#${cmd.channelId}>, so I could not post there. Invite me to it first, then try again.` });
          return true;
        }
        const group = await deps.directory.groupByName(cmd.groupName);
        if (!group) {
          await ctx.reply({ text: `No notification group is called “${userText(cmd.groupName, 80)}”.` });
          return true;
        }
        await deps.store.upsertRoute({ teamId: ctx.teamId, groupId: group.id, groupName: group.name, channelId: cmd.channelId, setUpBy: ctx.userId });
        await audit('route.set', { groupId: group.id, channelId: cmd.channelId });
        await ctx.reply({ text: `Completions notified to *${userText(group.name, 80)}* will also be posted in <#${cmd.channelId}>.` });
        return true;
      }
      case 'route-off': {
        const group = await deps.directory.groupByName(cmd.groupName);
        const removed = group ? await deps.store.deleteRoute(ctx.teamId, group.id) : false;
        if (removed) await audit('route.remove', { groupId: group!.id });
        await ctx.reply({ text: removed ? 'Route removed.' : 'There was no such route.' });
        return true;
      }
      case 'routes': {
        const routes = await deps.store.listRoutes(ctx.teamId);
        await ctx.reply({
          text: routes.length
            ? routes.map((r) => `*${userText(r.groupName, 80)}* → <#${r.channelId}> (set by <@${r.setUpBy}>)`).join('\n')
            : 'No notification group is routed to a channel yet.',
        });
        return true;
      }
      default:
        return false;
    }
  };
}
