import { describe, expect, it } from 'vitest';
import { emptyServiceDataV1, emptyServiceDataV3 } from './service-data';
import type { CaseRelation } from './case-access';
import {
  OLD_LAYOUT_TEETH,
  caseDeliveryFor,
  caseProductionActions,
  dispatchBodyProblems,
  dispatchKindFor,
  dispatchRefusal,
  mayDispatchCase,
  mayEditCaseAddress,
  mayReadProductionSheet,
  mayViewCaseMoney,
  serviceElements,
  serviceManufacture,
  type CaseProductionFacts,
  type DeliveryOrder,
  type ServiceManufactureFacts,
} from './case-production';

const ME = 7;
const OWNER = 20;
const PAYER = 21;
const viewer = (roles: string[], userId = ME) => ({ userId, roles });

describe('serviceElements', () => {
  const upperFlags = OLD_LAYOUT_TEETH.upper.map((tooth) => tooth === 11 || tooth === 21);
  const lowerFlags = OLD_LAYOUT_TEETH.lower.map((tooth) => tooth === 36);
  const none = Array<boolean>(14).fill(false);
  const v1 = (overrides: object) => ({
    dataVersion: 1,
    data: { ...emptyServiceDataV1(), ...overrides },
  });
  it.each([
    [
      'current layout: the jaw and the implant system',
      {
        dataVersion: 3,
        data: {
          ...emptyServiceDataV3(),
          jaw: 'lower',
          implantSystem: { manufactureName: 'Neodent', systemName: 'GM' },
        },
      },
      { jaw: 'lower', teeth: [], implantSystem: 'Neodent / GM' },
    ],
    [
      'current layout, unanswered',
      { dataVersion: 3, data: emptyServiceDataV3() },
      { jaw: null, teeth: [], implantSystem: '' },
    ],
    [
      'current layout, a jaw that is not one',
      { dataVersion: 3, data: { jaw: 'left' } },
      { jaw: null, teeth: [], implantSystem: '' },
    ],
    ['no data at all', { dataVersion: 3, data: null }, { jaw: null, teeth: [], implantSystem: '' }],
    [
      'old layout: flagged teeth as FDI numbers, upper first',
      v1({
        selectedJaw: 'both',
        upperJaw: upperFlags,
        lowerJaw: lowerFlags,
        system: 'SIN',
        subSystem: 'Strong',
      }),
      { jaw: 'both', teeth: [11, 21, 36], implantSystem: 'SIN / Strong' },
    ],
    [
      'old layout: jaw from the teeth (upper)',
      v1({ upperJaw: upperFlags, lowerJaw: none }),
      { jaw: 'upper', teeth: [11, 21], implantSystem: '' },
    ],
    [
      'old layout: jaw from the teeth (lower)',
      v1({ selectedJaw: 'mandible', upperJaw: none, lowerJaw: lowerFlags }),
      { jaw: 'lower', teeth: [36], implantSystem: '' },
    ],
    [
      'old layout: teeth of the wrong length are ignored',
      v1({ upperJaw: [true, true] }),
      { jaw: null, teeth: [], implantSystem: '' },
    ],
  ])('%s', (_name, service, expected) => expect(serviceElements(service)).toEqual(expected));
});

describe('serviceManufacture', () => {
  const facts = (overrides: Partial<ServiceManufactureFacts>): ServiceManufactureFacts => ({
    productKind: 2,
    enableKit: true,
    enableSleeve: true,
    manufactureData: { sleevesManufacture: 3, sleevesQtd: 4 },
    sleeveManufacturerName: 'Neodent',
    dataVersion: 3,
    data: { ...emptyServiceDataV3(), jaw: 'upper' },
    ...overrides,
  });
  type Row = [string, Partial<ServiceManufactureFacts>, object | null];
  const rows: Row[] = [
    ['a planning service makes nothing', { productKind: 1 }, null],
    [
      'kit and sleeves',
      {},
      { sleeveManufacturer: 'Neodent', sleeveQuantity: 4, kit: true, jaw: 'upper', teeth: [] },
    ],
    [
      'kit only: the manufacturer, no sleeves',
      { enableSleeve: false },
      { sleeveManufacturer: 'Neodent', sleeveQuantity: 0, kit: true },
    ],
    [
      'sleeves only',
      { enableKit: false },
      { sleeveManufacturer: 'Neodent', sleeveQuantity: 4, kit: false },
    ],
    [
      'neither option: no manufacturer, no sleeves',
      { enableKit: false, enableSleeve: false },
      { sleeveManufacturer: null, sleeveQuantity: 0, kit: false },
    ],
    [
      'ordered without the shop',
      { manufactureData: null, sleeveManufacturerName: null },
      { sleeveManufacturer: null, sleeveQuantity: 0, kit: true },
    ],
    [
      'no manufacturer chosen',
      { manufactureData: { sleevesManufacture: null, sleevesQtd: 0 }, sleeveManufacturerName: 'x' },
      { sleeveManufacturer: null, sleeveQuantity: 0 },
    ],
  ];
  it.each(rows)('%s', (_name, overrides, expected) => {
    const made = serviceManufacture(facts(overrides));
    if (expected === null) expect(made).toBeNull();
    else expect(made).toMatchObject(expected);
  });
});

