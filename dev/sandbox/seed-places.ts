import type { Address, LiteratureItem, Location, NotificationGroup, Service, User } from './resources/types.js';
import { DEMO_PEOPLE, type LocationKey } from './seed-people.js';
import { BRIGHTWATER, type ProviderProfile } from './seed-providers.js';
import type { SeedContext } from './seed-context.js';
import { formatDateTime } from './wire-time.js';

const EMPTY_ADDRESS: Address = { address_1: '', address_2: '', town: '', county: '', postcode: '', country: '' };

interface PlaceSpec {
  key: LocationKey;
  services: Service[];
  dementia: boolean;
  respite: boolean;
  daycare: boolean;
  beds: number | null;
  address: Address;
  lonLat: [number, number];
  brand: 'main' | 'beeches';
  suspendedReason?: string;
}

const PLACES: readonly PlaceSpec[] = [
  {
    key: 'willow',
    services: ['residential_home', 'specialist_care'],
    dementia: true,
    respite: true,
    daycare: true,
    beds: 42,
    address: { address_1: 'Willow Bank', address_2: '14 Church Lane', town: 'Keynsham', county: 'Somerset', postcode: 'BS31 2AA', country: 'United Kingdom' },
    lonLat: [-2.4967, 51.4135],
    brand: 'main',
  },
  {
    key: 'heather',
    services: ['nursing_home', 'bariatric_care'],
    dementia: true,
    respite: false,
    daycare: false,
    beds: 56,
    address: { address_1: 'Heather Lodge', address_2: '3 Combe Road', town: 'Bath', county: 'Somerset', postcode: 'BA2 5HX', country: 'United Kingdom' },
    lonLat: [-2.3507, 51.3651],
    brand: 'main',
  },
  {
    key: 'beeches',
    services: ['residential_home', 'assisted_living', 'independent_living'],
    dementia: false,
    respite: true,
    daycare: true,
    beds: 30,
    address: {
      address_1: 'The Beeches',
      address_2: '27 Lansdown Road',
      town: 'Cheltenham',
      county: 'Gloucestershire',
      postcode: 'GL51 6QA',
      country: 'United Kingdom',
    },
    lonLat: [-2.0939, 51.9001],
    brand: 'beeches',
  },
  {
    key: 'homecare',
    services: ['home_care', 'live_in_care'],
    dementia: true,
    respite: false,
    daycare: false,
    beds: null,
    address: {
      address_1: 'Unit 4, Quayside House',
      address_2: 'The Docks',
      town: 'Gloucester',
      county: 'Gloucestershire',
      postcode: 'GL1 2EH',
      country: 'United Kingdom',
    },
    lonLat: [-2.2497, 51.8642],
    brand: 'main',
  },
  {
    key: 'orchard',
    services: ['residential_home', 'learning_disability_care'],
    dementia: false,
    respite: true,
    daycare: false,
    beds: 18,
    address: {
      address_1: 'Orchard House',
      address_2: '1 Mill Street',
      town: 'Tewkesbury',
      county: 'Gloucestershire',
      postcode: 'GL20 5SB',
      country: 'United Kingdom',
    },
    lonLat: [-2.1602, 51.9946],
    brand: 'main',
    suspendedReason: 'Closed for refurbishment; residents moved to {willow}.',
  },
];

export interface Places {
  locations: Location[];
  locationIds: Record<LocationKey, string>;
  users: User[];
  groups: NotificationGroup[];
  literature: LiteratureItem[];
}

/**
 * Locations, users, notification groups and literature of a provider: by
 * default the demo provider "Brightwater Care". The provider only names
 * things; it draws nothing from the seed's random numbers.
 */
