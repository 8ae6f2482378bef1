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

export const TOWNS: readonly [town: string, province: string][] = [
  ['Soweto', 'Gauteng'],
  ['Midrand', 'Gauteng'],
  ['Tembisa', 'Gauteng'],
  ['Pretoria', 'Gauteng'],
  ['Khayelitsha', 'Western Cape'],
  ['Stellenbosch', 'Western Cape'],
  ['Umlazi', 'KwaZulu-Natal'],
  ['Pietermaritzburg', 'KwaZulu-Natal'],
  ['Mthatha', 'Eastern Cape'],
  ['Gqeberha', 'Eastern Cape'],
  ['Polokwane', 'Limpopo'],
  ['Thohoyandou', 'Limpopo'],
  ['Mbombela', 'Mpumalanga'],
  ['Emalahleni', 'Mpumalanga'],
  ['Rustenburg', 'North West'],
  ['Mahikeng', 'North West'],
  ['Bloemfontein', 'Free State'],
  ['Welkom', 'Free State'],
  ['Kimberley', 'Northern Cape'],
  ['Upington', 'Northern Cape'],
];

export const BUYERS = [
  'City of Tshwane Metropolitan Municipality',
  'City of Johannesburg Metropolitan Municipality',
  'Ekurhuleni Metropolitan Municipality',
  'eThekwini Municipality',
  'City of Cape Town',
  'Nelson Mandela Bay Metropolitan Municipality',
  'Mangaung Metropolitan Municipality',
  'Polokwane Local Municipality',
  'Gauteng Department of Infrastructure Development',
  'KwaZulu-Natal Department of Public Works',
  'South African National Roads Agency SOC Ltd',
  'Department of Water and Sanitation',
  'Rand Water',
  'Airports Company South Africa SOC Ltd',
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
  ['Respond to the engineer\'s instruction', 'CONTRACTUAL'],
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
    description: 'Prepares a bid pack for a person to review; submission needs a person\'s approval.',
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
    description: 'Drafts the daily site diary from foremen\'s notes, photos and weather data.',
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
