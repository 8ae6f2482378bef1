// Word lists for the demo data: a South African construction firm and the world it works in.

export const TENANT = 'Mthembu & Van Wyk Construction (Pty) Ltd';

export const PROVINCES = [
  'Gauteng',
  'Western Cape',
  'KwaZulu-Natal',
  'Eastern Cape',
  'Limpopo',
  'Mpumalanga',
  'North West',
  'Free State',
  'Northern Cape',
];

/** Towns, their province, and the municipality that tenders for work there. */
export const TOWNS: readonly [town: string, province: string, municipality: string][] = [
  ['Soweto', 'Gauteng', 'City of Johannesburg Metropolitan Municipality'],
  ['Midrand', 'Gauteng', 'City of Johannesburg Metropolitan Municipality'],
  ['Tembisa', 'Gauteng', 'Ekurhuleni Metropolitan Municipality'],
  ['Pretoria', 'Gauteng', 'City of Tshwane Metropolitan Municipality'],
  ['Khayelitsha', 'Western Cape', 'City of Cape Town'],
  ['Stellenbosch', 'Western Cape', 'Stellenbosch Municipality'],
  ['Umlazi', 'KwaZulu-Natal', 'eThekwini Municipality'],
  ['Pietermaritzburg', 'KwaZulu-Natal', 'Msunduzi Local Municipality'],
  ['Mthatha', 'Eastern Cape', 'King Sabata Dalindyebo Local Municipality'],
  ['Gqeberha', 'Eastern Cape', 'Nelson Mandela Bay Metropolitan Municipality'],
  ['Polokwane', 'Limpopo', 'Polokwane Local Municipality'],
  ['Thohoyandou', 'Limpopo', 'Thulamela Local Municipality'],
  ['Mbombela', 'Mpumalanga', 'City of Mbombela Local Municipality'],
  ['Emalahleni', 'Mpumalanga', 'Emalahleni Local Municipality'],
  ['Rustenburg', 'North West', 'Rustenburg Local Municipality'],
  ['Mahikeng', 'North West', 'Mahikeng Local Municipality'],
  ['Bloemfontein', 'Free State', 'Mangaung Metropolitan Municipality'],
  ['Welkom', 'Free State', 'Matjhabeng Local Municipality'],
  ['Kimberley', 'Northern Cape', 'Sol Plaatje Local Municipality'],
  ['Upington', 'Northern Cape', 'Dawid Kruiper Local Municipality'],
];

/** Each province's public works department, which tenders for provincial buildings and roads. */
export const PROVINCIAL_BUYERS: Readonly<Record<string, string>> = {
  Gauteng: 'Gauteng Department of Infrastructure Development',
  'Western Cape': 'Western Cape Department of Infrastructure',
  'KwaZulu-Natal': 'KwaZulu-Natal Department of Public Works',
  'Eastern Cape': 'Eastern Cape Department of Public Works and Infrastructure',
  Limpopo: 'Limpopo Department of Public Works, Roads and Infrastructure',
  Mpumalanga: 'Mpumalanga Department of Public Works, Roads and Transport',
  'North West': 'North West Department of Public Works and Roads',
  'Free State': 'Free State Department of Police, Roads and Transport',
  'Northern Cape': 'Northern Cape Department of Roads and Public Works',
};

/** National bodies, which buy anywhere. */
export const NATIONAL_BUYERS = [
  'South African National Roads Agency SOC Ltd',
  'Department of Water and Sanitation',
  'Department of Public Works and Infrastructure',
];

export const COMPANY_STEMS = [
  'Ubuntu',
  'Sizwe',
  'Kgalagadi',
  'Mzansi',
  'Lethabo',
  'Highveld',
  'Karoo',
  'Drakensberg',
  'Boland',
  'Umhlanga',
  'Tshwane',
  'Vaal',
];

export const COMPANY_TRADES = [
  'Plant Hire',
  'Steel Fixers',
  'Electrical',
  'Civils',
  'Roofing',
  'Glass & Aluminium',
  'Scaffolding',
  'Readymix',
  'Land Surveyors',
  'Waterproofing',
];

export const COMPANY_SUFFIXES = ['(Pty) Ltd', 'CC', 'Inc.', '(Pty) Ltd'];

export const FIRST_NAMES = [
  'Thandiwe',
  'Sipho',
  'Johan',
  'Anele',
  'Pieter',
  'Nomvula',
  'Lerato',
  'Kagiso',
  'Fatima',
  'Riaan',
  'Zanele',
  'Mandla',
  'Priya',
  'Ayanda',
  'Marelize',
  'Tebogo',
];

export const SURNAMES = [
  'Nkosi',
  'Dlamini',
  'van der Merwe',
  'Botha',
  'Naidoo',
  'Mokoena',
  'Khumalo',
  'Pillay',
  'Smit',
  'Ndlovu',
  'Molefe',
  'Coetzee',
  'Govender',
  'Mahlangu',
];