export function seedPlaces(ctx: SeedContext, provider: ProviderProfile = BRIGHTWATER): Places {
  const domain = provider.emailDomain;
  const short = (key: LocationKey) => provider.places[key].short;
  const brands = { main: ctx.foreignId(), beeches: ctx.foreignId() };
  const regions = { southWest: ctx.foreignId(), careHomes: ctx.foreignId() };
  const locationIds = {} as Record<LocationKey, string>;
  const locations: Location[] = PLACES.map((p, i) => {
    const stamps = ctx.stamps(300, 900);
    locationIds[p.key] = stamps._id;
    const { name, ref } = provider.places[p.key];
    // The building's name is the first line of its address (the home-care office is in an office block).
    const address = p.key === 'homecare' ? p.address : { ...p.address, address_1: short(p.key) };
    return {
      ...stamps,
      accepts_dementia: p.dementia,
      app_number: `+447700900${String(800 + i).padStart(3, '0')}`,
      brand: p.brand === 'beeches' ? brands.beeches : brands.main,
      care_inspectorate: 'cqc',
      care_inspectorate_id: `1-${100000000 + i * 7919}`,
      care_inspectorate_provider_id: '1-101634523',
      care_inspectorate_registered_beds: p.beds,
      company_name: p.brand === 'beeches' ? provider.brandCompany : null,
      company_reg_no: p.brand === 'beeches' ? '09876543' : null,
      email: `${ref.toLowerCase()}@${domain}`,
      groups: p.beds === null ? [regions.southWest] : [regions.southWest, regions.careHomes],
      invoice_payment_instructions: 'Please pay within 14 days quoting your invoice number.',
      invoice_payment_instructions_bac: 'Sort code 00-00-00, account 00000000, reference: invoice number.',
      invoice_payment_instructions_card: 'Call the office to pay by card.',
      invoice_payment_instructions_cash: null,
      invoice_payment_instructions_cheque: `Cheques payable to ${provider.name} Ltd.`,
      invoice_payment_instructions_direct_debit: null,
      invoice_payment_instructions_eft: null,
      invoice_payment_instructions_standing_order: null,
      invoicing_address: i === 0 ? { ...address, address_1: 'Accounts Department' } : { ...EMPTY_ADDRESS },
      invoicing_email: i === 0 ? `accounts@${domain}` : null,
      invoicing_phone: null,
      lon_lat: p.lonLat,
      name,
      offers_daycare: p.daycare,
      offers_respite: p.respite,
      phone: `0117 496 0${String(100 + i * 11).padStart(3, '0')}`,
      reason_for_suspension: p.suspendedReason?.replace('{willow}', short('willow')) ?? null,
      ref,
      service_user_expenses_assigned_to: null,
      service_user_expenses_invoices_due_rule: 'days_after_invoice_date',
      service_user_expenses_invoices_due_unit: 14,
      service_user_expenses_invoicing_day: 1,
      service_user_expenses_invoicing_enabled: p.beds !== null,
      services: p.services,
      street_address: address,
      suspended: p.suspendedReason ? formatDateTime(ctx.past(20, 40)) : null,
      vat_number: p.brand === 'beeches' ? null : 'GB123456789',
      website_url: `https://${domain}/${ref.toLowerCase()}`,
    };
  });

  const users: User[] = provider.people.map((p) => ({
    ...ctx.stamps(60, 700),
    email: p.email,
    first_name: p.first_name,
    last_name: p.last_name,
    location_role: p.location_role,
    locations: p.locations.map((k) => locationIds[k]),
    mobile: p.mobile,
  }));
  /** The provider's person in the place of the demo person with this email name (`amelia.hughes`). */
  const userByEmail = (local: string) => {
    const u = users[DEMO_PEOPLE.findIndex((x) => x.email.startsWith(`${local}@`))];
    if (!u) throw new Error(`demo user ${local} missing`);
    return u;
  };
  const litRef = (key: LocationKey, what: string) => `LIT-${provider.places[key].ref}-${what}`;
  const ids = (...locals: string[]) => locals.map((l) => userByEmail(l)._id);
  const emails = (...locals: string[]) => locals.map((l) => userByEmail(l).email);

  const group = (name: string, description: string, userIds: string[], emailTo: string[]): NotificationGroup => ({
    ...ctx.stamps(30, 500),
    description,
    email_to: emailTo,
    name,
    users: userIds,
  });
  const groups: NotificationGroup[] = [
    group(
      'Home managers',
      'Managers of every location; told when key actions are done.',
      ids('amelia.hughes', 'tom.gallagher', 'grace.adeyemi', 'rhys.morgan'),
      [...emails('aisha.rahman'), `operations@${domain}`],
    ),
    group(`${short('willow')} seniors`, `Senior staff on shift at ${short('willow')}.`, ids('daniel.okafor', 'sophie.marsh'), emails('amelia.hughes')),
    group(
      `${short('heather')} nurses`,
      `Registered nurses at ${short('heather')} (medication and clinical follow-ups).`,
      ids('priya.sharma', 'fatima.begum', 'joseph.mensah'),
      [],
    ),
    group('Safeguarding leads', 'Safeguarding concerns and their follow-up.', ids('aisha.rahman', 'hannah.price'), [
      `safeguarding@${domain}`,
      'duty.team@somerset-council.example',
    ]),
    group('Maintenance', 'Repairs and facilities jobs.', ids('ben.whitaker'), ['helpdesk@facilities-partner.example']),
    group('Family liaison', 'Keeps families informed after reviews and incidents.', [], [...emails('hannah.price', 'lucy.chapman'), `families@${domain}`]),
    group(
      'Home care coordinators',
      'Rota and visit changes for the Gloucester office.',
      ids('oliver.bennett', 'rhys.morgan', 'callum.reid'),
      emails('ella.fraser'),
    ),
  ];

  const lit = (name: string, ref: string, location: LocationKey | null, archived: boolean): LiteratureItem => ({
    ...ctx.stamps(10, 600),
    archived,
    file: `https://files.${domain}/literature/${ref.toLowerCase()}.pdf`,
    location: location ? locationIds[location] : null,
    name,
    ref,
  });
  const literature: LiteratureItem[] = [
    lit(`${provider.name} brochure`, 'LIT-BROCHURE', null, false),
    lit('Fees and funding guide', 'LIT-FEES', null, false),
    lit('Respite stays explained', 'LIT-RESPITE', null, false),
    lit('Fees guide 2022', 'LIT-FEES-2022', null, true),
    lit(`${short('willow')} brochure`, litRef('willow', 'BROCHURE'), 'willow', false),
    lit(`Dementia care at ${short('willow')}`, litRef('willow', 'DEMENTIA'), 'willow', false),
    lit(`${short('heather')} brochure`, litRef('heather', 'BROCHURE'), 'heather', false),
    lit(`${short('heather')} brochure (2021)`, litRef('heather', 'BROCHURE-2021'), 'heather', true),
    lit(`${short('beeches')} activity programme`, litRef('beeches', 'ACTIVITIES'), 'beeches', false),
    lit('Home care service guide', litRef('homecare', 'GUIDE'), 'homecare', false),
    lit('Live-in care: what to expect', litRef('homecare', 'LIVEIN'), 'homecare', false),
  ];

  return { locations, locationIds, users, groups, literature };
}
