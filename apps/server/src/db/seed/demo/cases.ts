import { inArray, sql } from 'drizzle-orm';
import {
  caseDeadline,
  caseListGroup,
  DEADLINE_NEAR_MS,
  emptyServiceDataV1,
  emptyServiceDataV3,
  foldText,
  isDeadlineNear,
  isPrintableProduct,
  nextCaseStatus,
  REVIEW_REASONS,
  SERVICE_DATA_VERSION,
  SURGICAL_GUIDE_CATEGORY_ID,
  TREATMENT_PURPOSES,
  type CaseAction,
  type CaseStatus,
  type ServiceDataV1,
  type ServiceDataV3,
} from '@dentflow/domain';
import type { Storage } from '../../../adapters/storage/storage';
import type { DbOrTx } from '../../client';
import { seedSampleAttachments } from './attachments';
import {
  caseEvents,
  caseReviews,
  caseServices,
  caseUsers,
  cases,
  patients,
  products,
  users,
} from '../../schema';

/**
 * Demo cases: about 30 cases of the demo doctor and clinic over every status, with
 * services and their data, planners, members, a review raised by the planner, one archived case
 * and the history of each. Deterministic: the same cases in the same order on every seed;
 * timestamps are relative to the moment of seeding so deadlines and "modified" dates look
 * current. The derived columns (listGroup, searchText, hasPrintable, caseReview) and deadlines
 * use the same domain rules as the cases service, and cases whose deadline is already near get
 * the 'planning deadline near' review the service's job would give them (so its first run on a
 * fresh seed finds nothing to do).
 */

type Owner = 'doctor' | 'clinic';
type ProductCode = 'PLAN-GUIDE' | 'PLAN-SMILE' | 'PLAN-ORTHO' | 'MFG-GUIDE' | 'MFG-MOCKUP';
/** 'v3' filled and valid; 'v1' the old layout with the terms accepted; 'blank' not filled yet. */
type Layout = 'v3' | 'v1' | 'blank';

interface ServiceSpec {
  code: ProductCode;
  quantity?: number;
  layout?: Layout;
}

interface CaseSpec {
  status: Exclude<CaseStatus, 'archive'>;
  owner: Owner;
  patient: { fname: string; lname: string; gender: 'female' | 'male' | 'other'; born: string };
  services: ServiceSpec[];
  observation?: string;
  /** Cancelled cases: cancelled while new (default) or once in execute. */
  cancelledFrom?: 'new' | 'execute';
  /** An approve-status case whose first plan the client sent back once. */
  modifiedOnce?: boolean;
  /** Archived after finishing. */
  archived?: boolean;
  /** An open review raised by the planner. */
  openReview?: boolean;
  /** The demo partner is a member of the case. */
  partner?: boolean;
}

const GUIDE: ServiceSpec[] = [{ code: 'PLAN-GUIDE' }, { code: 'MFG-GUIDE' }];