export const ROLES = [
  'Site Manager',
  'Quantity Surveyor',
  'Procurement Officer',
  'Safety Officer (SHEQ)',
  'Contracts Manager',
  'Director',
  'Foreman',
  'Project Engineer',
  'Accounts Payable',
];

export const TENDER_WORKS = [
  (town: string, n: number) => `Construction of ${(n % 9) + 1}.${n % 10} km of surfaced road in Ward ${n + 3}, ${town}`,
  (town: string) => `Refurbishment of ablution facilities at ${town} community clinics`,
  (town: string) => `Supply, delivery and installation of palisade fencing: ${town} depot`,
  (town: string, n: number) => `Upgrading of stormwater infrastructure, Phase ${(n % 4) + 1}, ${town}`,
  (_town: string, n: number) => `Maintenance and repair of municipal buildings for ${12 * ((n % 3) + 1)} months`,
  (town: string, n: number) => `Construction of a new ${(n % 6) + 4}-classroom block at ${town} Primary School`,
  (town: string) => `Rehabilitation of the ${town} wastewater treatment works`,
  (town: string) => `Installation of high-mast lighting, ${town} CBD`,
];

export const OBLIGATIONS: readonly [title: string, kind: 'COMPLIANCE' | 'CONTRACTUAL' | 'PAYMENT' | 'OTHER'][] = [
  ['Submit VAT201 return to SARS', 'COMPLIANCE'],
  ['Renew CIDB contractor registration', 'COMPLIANCE'],
  ['Renew COIDA letter of good standing', 'COMPLIANCE'],
  ['Monthly UIF declaration', 'COMPLIANCE'],
  ['Site safety file audit (OHS Act, Construction Regulations 2014)', 'COMPLIANCE'],
  ['Renew B-BBEE certificate', 'COMPLIANCE'],
  ['Release retention to subcontractor', 'PAYMENT'],
  ['Pay supplier invoice', 'PAYMENT'],
  ['Invoice progress payment certificate', 'PAYMENT'],
  ['Performance guarantee expiry: extend with the bank', 'CONTRACTUAL'],
  ['Practical completion inspection', 'CONTRACTUAL'],
  ['Submit as-built drawings', 'CONTRACTUAL'],
  ["Respond to the engineer's instruction", 'CONTRACTUAL'],
  ['Quarterly toolbox talk register review', 'OTHER'],
];

export const AGENTS = [
  {
    name: 'tender-scout',
    description: 'Reads new public tender notices and scores them against the company profile. Never submits anything.',
    authority: 'RECOMMEND',
    tools: ['etenders.search', 'profile.read', 'cidb.lookup'],
    outputType: 'tender.assessment.v1',
    restrictedActions: [],
  },
  {
    name: 'tender-pack-analyst',
    description: 'Reads the documents a tender lists and summarises returnables, briefing dates and pricing schedules.',
    authority: 'RESEARCH',
    tools: ['documents.read', 'ocr.extract'],
    outputType: 'tender.analysis.v2',
    restrictedActions: [],
  },
  {
    name: 'bid-preparer',
    description: "Prepares a bid pack for a person to review; submission needs a person's approval.",
    authority: 'PREPARE',
    tools: ['documents.read', 'templates.fill', 'pricing.calculate'],
    outputType: 'bid.pack.v1',
    restrictedActions: ['submit_bid', 'sign_declaration'],
  },
  {
    name: 'compliance-watch',
    description: 'Watches certificate and registration expiry dates and raises obligations before they lapse.',
    authority: 'OBSERVE',
    tools: ['documents.read', 'obligations.read'],
    outputType: 'compliance.alert.v1',
    restrictedActions: [],
  },
  {
    name: 'payment-clerk',
    description: 'Drafts supplier payment batches; releasing money always waits for a finance approver.',
    authority: 'EXECUTE_WITH_APPROVAL',
    tools: ['obligations.read', 'bank.batch.draft'],
    outputType: 'payment.batch.v1',
    restrictedActions: ['release_payment', 'change_bank_details'],
  },
  {
    name: 'site-diary-writer',
    description: "Drafts the daily site diary from foremen's notes, photos and weather data.",
    authority: 'DRAFT',
    tools: ['sites.read', 'weather.read', 'photos.read'],
    outputType: 'site.diary.v1',
    restrictedActions: [],
  },
  {
    name: 'obligation-tracker',
    description: 'Keeps obligations in step with contracts, sends reminders, closes what is done.',
    authority: 'AUTONOMOUS',
    tools: ['obligations.read', 'obligations.update', 'notify.email'],
    outputType: 'obligation.update.v1',
    restrictedActions: [],
  },
] as const;
