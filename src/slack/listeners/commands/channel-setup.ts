import type { DigestFilters } from '../../../store/index.js';
import { slackDate } from '../../../time/slack-date.js';
import { describeShifts } from '../../../time/shifts.js';
import { isShiftStart } from '../../../time/start-time.js';
import { USAGE } from '../../commands/command.js';
import type { CommandContext, CommandHandler } from '../../deps.js';
import { escapeMrkdwn, userText } from '../../text.js';
import { nameProblemText } from '../../views/name-lookup.js';
import { section } from '../../views/blocks.js';
import { showTasksQuestion } from '../../views/show-tasks.js';
import { describeSummarySchedule } from '../../views/summary-setting.js';

const adminOf = (ctx: CommandContext) => ({ userId: ctx.userId });

const describeFilters = (f: DigestFilters) =>
  f.urgentOnly
    ? 'urgent only (and live urgent alerts)'
    : f.mineOnly
      ? 'actions of the person who set it up'
      : f.slackUserIds?.length
        ? `actions of ${f.slackUserIds.map((u) => `<@${u}>`).join(' ')}`
        : f.locationName
          ? `location ${userText(String(f.locationName), 80)}`
          : f.residentId
            ? `resident \`${userText(String(f.residentId), 30)}\``
            : 'all actions';

/** `/care digest here [HH:MM|shift-start|at <shift> start] [daily|weekdays] [filter] [--show-tasks] [--quiet]` */
export const digestHere: CommandHandler<'digest-here'> = async (cmd, ctx, deps) => {
  const result = await deps.channelSetup.setDigest(adminOf(ctx), {
    channelId: ctx.channelId,
    time: cmd.time,
    days: cmd.days,
    scope: cmd.filter,
    showTasks: cmd.showTasks,
    quietWhenEmpty: cmd.quietWhenEmpty,
  });
  if (result.kind === 'not-member') {
    await ctx.reply({ text: 'I am not in this channel, so I could not post its digest. Invite me first (`/invite @Care Actions`), then try again.' });
    return;
  }
  if (result.kind === 'no-such-location') {
    await ctx.reply({ text: `No location is called “${userText(result.name, 80)}”. \`/care locations\` lists them.` });
    return;
  }
  if (result.kind === 'no-such-shift') {
    await ctx.reply({
      text: `No shift is called “${userText(result.name, 24)}”; the shifts are ${userText(describeShifts(result.shifts), 400)}. E.g. \`/care digest here at ${userText(result.shifts[0]?.name ?? 'Day', 24)} start\`, or \`/care digest here shift-start\` for every shift’s start.`,
    });
    return;
  }
  if (result.kind === 'person-name' || result.kind === 'channel-name') {
    // A word that is no option was taken as a person's name: say how the options go too.
    const optionsToo = result.lookup.kind === 'unknown' && result.lookup.near.length === 0 ? ` The options are: \`${escapeMrkdwn(USAGE.digest)}\`` : '';
    await ctx.reply({ text: `${nameProblemText(result)}${optionsToo}` });
    return;
  }
  const sub = result.subscription;
  const privacy = result.isPrivate
    ? 'Task text is shown (private channel).'
    : result.showTasksPending
      ? 'Task text stays hidden until you confirm below.'
      : 'Task text is hidden here (public channel); numbers, due times and assignees only.';
  const unlinked = result.unlinkedSlackUserIds.length ? ` Not linked yet, so not covered: ${result.unlinkedSlackUserIds.map((u) => `<@${u}>`).join(' ')}.` : '';
  const schedule = describeSummarySchedule({ time: sub.time, days: sub.days, timezone: sub.timeZone, shifts: result.shifts });
  // How to say when otherwise: the clock-time answer names the shift starts, a shift-start answer the clock time.
  const other = isShiftStart(sub.time)
    ? ' (`/care digest here 08:00` for a clock time instead; `/care shifts` shows the shifts.)'
    : ' (`/care digest here shift-start` posts at each shift start instead.)';
  const text = `Digest set for this channel: ${schedule}, ${describeFilters(sub.filters)}. Next: ${slackDate(result.next, sub.timeZone)}.${other} ${privacy}${unlinked}`;
  await ctx.reply(result.showTasksPending ? { text, blocks: [section(text), ...showTasksQuestion(ctx.channelId, sub.setUpAt)] } : { text });
};

