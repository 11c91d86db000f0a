import { describe, expect, it } from 'vitest';
import { planCaseOrder, quantityOfServices, type ServiceWithoutOrder } from './case-order';

const service = (id: number, productId: number, comboId: number | null = null, quantity = 1) =>
  ({ id, productId, comboId, quantity, manufactureData: null }) satisfies ServiceWithoutOrder;

describe('an order for a case takes its services without an order', () => {
  const guide = service(1, 10);
  const comboPlanning = service(2, 20, 30);
  const comboPrint = service(3, 21, 30);

  it.each([
    ['nothing requested: every service is leftover', [], [], [10, 30]],
    ['the guide requested: it takes the guide, no copy', [10], [[1]], [30]],
    ['the combo requested: it takes both parts', [30], [[2, 3]], [10]],
    ['a new product: new services, the rest leftover', [99], [[]], [10, 30]],
    ['everything requested', [30, 10], [[2, 3], [1]], []],
  ])('%s', (_, requestedIds, reusedIds, leftoverIds) => {
    const plan = planCaseOrder(
      requestedIds.map((cartProductId) => ({ cartProductId })),
      [guide, comboPlanning, comboPrint],
    );
    expect(plan.reused.map((group) => group.map((s) => s.id))).toEqual(reusedIds);
    expect(plan.leftover.map((group) => group.productId)).toEqual(leftoverIds);
  });

  it('a case without such services: every item is new', () => {
    expect(planCaseOrder([{ cartProductId: 10 }], [])).toEqual({ reused: [[]], leftover: [] });
  });

  it.each([
    [[], 1],
    [[service(1, 10, null, 4)], 4],
    [[service(1, 10, 5, 2), service(2, 11, 5, 6)], 6],
  ])('quantity of %j → %i', (services, expected) =>
    expect(quantityOfServices(services)).toBe(expected),
  );
});