const CASES: CaseSpec[] = [
  // broad new: new, revision, checkingout
  {
    status: 'new',
    owner: 'doctor',
    patient: { fname: 'João', lname: 'Pereira', gender: 'male', born: '1978-03-14' },
    services: GUIDE,
    observation: 'Edentulous upper jaw; the patient wants a fixed solution.',
  },
  {
    status: 'new',
    owner: 'doctor',
    patient: { fname: 'Carlos', lname: 'Múller', gender: 'male', born: '1965-11-02' },
    services: [{ code: 'PLAN-SMILE', layout: 'blank' }],
    observation: 'Service data still to be filled.',
  },
  {
    status: 'new',
    owner: 'doctor',
    patient: { fname: 'Ana', lname: 'Souza', gender: 'female', born: '1990-07-21' },
    services: [],
  },
  {
    status: 'new',
    owner: 'clinic',
    patient: { fname: 'Lucía', lname: 'Fernández', gender: 'female', born: '1983-01-30' },
    services: [{ code: 'PLAN-ORTHO' }],
  },
  {
    status: 'new',
    owner: 'clinic',
    patient: { fname: 'Marta', lname: 'Müller', gender: 'female', born: '1972-05-09' },
    services: [{ code: 'PLAN-GUIDE', quantity: 2 }],
  },
  {
    status: 'revision',
    owner: 'doctor',
    patient: { fname: 'Beatriz', lname: 'Conceição', gender: 'female', born: '1988-09-17' },
    services: GUIDE,
    observation: 'Sent back to correct the implant system.',
  },
  {
    status: 'revision',
    owner: 'clinic',
    patient: { fname: 'Pedro', lname: 'Gonçalves', gender: 'male', born: '1959-12-03' },
    services: [{ code: 'PLAN-SMILE' }],
  },
  {
    status: 'checkingout',
    owner: 'doctor',
    patient: { fname: 'Sofia', lname: 'Ribeiro', gender: 'female', born: '1995-04-11' },
    services: [{ code: 'PLAN-SMILE' }, { code: 'MFG-MOCKUP', quantity: 6 }],
  },
  {
    status: 'checkingout',
    owner: 'doctor',
    patient: { fname: 'José', lname: 'Álvarez', gender: 'male', born: '1970-08-25' },
    services: [{ code: 'PLAN-GUIDE', layout: 'v1' }],
    observation: 'Data kept from the previous form (old layout).',
  },
  {
    status: 'checkingout',
    owner: 'clinic',
    patient: { fname: 'Miguel Ángel', lname: 'Ruiz', gender: 'male', born: '1981-02-19' },
    services: [{ code: 'PLAN-ORTHO' }],
  },
  // in work
  {
    status: 'execute',
    owner: 'doctor',
    patient: { fname: 'Emily', lname: 'Carter', gender: 'female', born: '1986-06-06' },
    services: GUIDE,
    openReview: true,
    partner: true,
  },
  {
    status: 'execute',
    owner: 'doctor',
    patient: { fname: 'Liam', lname: "O'Brien", gender: 'male', born: '1977-10-28' },
    services: [{ code: 'PLAN-ORTHO' }],
  },
  {
    status: 'execute',
    owner: 'clinic',
    patient: { fname: 'Chloé', lname: 'Dubois', gender: 'female', born: '1992-03-03' },
    services: [
      { code: 'PLAN-GUIDE', quantity: 2 },
      { code: 'MFG-GUIDE', quantity: 2 },
    ],
  },
  {
    status: 'execute',
    owner: 'clinic',
    patient: { fname: 'Tomás', lname: 'Hernández', gender: 'male', born: '1968-07-15' },
    services: [{ code: 'PLAN-SMILE' }],
  },
  {
    status: 'approve',
    owner: 'doctor',
    patient: { fname: 'Renée', lname: 'Laurent', gender: 'female', born: '1984-12-12' },
    services: GUIDE,
    modifiedOnce: true,
  },
  {
    status: 'approve',
    owner: 'doctor',
    patient: { fname: 'Isabela', lname: 'Araújo', gender: 'female', born: '1999-01-08' },
    services: [{ code: 'PLAN-SMILE' }, { code: 'MFG-MOCKUP', quantity: 4 }],
  },
  {
    status: 'approve',
    owner: 'clinic',
    patient: { fname: 'Gabriel', lname: 'Lima', gender: 'male', born: '1975-05-27' },
    services: [{ code: 'PLAN-ORTHO' }],
  },
  {
    status: 'finishing',
    owner: 'doctor',
    patient: { fname: 'Helena', lname: 'Castro', gender: 'female', born: '1963-09-01' },
    services: GUIDE,
  },
  {
    status: 'finishing',
    owner: 'doctor',
    patient: { fname: 'Rafael', lname: 'Nogueira', gender: 'male', born: '1980-04-22' },
    services: [{ code: 'PLAN-ORTHO' }],
  },
  {
    status: 'finishing',
    owner: 'clinic',
    patient: { fname: 'Valentina', lname: 'Rossi', gender: 'female', born: '1991-11-19' },
    services: [{ code: 'PLAN-SMILE' }, { code: 'MFG-MOCKUP', quantity: 8 }],
  },
  {
    status: 'print',
    owner: 'doctor',
    patient: { fname: 'André', lname: 'Simões', gender: 'male', born: '1973-02-14' },
    services: GUIDE,
    partner: true,
  },
  {
    status: 'print',
    owner: 'clinic',
    patient: { fname: 'Luíza', lname: 'Magalhães', gender: 'female', born: '1987-08-08' },
    services: [
      { code: 'PLAN-GUIDE', quantity: 2 },
      { code: 'MFG-GUIDE', quantity: 2 },
    ],
  },
  // done
  {
    status: 'finished',
    owner: 'doctor',
    patient: { fname: 'Noah', lname: 'Schmidt', gender: 'male', born: '1969-06-30' },
    services: GUIDE,
  },
  {
    status: 'finished',
    owner: 'doctor',
    patient: { fname: 'Olivia', lname: 'Brown', gender: 'female', born: '1994-10-10' },
    services: [{ code: 'PLAN-ORTHO', layout: 'v1' }],
  },
  {
    status: 'finished',
    owner: 'clinic',
    patient: { fname: 'Iñigo', lname: 'Etxeberria', gender: 'male', born: '1982-01-25' },
    services: [{ code: 'PLAN-SMILE' }],
  },
  {
    status: 'finished',
    owner: 'doctor',
    patient: { fname: 'Fátima', lname: 'Assunção', gender: 'female', born: '1960-03-18' },
    services: GUIDE,
    archived: true,
  },
  {
    status: 'closed',
    owner: 'doctor',
    patient: { fname: 'Zoë', lname: 'Becker', gender: 'female', born: '1979-07-07' },
    services: [{ code: 'PLAN-SMILE' }, { code: 'MFG-MOCKUP', quantity: 10 }],
  },
  {
    status: 'closed',
    owner: 'clinic',
    patient: { fname: 'Diego', lname: 'Peña', gender: 'male', born: '1985-12-01' },
    services: [{ code: 'PLAN-GUIDE' }],
  },
  {
    status: 'cancelled',
    owner: 'doctor',
    patient: { fname: 'Camila', lname: 'Rocha', gender: 'female', born: '1997-05-05' },
    services: [{ code: 'PLAN-SMILE' }],
  },
  {
    status: 'cancelled',
    owner: 'clinic',
    patient: { fname: 'Hugo', lname: 'Lemos', gender: 'male', born: '1966-04-04' },
    services: [{ code: 'PLAN-ORTHO' }],
    cancelledFrom: 'execute',
  },
];

