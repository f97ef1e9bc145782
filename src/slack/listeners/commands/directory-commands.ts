import type { Command } from '../../commands/parse.js';
import type { CommandContext, SlackDeps } from '../../deps.js';
import { literatureBlocks, locationsBlocks } from '../../views/directory.js';

/** locations, literature. */
export async function handleDirectoryCommand(cmd: Command, ctx: CommandContext, deps: SlackDeps): Promise<boolean> {
  if (cmd.kind === 'locations') {
    await ctx.reply({ text: 'Locations', blocks: locationsBlocks(await deps.directory.locations(cmd.words), cmd.words) });
    return true;
  }
  if (cmd.kind === 'literature') {
    await ctx.reply({ text: 'Literature', blocks: literatureBlocks(await deps.directory.literature(cmd.words), cmd.words) });
    return true;
  }
  return false;
}
