import { literatureBlocks, locationsBlocks } from '../../views/directory.js';
import type { CommandHandler } from '../../deps.js';

/** `/care locations [words]` */
export const locations: CommandHandler<'locations'> = async (cmd, ctx, deps) => {
  await ctx.reply({ text: 'Locations', blocks: locationsBlocks(await deps.directory.locations(cmd.words), cmd.words) });
};

/** `/care literature [words]` */
export const literature: CommandHandler<'literature'> = async (cmd, ctx, deps) => {
  await ctx.reply({ text: 'Literature', blocks: literatureBlocks(await deps.directory.literature(cmd.words), cmd.words) });
};
