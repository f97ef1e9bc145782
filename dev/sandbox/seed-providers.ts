import { Rng } from './random.js';
import { DEMO_EMAIL_DOMAIN, DEMO_PEOPLE, type DemoPerson, type LocationKey } from './seed-people.js';

/** How one location of a provider is called. */
export interface PlaceNaming {
  /** e.g. `Willow Bank Care Home`. */
  name: string;
  /** e.g. `Willow Bank` (in group and literature names). */
  short: string;
  /** e.g. `WB`. */
  ref: string;
}

/**
 * The names of one sandbox account's care provider: the same shape of
 * business as the demo (same roles, locations and groups), with its own name,
 * email domain, staff and places, so tests with several accounts can tell
 * their data apart.
 */
export interface ProviderProfile {
  name: string;
  emailDomain: string;
  /** Same order, roles and locations as DEMO_PEOPLE. */
  people: readonly DemoPerson[];
  places: Readonly<Record<LocationKey, PlaceNaming>>;
  /** The company of the separately branded home (`beeches`). */
  brandCompany: string;
}

export const BRIGHTWATER: ProviderProfile = {
  name: 'Brightwater Care',
  emailDomain: DEMO_EMAIL_DOMAIN,
  people: DEMO_PEOPLE,
  places: {
    willow: { name: 'Willow Bank Care Home', short: 'Willow Bank', ref: 'WB' },
    heather: { name: 'Heather Lodge Nursing Home', short: 'Heather Lodge', ref: 'HL' },
    beeches: { name: 'The Beeches', short: 'The Beeches', ref: 'TB' },
    homecare: { name: 'Brightwater Home Care (Gloucester office)', short: 'Home care', ref: 'BHC' },
    orchard: { name: 'Orchard House', short: 'Orchard House', ref: 'OH' },
  },
  brandCompany: 'Beeches Living Ltd',
};

const PROVIDER_NAMES = [
  'Oakfield Care',
  'Riverside Living',
  'Meadowbrook Care',
  'Kingfisher Care Group',
  'Harbour View Care',
  'Ashgrove Healthcare',
  'Larkspur Care',
  'Stonebridge Care',
  'Fernhill Care',
  'Bluebell Care Homes',
  'Millbrook Care',
  'Hollybank Care',
];

const STEMS = [
  'Alder',
  'Birch',
  'Cedar',
  'Elm',
  'Hazel',
  'Larch',
  'Maple',
  'Rowan',
  'Yew',
  'Holly',
  'Poplar',
  'Juniper',
  'Linden',
  'Aspen',
  'Hawthorn',
  'Chestnut',
];

// Disjoint from the demo staff's names, so no person of another account shares a demo name.
const FIRST_NAMES = [
  'Abigail',
  'Adam',
  'Alice',
  'Arjun',
  'Bethany',
  'Carys',
  'Connor',
  'Dylan',
  'Eleanor',
  'Ethan',
  'Freya',
  'Gabriel',
  'Harriet',
  'Isaac',
  'Imran',
  'Jasmine',
  'Kieran',
  'Leah',
  'Maya',
  'Nathan',
  'Niamh',
  'Owen',
  'Phoebe',
  'Ravi',
  'Rosie',
  'Samuel',
  'Tariq',
  'Violet',
  'William',
  'Yusuf',
];
const LAST_NAMES = [
  'Atkinson',
  'Barker',
  'Chowdhury',
  'Dixon',
  'Ellis',
  'Foster',
  'Gill',
  'Harper',
  'Ibrahim',
  'Jones',
  'Kelly',
  'Lambert',
  'McKenzie',
  'Nwosu',
  'Osei',
  'Palmer',
  'Quinn',
  'Reynolds',
  'Saunders',
  'Taylor',
  'Underwood',
  'Vaughan',
  'Watts',
  'Young',
  'Zielinski',
  'Brennan',
  'Doyle',
  'Kaur',
  'Lowe',
  'Pritchard',
];

function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const initials = (words: string) =>
  words
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .toUpperCase();

/**
 * The provider of account `index` (0-based): 0 is Brightwater Care (the demo);
 * others are named from a list (with a number once the list is used up:
 * `Oakfield Care 2`), with staff and place names drawn from pools by the index.
 * Same index, same provider.
 */
export function providerFor(index: number): ProviderProfile {
  if (index <= 0) return BRIGHTWATER;
  const round = Math.floor((index - 1) / PROVIDER_NAMES.length);
  const base = PROVIDER_NAMES[(index - 1) % PROVIDER_NAMES.length] as string;
  const name = round === 0 ? base : `${base} ${round + 1}`;
  const emailDomain = `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.example`;
  const rng = new Rng(0x5eed + index * 7919);
  const stems = shuffled(STEMS, rng);
  const firsts = shuffled(FIRST_NAMES, rng);
  const lasts = shuffled(LAST_NAMES, rng);
  const people = DEMO_PEOPLE.map((p, i) => {
    const first = firsts[i] as string;
    const last = lasts[i] as string;
    return { ...p, first_name: first, last_name: last, email: `${`${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '')}@${emailDomain}` };
  });
  const place = (short: string, suffix: string): PlaceNaming => ({ name: suffix ? `${short} ${suffix}` : short, short, ref: initials(short) });
  return {
    name,
    emailDomain,
    people,
    places: {
      willow: place(`${stems[0]} Bank`, 'Care Home'),
      heather: place(`${stems[1]} Lodge`, 'Nursing Home'),
      beeches: place(`${stems[2]} Court`, ''),
      homecare: { name: `${name} Home Care (Gloucester office)`, short: 'Home care', ref: `${initials(base)}HC` },
      orchard: place(`${stems[3]} House`, ''),
    },
    brandCompany: `${stems[2]} Court Living Ltd`,
  };
}
