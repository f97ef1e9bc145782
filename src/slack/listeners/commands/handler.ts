import type { Command } from '../../commands/command.js';
import type { CommandContext, SlackDeps } from '../../deps.js';

/** The kinds of `/care` command a handler answers (parse errors are answered by the dispatcher). */
export type CommandKind = Exclude<Command['kind'], 'error'>;

/** Answers one kind of parsed `/care` command. Errors it throws become a sentence for the person. */
export type CommandHandler<K extends CommandKind> = (cmd: Command & { kind: K }, ctx: CommandContext, deps: SlackDeps) => Promise<void>;
