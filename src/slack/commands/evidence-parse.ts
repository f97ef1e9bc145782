import { type Command, error, USAGE } from './command.js';
import { truncateToken } from './words.js';

/** `/care evidence` (admins): the range, the place and the flag, in any order. Pure. */

const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/;

/** `/care evidence [from DATE] [to DATE] [location <name>] [--with-tasks]`, in any order. */
export function parseEvidence(args: string[]): Command {
  const out: { from?: string; to?: string; location?: string; withTasks: boolean } = { withTasks: false };
  const usage = `\`${USAGE.evidence}\``;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const lower = word.toLowerCase();
    if (lower === '--with-tasks') out.withTasks = true;
    else if (lower === 'from' || lower === 'to') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) return error(`Give a date after \`${lower}\`, as YYYY-MM-DD: ${usage}`);
      if (out[lower] !== undefined) return error(`\`${lower}\` is given twice: give one date for each end of the range. ${usage}`);
      out[lower] = value;
      i += 1;
    } else if (lower === 'location') {
      // The name runs to the next option (`from`/`to` with a date, or a --flag).
      const words: string[] = [];
      while (i + 1 < args.length) {
        const next = args[i + 1]!;
        const nextLower = next.toLowerCase();
        if (next.startsWith('--') || ((nextLower === 'from' || nextLower === 'to') && DATE_LIKE.test(args[i + 2] ?? ''))) break;
        words.push(next);
        i += 1;
      }
      if (words.length === 0) return error(`Name the location after \`location\`; \`/care locations\` lists them. ${usage}`);
      out.location = words.join(' ');
    } else if (lower.startsWith('--')) return error(`I don't know \`${truncateToken(word)}\`: the one flag is --with-tasks. ${usage}`);
    else if (DATE_LIKE.test(word))
      return error(`Say which end of the range \`${truncateToken(word)}\` is: \`from ${truncateToken(word)}\` or \`to ${truncateToken(word)}\`. ${usage}`);
    else return error(`I did not understand \`${truncateToken(word)}\` here: ${usage}`);
  }
  return { kind: 'evidence', ...out };
}
