/**
 * Narrowing a person's lists (`/care mine`, `/care due …`, the Home tab) to one
 * location or one resident: `location <name>` is found the way a channel
 * digest's `location <name>` is (the care system's locations, by name); a
 * resident by their service user Id (the care API has no way to look residents
 * up by name). An unknown name is one sentence naming the close matches.
 */
import type { DirectoryService } from '../people/directory.js';
import { UserFacingError } from '../errors.js';

/** As typed after the command. */
export type WhereRef = { type: 'location'; name: string } | { type: 'resident'; ref: string };

/** As resolved: what the lists keep. */
export type ListWhere = { type: 'location'; id: string; name: string } | { type: 'resident'; id: string };

const CARE_ID = /^[0-9a-f]{24}$/;

/** A location by name (exact first, else the one match), or a sentence naming the close ones. */
export async function resolveWhere(directory: Pick<DirectoryService, 'locations'>, ref: WhereRef): Promise<ListWhere> {
  if (ref.type === 'resident') {
    const id = ref.ref.trim().toLowerCase();
    if (CARE_ID.test(id)) return { type: 'resident', id };
    throw new UserFacingError(
      `I cannot look residents up by name (the care system does not offer it): give the resident’s Id, the 24 letters and digits on their page in the care system, e.g. \`/care mine resident 0123456789abcdef01234567\`.`,
    );
  }
  const typed = ref.name.trim();
  const matches = await directory.locations(typed);
  const exact = matches.filter((l) => (l.name ?? '').toLowerCase() === typed.toLowerCase());
  const found = exact.length ? exact : matches.length === 1 ? matches : [];
  if (found.length === 1 || exact.length) return { type: 'location', id: found[0]!.id, name: found[0]!.name ?? typed };
  // None or several: the near ones (any one word of the name), named back.
  const near = new Map<string, string>();
  for (const l of matches) near.set(l.id, l.name ?? l.id);
  if (!near.size)
    for (const word of typed.split(/\s+/).filter((w) => w.length >= 3)) for (const l of await directory.locations(word)) near.set(l.id, l.name ?? l.id);
  const names = [...near.values()].slice(0, 6);
  throw new UserFacingError(
    names.length
      ? `No location is called “${typed}”. Did you mean ${names.join(', ')}? Type the name as \`/care locations\` lists it.`
      : `No location is called “${typed}”. \`/care locations\` lists them.`,
  );
}
