import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { QTD_OPTIONS } from '../shop/product';

const PER_TOOTH_QTD_OPTION = QTD_OPTIONS.perElement;

/**
 * The FDI (ISO 3950) numbering of the permanent teeth: the first digit is the quadrant (1 upper
 * right, 2 upper left, 3 lower left, 4 lower right, as seen by the dentist facing the patient),
 * the second the position from the midline (1 central incisor … 8 third molar).
 */
export const FDI_QUADRANTS = [1, 2, 3, 4] as const;
export type FdiQuadrant = (typeof FDI_QUADRANTS)[number];
export const TEETH_PER_QUADRANT = 8;

const quadrantTeeth = (quadrant: FdiQuadrant) =>
  Array.from({ length: TEETH_PER_QUADRANT }, (_, index) => quadrant * 10 + index + 1);

/**
 * The chart's rows as the dentist sees the patient: upper jaw 18…11 then 21…28, lower jaw
 * 48…41 then 31…38 (the patient's right on the left).
 */
export const TOOTH_CHART_ROWS = {
  upper: [...quadrantTeeth(1).reverse(), ...quadrantTeeth(2)],
  lower: [...quadrantTeeth(4).reverse(), ...quadrantTeeth(3)],
} as const satisfies Record<'upper' | 'lower', readonly number[]>;

/** All 32 FDI numbers, 11–18, 21–28, 31–38, 41–48. */
export const FDI_TEETH: readonly number[] = FDI_QUADRANTS.flatMap(quadrantTeeth);

export const isFdiTooth = (value: unknown): value is number =>
  typeof value === 'number' && FDI_TEETH.includes(value);

/** The jaw a tooth sits in (quadrants 1 and 2 upper). */
export const toothJaw = (tooth: number): 'upper' | 'lower' =>
  Math.floor(tooth / 10) <= 2 ? 'upper' : 'lower';

/** Chosen teeth in chart order (upper right to upper left, then lower right to lower left). */
export function sortTeeth(teeth: readonly number[]): number[] {
  const order = [...TOOTH_CHART_ROWS.upper, ...TOOTH_CHART_ROWS.lower];
  return [...new Set(teeth)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** Adds the tooth when absent, removes it when chosen; answers the list in chart order. */
export function toggleTooth(teeth: readonly number[], tooth: number): number[] {
  return teeth.includes(tooth)
    ? teeth.filter((chosen) => chosen !== tooth)
    : sortTeeth([...teeth, tooth]);
}

/** The elements of a per-tooth service: distinct FDI numbers. */
export const fdiTeethSchema = z
  .array(z.number().int().refine(isFdiTooth, { message: MESSAGE.invalid }))
  .max(FDI_TEETH.length)
  .refine((teeth) => new Set(teeth).size === teeth.length, { message: MESSAGE.invalid });

/**
 * A per-tooth service names exactly as many teeth as it counts elements (its quantity, which the
 * price multiplies): 'missing' below, 'tooMany' above, null when they match.
 */
export function teethCountProblem(
  teeth: readonly number[] | undefined,
  quantity: number,
): 'missing' | 'tooMany' | null {
  const chosen = teeth?.length ?? 0;
  if (chosen < quantity) return 'missing';
  if (chosen > quantity) return 'tooMany';
  return null;
}

/**
 * Whether a service's data may name these teeth: only a per-tooth service (qtdOption 3) names
 * teeth, and never more than it counts. Fewer is work in progress (the form asks for the rest).
 */
export function mayNameTeeth(
  service: { qtdOption: number; quantity: number },
  teeth: readonly number[] | undefined,
): boolean {
  const chosen = teeth?.length ?? 0;
  if (chosen === 0) return true;
  return service.qtdOption === PER_TOOTH_QTD_OPTION && chosen <= service.quantity;
}