type Actor = Owner | 'supervisor' | 'planner' | 'printer';
interface Step {
  action: CaseAction;
  actor: Actor;
}

/** The moves that lead a case from 'new' to its seeded status. */
function pathOf(spec: CaseSpec, printable: boolean): Step[] {
  const owner = spec.owner;
  const toExecute: Step[] = [
    { action: 'submit', actor: owner },
    { action: 'validate', actor: 'supervisor' },
  ];
  const toApprove: Step[] = [
    ...toExecute,
    { action: 'requestApproval', actor: 'planner' },
    ...(spec.modifiedOnce
      ? ([
          { action: 'requestModification', actor: owner },
          { action: 'requestApproval', actor: 'planner' },
        ] as Step[])
      : []),
  ];
  const toFinishing: Step[] = [...toApprove, { action: 'approve', actor: owner }];
  const toFinished: Step[] = printable
    ? [
        ...toFinishing,
        { action: 'startPrint', actor: 'printer' },
        { action: 'finish', actor: 'printer' },
      ]
    : [...toFinishing, { action: 'finish', actor: 'planner' }];
  switch (spec.status) {
    case 'new':
      return [];
    case 'checkingout':
      return [{ action: 'submit', actor: owner }];
    case 'revision':
      return [...toExecute, { action: 'backToNew', actor: 'supervisor' }];
    case 'execute':
      return toExecute;
    case 'approve':
      return toApprove;
    case 'finishing':
      return toFinishing;
    case 'print':
      return [...toFinishing, { action: 'startPrint', actor: 'printer' }];
    case 'finished':
      return toFinished;
    case 'closed':
      return [...toFinished, { action: 'close', actor: owner }];
    case 'cancelled':
      return spec.cancelledFrom === 'execute'
        ? [...toExecute, { action: 'cancel', actor: owner }]
        : [{ action: 'cancel', actor: owner }];
  }
}