describe('delivery and its money', () => {
  const order: DeliveryOrder = {
    payerId: PAYER,
    paymentMethod: 'pix',
    currency: 'BRL',
    priceShipping: 4500,
    priceTotal: 82950,
    shipment: {
      addressType: 1,
      address: {
        zipCode: '01310-100',
        country: 'Brasil',
        state: 'SP',
        city: 'São Paulo',
        address: 'Avenida Paulista, 1000',
        complement: '',
      },
      shipmentType: 0,
      shipmentOption: { fee: 4500, days: 3 },
    },
  };
  const money = { currency: 'BRL', fee: 4500, orderTotal: 82950, paymentMethod: 'pix' };

  it.each([
    ['supervisor', viewer(['supervisor']), true],
    ['admin', viewer(['admin']), true],
    ['the owner', viewer(['doctor'], OWNER), true],
    ['the payer', viewer(['doctor'], PAYER), true],
    ['a planner', viewer(['planner']), false],
    ['a printer', viewer(['printer']), false],
    ['a partner member', viewer(['partner']), false],
    ['a doctor member', viewer(['doctor']), false],
    ['the instructor', viewer(['instructor']), false],
  ])('%s sees the money: %s', (_name, who, sees) => {
    expect(mayViewCaseMoney(who, { caseOwnerId: OWNER, payerId: PAYER })).toBe(sees);
    const delivery = caseDeliveryFor(who, { caseOwnerId: OWNER, caseAddress: null, order });
    expect(delivery).toMatchObject({ shipmentType: 0, days: 3, address: order.shipment.address });
    if (sees) expect(delivery?.money).toEqual(money);
    else expect(delivery).not.toHaveProperty('money');
  });

  const edited = { ...order.shipment.address, address: 'Rua Augusta, 5' };
  it.each([
    ['nothing ships', null, null, null],
    [
      'type not chosen',
      { ...order, shipment: { ...order.shipment, shipmentType: -1 } },
      null,
      null,
    ],
    ['the case address wins over the order’s', order, edited, edited],
    ['the order’s address when the case has none', order, null, order.shipment.address],
    [
      'a local withdraw has no address',
      { ...order, shipment: { ...order.shipment, shipmentType: 2 } },
      edited,
      null,
    ],
  ])('%s', (_name, theOrder, caseAddress, address) => {
    const delivery = caseDeliveryFor(viewer(['printer']), {
      caseOwnerId: OWNER,
      caseAddress,
      order: theOrder,
    });
    if (theOrder === null || theOrder.shipment.shipmentType < 0) expect(delivery).toBeNull();
    else expect(delivery?.address).toEqual(address);
  });
});

