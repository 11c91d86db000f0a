import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { SERVICE_DATA_VERSION, TEETH_PER_JAW } from '../constants';
import { isOneOf } from '../common/one-of';
import { fdiTeethSchema } from './tooth-chart';

/**
 * Service data: the old layout (dataVersion below 3, 14 teeth per jaw) and the current
 * layout (version 3), their validity, and which sections each product category shows.
 */

export const JAWS = ['upper', 'lower', 'both'] as const;
export type Jaw = (typeof JAWS)[number];

/** Treatment purposes (ids as stored). */
export const TREATMENT_PURPOSES = {
  compositeResin: 1,
  ceramicLaminates: 2,
  crownOnTooth: 3,
  crownOnImplant: 4,
  protocol: 5,
  fixedProsthesis: 6,
  fixedProsthesisWithGum: 7,
} as const;
export type TreatmentPurposeKey = keyof typeof TREATMENT_PURPOSES;
export type TreatmentPurposeId = (typeof TREATMENT_PURPOSES)[TreatmentPurposeKey];
export const TREATMENT_PURPOSE_IDS = Object.values(TREATMENT_PURPOSES) as TreatmentPurposeId[];

/** The only category that shows jaw, patient provisional, implant system and teeth to extract. */
export const SURGICAL_GUIDE_CATEGORY_ID = 3;

export const SERVICE_DATA_SECTIONS = [
  'jaw',
  'provision',
  'implantSystem',
  'extractTeeth',
  'hasOrtho',
  'plasticGum',
  'increaseDVO',
  'treatmentPurpose',
  'extra',
  'terms',
] as const;
export type ServiceDataSection = (typeof SERVICE_DATA_SECTIONS)[number];
const CATEGORY_3_ONLY: readonly ServiceDataSection[] = [
  'jaw',
  'provision',
  'implantSystem',
  'extractTeeth',
];

/**
 * Which sections the service-data form shows for a category. The spec fixes only that category 3
 * alone shows jaw, provisional, implant system and teeth to extract, and that all show extra info.
 * Decision (spec silent): the remaining questions (ortho, plastic gum, DVO, treatment purpose) and
 * the terms show for every category, since the current-layout validity rule lists them all.
 */
export function serviceDataSections(productCategoryId: number): ServiceDataSection[] {
  return SERVICE_DATA_SECTIONS.filter(
    (section) =>
      productCategoryId === SURGICAL_GUIDE_CATEGORY_ID || !CATEGORY_3_ONLY.includes(section),
  );
}

export function showsServiceDataSection(
  productCategoryId: number,
  section: ServiceDataSection,
): boolean {
  return serviceDataSections(productCategoryId).includes(section);
}

const teethSchema = z.array(z.boolean()).length(TEETH_PER_JAW);

/** Old layout (dataVersion < 3). Kept readable; valid when the terms were accepted. */
export const serviceDataV1Schema = z.object({
  selectedJaw: z.string().max(20).nullable(),
  upperJaw: teethSchema,
  lowerJaw: teethSchema,
  provision: z.boolean().nullable(),
  provisionObs: z.string().max(1000),
  system: z.string().max(120),
  subSystem: z.string().max(120),
  implantModel: z.string().max(120),
  extractTeeth: z.boolean().nullable(),
  extractInfo: z.string().max(1000),
  mockup: z.boolean().nullable(),
  extraInfo: z.string().max(2000),
  surgicalKit: z.object({ manufacture: z.string().max(120), system: z.string().max(120) }),
  terms: z.boolean(),
});
export type ServiceDataV1 = z.infer<typeof serviceDataV1Schema>;

/**
 * Current layout (version 3). Yes/no questions are `null` until answered: "filled" in the spec's
 * rule means answered, either way.
 */