/** `/care digest off` */
export const digestOff: CommandHandler<'digest-off'> = async (_cmd, ctx, deps) => {
  const removed = await deps.channelSetup.removeDigest(adminOf(ctx), ctx.channelId);
  await ctx.reply({
    text: removed ? 'This channel will get no more digests.' : 'This channel had no digest to stop. `/care digest list` shows which channels have one.',
  });
};

/** `/care digest list` */
export const digestList: CommandHandler<'digest-list'> = async (_cmd, ctx, deps) => {
  const subs = await deps.channelSetup.listDigests(adminOf(ctx));
  const shifts = subs.some((s) => isShiftStart(s.time)) ? (await deps.shifts.now()).shifts : undefined;
  await ctx.reply({
    text: subs.length
      ? subs
          .map(
            (s) =>
              `<#${s.channelId}>: ${describeSummarySchedule({ time: s.time, days: s.days, timezone: s.timeZone, shifts })}, ${describeFilters(s.filters)}${s.showTaskText ? ', task text shown' : ''}, set by <@${s.setUpBy}>`,
          )
          .join('\n')
      : 'No channel has a digest yet. `/care digest here` sets one up.',
  });
};

const DIGEST_NOW_ANSWERS = {
  posted: 'Digest posted.',
  empty: 'Nothing is due, and this digest stays quiet when empty. To post even then, set it again without --quiet: `/care digest here`.',
  failed:
    'The digest could not be posted; the reason is logged for your admin. Try `/care digest now` again in a minute; if it fails again, check I am still in this channel.',
  'no-digest': 'This channel has no digest. Set one up with `/care digest here`.',
} as const;

/** `/care digest now` */
export const digestNow: CommandHandler<'digest-now'> = async (_cmd, ctx, deps) => {
  await ctx.reply({ text: DIGEST_NOW_ANSWERS[await deps.channelSetup.postDigestNow(adminOf(ctx), ctx.channelId)] });
};

/** `/care route <group> <channel>`: the channel as a mention, `#name` or `name`. */
export const route: CommandHandler<'route'> = async (cmd, ctx, deps) => {
  const result = await deps.channelSetup.setRoute(adminOf(ctx), cmd.groupName, cmd.channel);
  let text: string;
  switch (result.kind) {
    case 'channel-name':
    case 'person-name':
      text = nameProblemText(result);
      break;
    case 'not-member':
      text = `I am not in <#${result.channelId}>, so I could not post there. Invite me to it first (\`/invite @Care Actions\` in that channel), then try again.`;
      break;
    case 'no-such-group':
      text = `No notification group is called “${userText(cmd.groupName, 80)}”.${
        result.groups.length
          ? ` The groups${result.groups.length === 10 ? ' include' : ' are'}: ${result.groups.map((g) => `*${userText(g, 60)}*`).join(', ')}.`
          : ''
      } Type the group's name as the care system has it, then the channel: \`/care route &lt;group name&gt; #channel\`.`;
      break;
    default:
      text = `Completions notified to *${userText(result.route.groupName, 80)}* will also be posted in <#${result.route.channelId}>.`;
  }
  await ctx.reply({ text });
};

/** `/care route off <group>` */
export const routeOff: CommandHandler<'route-off'> = async (cmd, ctx, deps) => {
  const removed = await deps.channelSetup.removeRoute(adminOf(ctx), cmd.groupName);
  await ctx.reply({
    text: removed ? 'Route removed.' : `No route for “${userText(cmd.groupName, 80)}” to remove. \`/care routes\` lists the routes, by group name.`,
  });
};

/** `/care routes` */
export const routes: CommandHandler<'routes'> = async (_cmd, ctx, deps) => {
  const all = await deps.channelSetup.listRoutes(adminOf(ctx));
  await ctx.reply({
    text: all.length
      ? all.map((r) => `*${userText(r.groupName, 80)}* → <#${r.channelId}> (set by <@${r.setUpBy}>)`).join('\n')
      : 'No notification group is routed to a channel yet. `/care route &lt;group name&gt; #channel` sets one up.',
  });
};