describe('dispatch', () => {
  const made: CaseProductionFacts = {
    caseStatus: 'finished',
    caseArchived: false,
    hasPrintable: true,
    dispatched: false,
  };
  it.each([
    ['finished, printed, not dispatched', {}, null],
    ['closed by the client before', { caseStatus: 'closed' }, null],
    ['archived', { caseArchived: true }, 'archived'],
    ['already dispatched', { dispatched: true }, 'alreadyDispatched'],
    ['still printing', { caseStatus: 'print' }, 'notFinished'],
    ['finishing', { caseStatus: 'finishing' }, 'notFinished'],
    ['cancelled', { caseStatus: 'cancelled' }, 'notFinished'],
    ['nothing printed by the lab', { hasPrintable: false }, 'nothingToDispatch'],
  ] as const)('%s → %s', (_name, overrides, refusal) =>
    expect(dispatchRefusal({ ...made, ...overrides })).toBe(refusal),
  );

  type Row = [string, string[], CaseRelation | null, boolean];
  const rows: Row[] = [
    ['supervisor', ['supervisor'], 'staff', true],
    ['admin', ['admin'], 'staff', true],
    ['printer who sees it as printer', ['printer'], 'printer', true],
    ['printer added to the case', ['printer'], 'member', true],
    ['printer and planner of the case', ['printer', 'planner'], 'planner', true],
    ['planner of the case', ['planner'], 'planner', false],
    ['the owner', ['doctor'], 'owner', false],
    ['a partner member', ['partner'], 'member', false],
    ['the instructor', ['instructor'], 'instructor', false],
    ['a printer who does not see it', ['printer'], null, false],
  ];
  it.each(rows)('%s may dispatch: %s', (_name, roles, relation, may) => {
    expect(mayDispatchCase(viewer(roles), relation)).toBe(may);
    expect(caseProductionActions(viewer(roles), relation, made).includes('dispatch')).toBe(may);
    expect(
      caseProductionActions(viewer(roles), relation, { ...made, dispatched: true }),
    ).not.toContain('dispatch');
  });

  it.each([
    ['Sedex', 0, 'shipped'],
    ['PAC', 1, 'shipped'],
    ['motoboy', 3, 'shipped'],
    ['nothing chosen', undefined, 'shipped'],
    ['local withdraw', 2, 'readyForPickup'],
  ] as const)('%s → %s', (_name, type, kind) => expect(dispatchKindFor(type)).toBe(kind));

  const TODAY = '2026-05-10';
  it.each([
    [
      'shipped with carrier and code',
      { date: TODAY, carrier: 'Correios', trackingCode: 'BR1' },
      'shipped',
      null,
    ],
    ['shipped without a code', { date: '2026-05-01', carrier: 'Correios' }, 'shipped', null],
    ['tomorrow (time zones)', { date: '2026-05-11', carrier: 'Correios' }, 'shipped', null],
    [
      'after tomorrow',
      { date: '2026-05-12', carrier: 'Correios' },
      'shipped',
      { date: 'validation.invalid' },
    ],
    ['shipped without a carrier', { date: TODAY }, 'shipped', { carrier: 'validation.required' }],
    ['pickup', { date: TODAY }, 'readyForPickup', null],
    [
      'pickup with a carrier and code',
      { date: TODAY, carrier: 'X', trackingCode: 'Y' },
      'readyForPickup',
      { carrier: 'validation.invalid', trackingCode: 'validation.invalid' },
    ],
  ] as const)('%s', (_name, body, kind, problems) =>
    expect(dispatchBodyProblems(body, kind, TODAY)).toEqual(problems),
  );
});

describe('production sheet and the case address', () => {
  it.each([
    ['supervisor', ['supervisor'], 'staff', true],
    ['planner of the case', ['planner'], 'planner', true],
    ['planner added to the case', ['planner'], 'member', true],
    ['printer', ['printer'], 'printer', true],
    ['printer added to the case', ['printer'], 'member', true],
    ['the owner', ['doctor'], 'owner', false],
    ['a doctor member', ['doctor'], 'member', false],
    ['a partner member', ['partner'], 'member', false],
    ['the instructor', ['instructor'], 'instructor', false],
  ] as const)('%s reads the sheet: %s', (_name, roles, relation, may) =>
    expect(mayReadProductionSheet(viewer([...roles]), relation)).toBe(may),
  );

  const facts: CaseProductionFacts = {
    caseStatus: 'execute',
    caseArchived: false,
    hasPrintable: true,
    dispatched: false,
  };
  it.each([
    ['owner while planning', 'owner', {}, true],
    ['owner when finished', 'owner', { caseStatus: 'finished' }, true],
    ['staff when closed', 'staff', { caseStatus: 'closed' }, true],
    ['owner after dispatch', 'owner', { dispatched: true }, false],
    ['staff after dispatch', 'staff', { dispatched: true }, false],
    ['owner, archived', 'owner', { caseArchived: true }, false],
    ['owner, cancelled', 'owner', { caseStatus: 'cancelled' }, false],
    ['planner', 'planner', {}, false],
    ['printer', 'printer', {}, false],
    ['member', 'member', {}, false],
  ] as const)('%s may edit the address: %s', (_name, relation, overrides, may) => {
    expect(mayEditCaseAddress(relation, { ...facts, ...overrides })).toBe(may);
    expect(
      caseProductionActions(viewer(['doctor']), relation, { ...facts, ...overrides }).includes(
        'editAddress',
      ),
    ).toBe(may);
  });
});
