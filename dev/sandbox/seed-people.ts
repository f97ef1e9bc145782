/**
 * The demo provider's staff. Exported as DEMO_USERS so the Slack demo
 * workspace can create the same people (same emails, so users.lookupByEmail
 * joins them to the care system's users).
 */
export interface DemoUser {
  first_name: string;
  last_name: string;
  email: string;
}

/** Location keys of the demo provider (see seed-places.ts). */
export type LocationKey = 'willow' | 'heather' | 'beeches' | 'homecare' | 'orchard';

export interface DemoPerson extends DemoUser {
  location_role: string;
  locations: readonly LocationKey[];
  mobile: string;
}

export const DEMO_EMAIL_DOMAIN = 'brightwatercare.example';

const person = (first: string, last: string, role: string, locations: LocationKey[], n: number): DemoPerson => ({
  first_name: first,
  last_name: last,
  email: `${`${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '')}@${DEMO_EMAIL_DOMAIN}`,
  location_role: role,
  locations,
  // Ofcom's drama range: never a real number.
  mobile: `+447700900${String(100 + n * 7).padStart(3, '0')}`,
});

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  person('Amelia', 'Hughes', 'manager', ['willow'], 1),
  person('Daniel', 'Okafor', 'deputy_manager', ['willow'], 2),
  person('Priya', 'Sharma', 'nurse', ['heather'], 3),
  person('Tom', 'Gallagher', 'manager', ['heather'], 4),
  person('Sophie', 'Marsh', 'senior_carer', ['willow'], 5),
  person('Marek', 'Nowak', 'carer', ['beeches'], 6),
  person('Grace', 'Adeyemi', 'manager', ['beeches'], 7),
  person('Oliver', 'Bennett', 'care_coordinator', ['homecare'], 8),
  person('Hannah', 'Price', 'administrator', ['willow', 'heather', 'beeches', 'homecare'], 9),
  person('Callum', 'Reid', 'carer', ['homecare'], 10),
  person('Fatima', 'Begum', 'nurse', ['heather'], 11),
  person('Liam', "O'Connor", 'senior_carer', ['beeches'], 12),
  person('Chloe', 'Evans', 'carer', ['willow'], 13),
  person('Rhys', 'Morgan', 'manager', ['homecare'], 14),
  person('Zainab', 'Hussain', 'carer', ['heather'], 15),
  person('Ben', 'Whitaker', 'maintenance', ['willow', 'heather', 'beeches', 'orchard'], 16),
  person('Ella', 'Fraser', 'carer', ['homecare'], 17),
  person('Joseph', 'Mensah', 'senior_carer', ['heather'], 18),
  person('Lucy', 'Chapman', 'deputy_manager', ['beeches'], 19),
  person('Aisha', 'Rahman', 'regional_manager', ['willow', 'heather', 'beeches', 'homecare', 'orchard'], 20),
];

export const DEMO_USERS: readonly DemoUser[] = DEMO_PEOPLE.map(({ first_name, last_name, email }) => ({ first_name, last_name, email }));