export const serviceDataV3Schema = z.object({
  jaw: z.enum(JAWS).nullable(),
  implantSystem: z.object({
    manufactureName: z.string().max(120),
    systemName: z.string().max(120),
  }),
  extractTeeth: z.boolean().nullable(),
  hasOrtho: z.boolean().nullable(),
  plasticGum: z.boolean().nullable(),
  increaseDVO: z.object({
    checked: z.boolean(),
    /** millimetres */
    howMuch: z.number().min(0).max(100).nullable(),
  }),
  treatmentPurpose: z.object({ purpose: z.number().int().nullable() }),
  provision: z.boolean().nullable(),
  terms: z.object({ checked: z.boolean() }),
  extra: z.string().max(2000, MESSAGE.max),
  /**
   * The elements of a per-tooth service, FDI numbers (`tooth-chart.ts`); absent on data saved
   * before the chart existed and on the other services.
   */
  teeth: fdiTeethSchema.optional(),
});
export type ServiceDataV3 = z.infer<typeof serviceDataV3Schema>;

export function emptyServiceDataV1(): ServiceDataV1 {
  return {
    selectedJaw: null,
    upperJaw: Array<boolean>(TEETH_PER_JAW).fill(false),
    lowerJaw: Array<boolean>(TEETH_PER_JAW).fill(false),
    provision: null,
    provisionObs: '',
    system: '',
    subSystem: '',
    implantModel: '',
    extractTeeth: null,
    extractInfo: '',
    mockup: null,
    extraInfo: '',
    surgicalKit: { manufacture: '', system: '' },
    terms: false,
  };
}

export function emptyServiceDataV3(): ServiceDataV3 {
  return {
    jaw: null,
    implantSystem: { manufactureName: '', systemName: '' },
    extractTeeth: null,
    hasOrtho: null,
    plasticGum: null,
    increaseDVO: { checked: false, howMuch: null },
    treatmentPurpose: { purpose: null },
    provision: null,
    terms: { checked: false },
    extra: '',
  };
}

export const isOldServiceDataLayout = (dataVersion: number | null | undefined) =>
  (dataVersion ?? 0) < SERVICE_DATA_VERSION;

/** The sections of the current layout that are missing or wrong, for the form to highlight. */
export function serviceDataV3Problems(
  data: Partial<ServiceDataV3> | null | undefined,
  productCategoryId: number,
): ServiceDataSection[] {
  const d = data ?? {};
  const filled = (value: unknown) => value !== null && value !== undefined;
  const checks: Record<ServiceDataSection, () => boolean> = {
    jaw: () => !!d.jaw && isOneOf(JAWS, d.jaw),
    provision: () => filled(d.provision),
    implantSystem: () =>
      !!d.implantSystem?.manufactureName?.trim() && !!d.implantSystem?.systemName?.trim(),
    extractTeeth: () => filled(d.extractTeeth),
    hasOrtho: () => filled(d.hasOrtho),
    plasticGum: () => filled(d.plasticGum),
    increaseDVO: () =>
      !!d.increaseDVO &&
      (!d.increaseDVO.checked ||
        (typeof d.increaseDVO.howMuch === 'number' && d.increaseDVO.howMuch > 0)),
    treatmentPurpose: () => isOneOf(TREATMENT_PURPOSE_IDS, d.treatmentPurpose?.purpose ?? -1),
    extra: () => typeof d.extra === 'string' && d.extra.trim().length > 0,
    terms: () => d.terms?.checked === true,
  };
  return serviceDataSections(productCategoryId).filter((section) => !checks[section]());
}

/**
 * The current layout is valid only when jaw chosen; implant manufacturer and system
 * present; extraction, ortho, plastic gum, provision, extra filled; increase DVO unchecked or a
 * number above 0; treatment purpose chosen; terms checked — each only where the category shows it.
 * The old layout is valid when the terms were accepted.
 */
export function isServiceDataValid(service: {
  dataVersion: number | null | undefined;
  data: unknown;
  productCategoryId: number;
}): boolean {
  if (isOldServiceDataLayout(service.dataVersion)) {
    const data = service.data as Partial<ServiceDataV1> | null | undefined;
    return data?.terms === true;
  }
  const parsed = serviceDataV3Schema.safeParse(service.data);
  if (!parsed.success) return false;
  return serviceDataV3Problems(parsed.data, service.productCategoryId).length === 0;
}