const CATEGORY_3_DATA: Partial<ServiceDataV3> = {
  jaw: 'upper',
  implantSystem: { manufactureName: 'Neodent', systemName: 'Grand Morse' },
  extractTeeth: false,
  provision: true,
};

/** Filled, valid current-layout data; category 3 answers its own sections too. */
function serviceDataV3(categoryId: number, variant: number): ServiceDataV3 {
  return {
    ...emptyServiceDataV3(),
    ...(categoryId === SURGICAL_GUIDE_CATEGORY_ID
      ? {
          ...CATEGORY_3_DATA,
          jaw: variant % 3 === 0 ? 'both' : variant % 2 === 0 ? 'lower' : 'upper',
          extractTeeth: variant % 2 === 1,
        }
      : {}),
    hasOrtho: variant % 4 === 0,
    plasticGum: false,
    increaseDVO:
      variant % 5 === 0 ? { checked: true, howMuch: 2 } : { checked: false, howMuch: null },
    treatmentPurpose: {
      purpose:
        categoryId === SURGICAL_GUIDE_CATEGORY_ID
          ? TREATMENT_PURPOSES.protocol
          : TREATMENT_PURPOSES.ceramicLaminates,
    },
    terms: { checked: true },
    extra: 'Tomography and intra-oral scan attached; please follow the photo protocol.',
  };
}

/** Old-layout data (dataVersion 1) as the previous form saved it, with the terms accepted. */
function serviceDataV1(): ServiceDataV1 {
  const data = emptyServiceDataV1();
  data.selectedJaw = 'upper';
  data.upperJaw = data.upperJaw.map((_, tooth) => tooth === 3 || tooth === 10);
  data.provision = true;
  data.system = 'Straumann';
  data.subSystem = 'BLT';
  data.implantModel = 'BLT 4.1 x 10 mm';
  data.extractTeeth = false;
  data.mockup = false;
  data.extraInfo = 'Case migrated from the previous platform.';
  data.surgicalKit = { manufacture: 'Straumann', system: 'BLT' };
  data.terms = true;
  return data;
}

const HOUR = 3600_000;

export interface SeededDemoCases {
  /** Ids of the seeded cases, in seeding order. */
  caseIds: number[];
  /** Cases past checkout (the client's files were needed to validate them). */
  validatedCaseIds: number[];
}

/**
 * Seeds the demo cases. Expects the demo users (one per role) and products of `seedDemoData`;
 * run inside its transaction so the seed is all or nothing. With a `storage`, every case that is
 * not cancelled also gets the sample files (photos, scans, a planned guide) of
 * `seedSampleAttachments`: the client's public files are what validation checked.
 */
export async function seedDemoCases(
  db: DbOrTx,
  options: { now?: Date; storage?: Storage } = {},
): Promise<SeededDemoCases> {
  const now = options.now ?? new Date();
  const people = await db
    .select({ id: users.id, nickName: users.nickName })
    .from(users)
    .where(
      inArray(users.nickName, ['doctor', 'clinic', 'supervisor', 'planner', 'printer', 'partner']),
    );
  const userId = (nickName: string) => {
    const found = people.find((person) => person.nickName === nickName);
    if (!found) throw new Error(`demo cases: the demo ${nickName} is missing`);
    return found.id;
  };
  const productRows = await db.select().from(products);
  const product = (code: string) => {
    const found = productRows.find((row) => row.code === code);
    if (!found) throw new Error(`demo cases: the product ${code} is missing`);
    return found;
  };

  // Whole minutes, so two seeds in the same minute write the same timestamps.
  const base = Math.floor(now.getTime() / 60_000) * 60_000;
  const plans = CASES.map((spec, index) => {
    const services = spec.services.map((service) => ({
      ...service,
      product: product(service.code),
    }));
    const printable = services.some((service) => isPrintableProduct(service.product));
    const path = pathOf(spec, printable);
    // Every case has its own times, all in the past. Cases in work moved in the last hours (so
    // those with a 3-day guide are not yet near their deadline); the others spread over days.
    const inWork = ['execute', 'approve', 'revision'].includes(spec.status);
    const lastMoveAt = base - HOUR * (1 + (inWork ? index % 5 : index * 3));
    const createdAt =
      lastMoveAt -
      path.length * 5 * HOUR -
      (spec.openReview ? HOUR : 0) -
      (spec.archived ? 24 * HOUR : 0);
    return { spec, services, printable, path, createdAt, index };
  });

  const patientRows = await db
    .insert(patients)
    .values(
      plans.map(({ spec }) => ({
        fname: spec.patient.fname,
        lname: spec.patient.lname,
        birthDate: spec.patient.born,
        gender: spec.patient.gender,
      })),
    )
    .returning({ id: patients.id });

  type EventDraft = Omit<typeof caseEvents.$inferInsert, 'caseId' | 'at' | 'detail'> & {
    at: Date;
    detail: Record<string, unknown>;
  };
  interface Walked {
    status: CaseStatus;
    events: EventDraft[];
    validatedAt: Date | null;
    deadlineAt: Date | null;
    /** When the deadline came within a day (the 'planning deadline near' review), if it did. */
    deadlineNearAt: Date | null;
    requestedAt: Date | null;
    approvedAt: Date | null;
    finishAt: Date | null;
    modifiedAt: Date;
  }
  const walked: Walked[] = plans.map(({ spec, path, printable, createdAt, services }) => {
    let status: CaseStatus = 'new';
    let at = createdAt;
    const events: Walked['events'] = [];
    const result: Walked = {
      status,
      events,
      validatedAt: null,
      deadlineAt: null,
      deadlineNearAt: null,
      requestedAt: null,
      approvedAt: null,
      finishAt: null,
      modifiedAt: new Date(createdAt),
    };
    events.push({ actorId: userId(spec.owner), at: new Date(at), action: 'created', detail: {} });
    spec.services.forEach((service, position) => {
      events.push({
        actorId: userId(spec.owner),
        at: new Date(createdAt + (position + 1) * 60_000),
        action: 'serviceAdded',
        // The service's id replaces its position once the services are written.
        detail: { position, productId: product(service.code).id },
      });
    });
    for (const step of path) {
      at += 5 * HOUR;
      const to = nextCaseStatus(status, step.action, {
        hasPrintableService: printable,
        checksPass: true,
      });
      if (!to) throw new Error(`demo cases: ${step.action} is not a move from ${status}`);
      const detail: Record<string, unknown> = {};
      if (step.action === 'approve') detail.text = 'Approved, thank you.';
      if (step.action === 'requestModification') detail.text = 'Please move the implant in 14.';
      events.push({
        actorId: userId(step.actor),
        at: new Date(at),
        action: step.action,
        fromStatus: status,
        toStatus: to,
        detail,
      });
      if (step.action === 'validate') {
        result.validatedAt = new Date(at);
        result.deadlineAt = caseDeadline(
          result.validatedAt,
          services.map((service) => service.product.manufactureTime),
        );
        // The supervisor assigns the planner right after validating.
        events.push({
          actorId: userId('supervisor'),
          at: new Date(at + 1000),
          action: 'plannerSet',
          detail: { plannerId: userId('planner') },
        });
      }
      if (step.action === 'requestApproval') {
        result.requestedAt = new Date(at);
        result.approvedAt = null;
      }
      if (step.action === 'approve') result.approvedAt = new Date(at);
      if (step.action === 'finish') result.finishAt = new Date(at);
      status = to;
    }
    if (status !== spec.status) {
      throw new Error(`demo cases: the path of a ${spec.status} case ends in ${status}`);
    }
    if (spec.openReview) {
      at += HOUR;
      events.push({
        actorId: userId('planner'),
        at: new Date(at),
        action: 'reviewOpened',
        detail: { reasonId: null },
      });
    }
    if (spec.archived) {
      at += 24 * HOUR;
      events.push({
        actorId: userId(spec.owner),
        at: new Date(at),
        action: 'archived',
        detail: {},
      });
    }
    if (isDeadlineNear(result.deadlineAt, new Date(base), status) && !spec.archived) {
      const lastAt = Math.max(...events.map((event) => event.at.getTime()));
      const nearAt = Math.max(result.deadlineAt!.getTime() - DEADLINE_NEAR_MS, lastAt + 1000);
      result.deadlineNearAt = new Date(Math.min(nearAt, base));
      events.push({
        actorId: null,
        at: result.deadlineNearAt,
        action: 'reviewOpened',
        detail: { reasonId: REVIEW_REASONS.planningDeadlineNear },
      });
    }
    if (spec.partner) {
      events.push({
        actorId: userId('supervisor'),
        at: new Date(createdAt + 1000),
        action: 'userAdded',
        detail: { userId: userId('partner') },
      });
    }
    result.status = status;
    result.modifiedAt = new Date(Math.max(...events.map((event) => event.at.getTime())));
    return result;
  });

  const caseRows = await db
    .insert(cases)
    .values(
      plans.map(({ spec, createdAt }, index) => {
        const walk = walked[index]!;
        return {
          ownerId: userId(spec.owner),
          patientId: patientRows[index]!.id,
          caseStatus: walk.status,
          listGroup: caseListGroup(walk.status),
          caseArchived: spec.archived ?? false,
          caseReview: (spec.openReview ?? false) || walk.deadlineNearAt !== null,
          hasPrintable: plans[index]!.printable,
          observation: spec.observation ?? '',
          // The demo doctor and clinic are Brazilian (accounts.ts): their cases are in reais.
          caseCurrency: 'BRL',
          searchText: foldText(`${spec.patient.fname} ${spec.patient.lname}`),
          createdAt: new Date(createdAt),
          modifiedAt: walk.modifiedAt,
          validatedAt: walk.validatedAt,
          deadlineAt: walk.deadlineAt,
          finishAt: walk.finishAt,
        };
      }),
    )
    .returning({ id: cases.id });
  const caseIds = caseRows.map((row) => row.id);

  const serviceValues: (typeof caseServices.$inferInsert)[] = [];
  plans.forEach(({ services, createdAt }, index) => {
    const walk = walked[index]!;
    services.forEach((service, position) => {
      const layout = service.layout ?? 'v3';
      const categoryId = service.product.productCategoryId;
      serviceValues.push({
        caseId: caseIds[index]!,
        productId: service.product.id,
        productCategoryId: categoryId,
        quantity: service.quantity ?? 1,
        printableProduct: isPrintableProduct(service.product),
        plannerId: walk.validatedAt ? userId('planner') : null,
        approveRequestAt: walk.requestedAt,
        approveAt: walk.approvedAt,
        dataVersion: layout === 'v1' ? 1 : SERVICE_DATA_VERSION,
        data:
          layout === 'v1'
            ? serviceDataV1()
            : layout === 'blank'
              ? emptyServiceDataV3()
              : serviceDataV3(categoryId, index + position),
        createdAt: new Date(createdAt + (position + 1) * 60_000),
      });
    });
  });
  const serviceRows = serviceValues.length
    ? await db
        .insert(caseServices)
        .values(serviceValues)
        .returning({ id: caseServices.id, caseId: caseServices.caseId })
    : [];

  const memberValues: (typeof caseUsers.$inferInsert)[] = [];
  plans.forEach(({ spec, createdAt }, index) => {
    const walk = walked[index]!;
    if (walk.validatedAt) {
      memberValues.push({
        caseId: caseIds[index]!,
        userId: userId('planner'),
        triggerNotification: true,
        viaRole: 'planner',
        createdAt: new Date(walk.validatedAt.getTime() + 1000),
      });
    }
    if (spec.partner) {
      memberValues.push({
        caseId: caseIds[index]!,
        userId: userId('partner'),
        triggerNotification: false,
        viaRole: 'partner',
        createdAt: new Date(createdAt + 1000),
      });
    }
  });
  if (memberValues.length) await db.insert(caseUsers).values(memberValues);

  const reviewValues: (typeof caseReviews.$inferInsert)[] = [];
  plans.forEach(({ spec }, index) => {
    const walk = walked[index]!;
    const caseId = caseIds[index]!;
    const eventAt = (action: string) => walk.events.find((event) => event.action === action)?.at;
    if (walk.deadlineNearAt) {
      reviewValues.push({
        caseId,
        reasonId: REVIEW_REASONS.planningDeadlineNear,
        description: '',
        createdAt: walk.deadlineNearAt,
      });
    }
    if (spec.openReview) {
      reviewValues.push({
        caseId,
        reasonId: null,
        description: 'The tomography does not show the lower jaw; please send a new one.',
        createdBy: userId('planner'),
        createdAt: eventAt('reviewOpened'),
      });
    }
    if (spec.modifiedOnce) {
      // Requesting a modification opens a review; the supervisor solved it when the planner
      // delivered the new plan.
      const openedAt = eventAt('requestModification')!;
      reviewValues.push({
        caseId,
        reasonId: null,
        description: 'Please move the implant in 14.',
        createdBy: userId(spec.owner),
        createdAt: openedAt,
        solvedAt: new Date(openedAt.getTime() + 4 * HOUR),
        solvedBy: userId('supervisor'),
      });
    }
  });
  const reviewRows = reviewValues.length
    ? await db
        .insert(caseReviews)
        .values(reviewValues)
        .returning({
          id: caseReviews.id,
          caseId: caseReviews.caseId,
          reasonId: caseReviews.reasonId,
          solved: sql<boolean>`${caseReviews.solvedAt} is not null`,
        })
    : [];

  // Events last, so each detail can name the rows it is about; in time order per case.
  const eventValues: (typeof caseEvents.$inferInsert)[] = [];
  plans.forEach(({ spec }, index) => {
    const caseId = caseIds[index]!;
    const walk = walked[index]!;
    const serviceIds = serviceRows.filter((row) => row.caseId === caseId).map((row) => row.id);
    const reviews = reviewRows.filter((row) => row.caseId === caseId);
    const reviewId = (reasonId: unknown, solved: boolean) =>
      reviews.find((row) => row.reasonId === reasonId && row.solved === solved)?.id;
    const events = [...walk.events];
    if (spec.modifiedOnce) {
      const requested = events.find((event) => event.action === 'requestModification')!;
      const solvedAt = new Date(requested.at.getTime() + 4 * HOUR);
      events.push({
        actorId: userId('supervisor'),
        at: solvedAt,
        action: 'reviewSolved',
        detail: { reviewId: reviewId(null, true) },
      });
    }
    const withIds = (event: EventDraft): Record<string, unknown> => {
      if (['plannerSet', 'requestApproval', 'approve'].includes(event.action)) {
        return { ...event.detail, serviceIds };
      }
      if (event.action === 'reviewOpened') {
        return { reviewId: reviewId(event.detail.reasonId, false), ...event.detail };
      }
      if (event.action === 'serviceAdded') {
        const { position, ...rest } = event.detail as { position: number };
        return { serviceId: serviceIds[position], ...rest };
      }
      return event.detail;
    };
    events.sort((a, b) => a.at.getTime() - b.at.getTime());
    eventValues.push(...events.map((event) => ({ ...event, caseId, detail: withIds(event) })));
  });
  await db.insert(caseEvents).values(eventValues);

  if (options.storage) {
    const withFiles = caseIds.filter((_, index) => walked[index]!.status !== 'cancelled');
    await seedSampleAttachments(db, options.storage, withFiles);
  }

  return {
    caseIds,
    validatedCaseIds: caseIds.filter((_, index) => walked[index]!.validatedAt !== null),
  };
}
