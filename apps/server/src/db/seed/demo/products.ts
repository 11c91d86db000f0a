import { eq } from 'drizzle-orm';
import type { Storage } from '../../../adapters/storage/storage';
import {
  demoProductImage,
  newProductImageName,
  productImageKey,
  productImageUrl,
} from '../../../modules/products/product-images';
import type { DbOrTx } from '../../client';
import { products, type ProductTexts, type TranslatedName } from '../../schema';

/**
 * The demo catalogue: every category (1-8), planning and manufacturing products, per case, per
 * arch and per element (qtdOption 3), kit and sleeve options, shipping, a client-prints product,
 * combos with a combo discount, and a draft (published in no language). ptBR texts carry the BRL
 * price, en and es the USD price (minor units). The first six keep their codes, ids and prices:
 * the demo cases and tests rely on them.
 */

interface TextOptions {
  /** Combo discount percent (the same in every language). */
  discount?: number;
  publish?: boolean;
}

/** ptBR prices in BRL cents, en/es prices in USD cents. */
function texts(
  names: TranslatedName,
  descriptions: TranslatedName,
  brlCents: number,
  usdCents: number,
  options: TextOptions = {},
): ProductTexts {
  const text = (lang: keyof TranslatedName, price: number) => ({
    name: names[lang],
    description: descriptions[lang],
    price,
    discount: options.discount ?? 0,
    publish: options.publish ?? true,
  });
  return { ptBR: text('ptBR', brlCents), en: text('en', usdCents), es: text('es', usdCents) };
}

type ProductInsert = typeof products.$inferInsert;
interface DemoProduct extends Omit<ProductInsert, 'innerProducts'> {
  /** Codes of a combo's parts (seeded before it). */
  inner?: string[];
  /** Background of the generated demo image. */
  colour: string;
}

/** A colour per category, so the grid reads at a glance. */
const COLOUR: Record<number, string> = {
  1: '#1c7ed6',
  2: '#d6336c',
  3: '#0ca678',
  4: '#f08c00',
  5: '#ae3ec9',
  6: '#e03131',
  7: '#5c7cfa',
  8: '#495057',
};

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    code: 'PLAN-GUIDE',
    productCategoryId: 3,
    productKind: 1,
    qtdOption: 2,
    qtdMax: 2,
    favorite: true,
    price: 45000,
    colour: COLOUR[3]!,
    texts: texts(
      {
        ptBR: 'Planejamento de guia cirúrgico',
        en: 'Surgical guide planning',
        es: 'Planificación de guía quirúrgica',
      },
      {
        ptBR: 'Planejamento digital da cirurgia de implantes com guia, por arcada.',
        en: 'Digital planning of guided implant surgery, per arch.',
        es: 'Planificación digital de la cirugía guiada de implantes, por arcada.',
      },
      45000,
      9000,
    ),
  },
  {
    code: 'PLAN-SMILE',
    productCategoryId: 2,
    productKind: 1,
    qtdOption: 1,
    price: 30000,
    colour: COLOUR[2]!,
    texts: texts(
      {
        ptBR: 'Planejamento digital do sorriso',
        en: 'Digital smile design',
        es: 'Diseño digital de la sonrisa',
      },
      {
        ptBR: 'Planejamento estético do sorriso com simulação digital.',
        en: 'Aesthetic smile planning with a digital simulation.',
        es: 'Planificación estética de la sonrisa con simulación digital.',
      },
      30000,
      6000,
    ),
  },
  {
    code: 'PLAN-ORTHO',
    productCategoryId: 1,
    productKind: 1,
    qtdOption: 1,
    price: 25000,
    colour: COLOUR[1]!,
    texts: texts(
      {
        ptBR: 'Planejamento ortodôntico',
        en: 'Orthodontic planning',
        es: 'Planificación ortodóntica',
      },
      {
        ptBR: 'Setup ortodôntico digital para alinhadores.',
        en: 'Digital orthodontic setup for aligners.',
        es: 'Setup ortodóntico digital para alineadores.',
      },
      25000,
      5000,
    ),
  },
  {
    code: 'MFG-GUIDE',
    productCategoryId: 3,
    productKind: 2,
    qtdOption: 2,
    qtdMax: 2,
    kindOfManufacture: 1,
    manufactureTime: 3,
    enableKit: true,
    enableSleeve: true,
    shipping: true,
    price: 35000,
    colour: '#087f5b',
    texts: texts(
      {
        ptBR: 'Guia cirúrgico impresso',
        en: 'Printed surgical guide',
        es: 'Guía quirúrgica impresa',
      },
      {
        ptBR: 'Impressão 3D do guia cirúrgico planejado, com envio.',
        en: '3D printing of the planned surgical guide, shipped to you.',
        es: 'Impresión 3D de la guía quirúrgica planificada, con envío.',
      },
      35000,
      7000,
    ),
  },
  {
    code: 'MFG-MOCKUP',
    productCategoryId: 2,
    productKind: 2,
    qtdOption: 3,
    qtdMax: 14,
    kindOfManufacture: 3,
    mockup: true,
    shipping: true,
    price: 4000,
    colour: '#a61e4d',
    texts: texts(
      { ptBR: 'Mock-up impresso', en: 'Printed mock-up', es: 'Mock-up impreso' },
      {
        ptBR: 'Mock-up impresso por elemento dental.',
        en: 'Printed mock-up, priced per tooth.',
        es: 'Mock-up impreso, precio por diente.',
      },
      4000,
      800,
    ),
  },
  {
    code: 'COMBO-GUIDE',
    productType: 2,
    productCategoryId: 3,
    productKind: 1,
    qtdOption: 2,
    qtdMax: 2,
    inner: ['PLAN-GUIDE', 'MFG-GUIDE'],
    enableKit: true,
    enableSleeve: true,
    shipping: true,
    price: 80000,
    discount: 10,
    colour: '#2b8a3e',
    texts: texts(
      {
        ptBR: 'Combo guia cirúrgico',
        en: 'Surgical guide combo',
        es: 'Combo guía quirúrgica',
      },
      {
        ptBR: 'Planejamento e impressão do guia cirúrgico, com 10% de desconto no planejamento.',
        en: 'Planning and printing of the surgical guide, 10% off the planning.',
        es: 'Planificación e impresión de la guía quirúrgica, con 10% de descuento en la planificación.',
      },
      80000,
      16000,
      { discount: 10 },
    ),
  },
  {
    code: 'MFG-ALIGNER',
    productCategoryId: 1,
    productKind: 2,
    qtdOption: 2,
    qtdMax: 2,
    kindOfManufacture: 1,
    manufactureTime: 5,
    shipping: true,
    price: 60000,
    colour: '#1864ab',
    texts: texts(
      {
        ptBR: 'Modelos impressos para alinhadores',
        en: 'Printed aligner models',
        es: 'Modelos impresos para alineadores',
      },
      {
        ptBR: 'Sequência de modelos impressos do setup, por arcada, com envio.',
        en: 'The printed model sequence of the setup, per arch, shipped to you.',
        es: 'Secuencia de modelos impresos del setup, por arcada, con envío.',
      },
      60000,
      12000,
    ),
  },
  {
    code: 'COMBO-ORTHO',
    productType: 2,
    productCategoryId: 1,
    productKind: 1,
    qtdOption: 1,
    inner: ['PLAN-ORTHO', 'MFG-ALIGNER'],
    favorite: true,
    shipping: true,
    price: 85000,
    discount: 15,
    colour: '#364fc7',
    texts: texts(
      {
        ptBR: 'Combo alinhadores',
        en: 'Aligner combo',
        es: 'Combo alineadores',
      },
      {
        ptBR: 'Setup ortodôntico e modelos impressos, com 15% de desconto no planejamento.',
        en: 'Orthodontic setup and printed models, 15% off the planning.',
        es: 'Setup ortodóntico y modelos impresos, con 15% de descuento en la planificación.',
      },
      85000,
      17000,
      { discount: 15 },
    ),
  },
  {
    code: 'PLAN-IMPLANT',
    productCategoryId: 3,
    productKind: 1,
    qtdOption: 3,
    qtdMax: 8,
    price: 15000,
    colour: '#099268',
    texts: texts(
      {
        ptBR: 'Planejamento de implante unitário',
        en: 'Single implant planning',
        es: 'Planificación de implante unitario',
      },
      {
        ptBR: 'Posicionamento virtual de implantes, cobrado por elemento.',
        en: 'Virtual implant placement, priced per tooth.',
        es: 'Posicionamiento virtual de implantes, precio por diente.',
      },
      15000,
      3000,
    ),
  },
  {
    code: 'PLAN-CROWN',
    productCategoryId: 4,
    productKind: 1,
    qtdOption: 3,
    qtdMax: 14,
    price: 12000,
    colour: COLOUR[4]!,
    texts: texts(
      {
        ptBR: 'Desenho de coroas',
        en: 'Crown design',
        es: 'Diseño de coronas',
      },
      {
        ptBR: 'Desenho digital de coroas e facetas, por elemento.',
        en: 'Digital design of crowns and veneers, per tooth.',
        es: 'Diseño digital de coronas y carillas, por diente.',
      },
      12000,
      2400,
    ),
  },
  {
    code: 'MFG-CROWN',
    productCategoryId: 4,
    productKind: 2,
    qtdOption: 3,
    qtdMax: 14,
    kindOfManufacture: 2,
    manufactureTime: 4,
    shipping: true,
    price: 20000,
    colour: '#e67700',
    texts: texts(
      {
        ptBR: 'Coroa provisória impressa',
        en: 'Printed temporary crown',
        es: 'Corona provisional impresa',
      },
      {
        ptBR: 'Coroa provisória em resina impressa, por elemento, com envio.',
        en: 'Printed resin temporary crown, per tooth, shipped to you.',
        es: 'Corona provisional de resina impresa, por diente, con envío.',
      },
      20000,
      4000,
    ),
  },
  {
    code: 'PLAN-PERIO',
    productCategoryId: 5,
    productKind: 1,
    qtdOption: 2,
    qtdMax: 2,
    price: 20000,
    colour: COLOUR[5]!,
    texts: texts(
      {
        ptBR: 'Planejamento de gengivoplastia',
        en: 'Gingivoplasty planning',
        es: 'Planificación de gingivoplastia',
      },
      {
        ptBR: 'Planejamento do novo contorno gengival, por arcada.',
        en: 'Planning of the new gum line, per arch.',
        es: 'Planificación del nuevo contorno gingival, por arcada.',
      },
      20000,
      4000,
    ),
  },
  {
    code: 'MFG-PERIO',
    productCategoryId: 5,
    productKind: 2,
    qtdOption: 2,
    qtdMax: 2,
    kindOfManufacture: 1,
    manufactureTime: 2,
    shipping: true,
    price: 15000,
    colour: '#9c36b5',
    texts: texts(
      {
        ptBR: 'Guia de gengivoplastia impresso',
        en: 'Printed gingivoplasty guide',
        es: 'Guía de gingivoplastia impresa',
      },
      {
        ptBR: 'Guia cirúrgico para a gengivoplastia, por arcada, com envio.',
        en: 'Surgical guide for the gingivoplasty, per arch, shipped to you.',
        es: 'Guía quirúrgica para la gingivoplastia, por arcada, con envío.',
      },
      15000,
      3000,
    ),
  },
  {
    code: 'PLAN-ENDO',
    productCategoryId: 6,
    productKind: 1,
    qtdOption: 3,
    qtdMax: 4,
    price: 18000,
    colour: COLOUR[6]!,
    texts: texts(
      {
        ptBR: 'Planejamento de acesso endodôntico guiado',
        en: 'Guided endodontic access planning',
        es: 'Planificación de acceso endodóntico guiado',
      },
      {
        ptBR: 'Planejamento do acesso aos canais calcificados, por elemento.',
        en: 'Planning of the access to calcified canals, per tooth.',
        es: 'Planificación del acceso a conductos calcificados, por diente.',
      },
      18000,
      3600,
    ),
  },
  {
    code: 'MFG-ENDO',
    productCategoryId: 6,
    productKind: 2,
    qtdOption: 3,
    qtdMax: 4,
    kindOfManufacture: 1,
    manufactureTime: 2,
    enableSleeve: true,
    shipping: true,
    price: 9000,
    colour: '#c92a2a',
    texts: texts(
      {
        ptBR: 'Guia endodôntico impresso',
        en: 'Printed endodontic guide',
        es: 'Guía endodóntica impresa',
      },
      {
        ptBR: 'Guia com anilhas para o acesso endodôntico, por elemento, com envio.',
        en: 'Guide with sleeves for the endodontic access, per tooth, shipped to you.',
        es: 'Guía con anillas para el acceso endodóntico, por diente, con envío.',
      },
      9000,
      1800,
    ),
  },
  {
    code: 'COMBO-ENDO',
    productType: 2,
    productCategoryId: 6,
    productKind: 1,
    qtdOption: 3,
    qtdMax: 4,
    inner: ['PLAN-ENDO', 'MFG-ENDO'],
    enableSleeve: true,
    shipping: true,
    price: 27000,
    discount: 10,
    colour: '#f03e3e',
    texts: texts(
      {
        ptBR: 'Combo endodontia guiada',
        en: 'Guided endodontics combo',
        es: 'Combo endodoncia guiada',
      },
      {
        ptBR: 'Planejamento e guia endodôntico por elemento, com 10% de desconto no planejamento.',
        en: 'Planning and endodontic guide per tooth, 10% off the planning.',
        es: 'Planificación y guía endodóntica por diente, con 10% de descuento en la planificación.',
      },
      27000,
      5400,
      { discount: 10 },
    ),
  },
  {
    code: 'PLAN-ORTHOGNATHIC',
    productCategoryId: 7,
    productKind: 1,
    qtdOption: 1,
    manufactureTime: 7,
    price: 120000,
    colour: COLOUR[7]!,
    texts: texts(
      {
        ptBR: 'Planejamento de cirurgia ortognática',
        en: 'Orthognathic surgery planning',
        es: 'Planificación de cirugía ortognática',
      },
      {
        ptBR: 'Planejamento virtual da cirurgia ortognática com movimentos ósseos.',
        en: 'Virtual planning of the orthognathic surgery and its bone movements.',
        es: 'Planificación virtual de la cirugía ortognática con movimientos óseos.',
      },
      120000,
      24000,
    ),
  },
  {
    code: 'MFG-SPLINT',
    productCategoryId: 7,
    productKind: 2,
    qtdOption: 1,
    qtdMax: 2,
    kindOfManufacture: 1,
    manufactureTime: 3,
    shipping: true,
    price: 40000,
    colour: '#4263eb',
    texts: texts(
      {
        ptBR: 'Guias interoclusais impressos',
        en: 'Printed surgical splints',
        es: 'Férulas quirúrgicas impresas',
      },
      {
        ptBR: 'Guias intermediário e final da cirurgia ortognática, com envio.',
        en: 'Intermediate and final splints of the orthognathic surgery, shipped to you.',
        es: 'Férulas intermedia y final de la cirugía ortognática, con envío.',
      },
      40000,
      8000,
    ),
  },
  {
    code: 'PLAN-REPORT',
    productCategoryId: 8,
    productKind: 1,
    qtdOption: 1,
    price: 8000,
    colour: COLOUR[8]!,
    texts: texts(
      {
        ptBR: 'Laudo tomográfico',
        en: 'CT scan report',
        es: 'Informe tomográfico',
      },
      {
        ptBR: 'Laudo da tomografia por radiologista.',
        en: 'A radiologist’s report of the CT scan.',
        es: 'Informe de la tomografía por un radiólogo.',
      },
      8000,
      1600,
    ),
  },
  {
    code: 'MFG-MODEL',
    productCategoryId: 8,
    productKind: 2,
    qtdOption: 2,
    qtdMax: 2,
    kindOfManufacture: 3,
    clientPrints: true,
    downloadFiles: true,
    price: 5000,
    colour: '#343a40',
    texts: texts(
      {
        ptBR: 'Modelo para imprimir no consultório',
        en: 'Model to print in your office',
        es: 'Modelo para imprimir en la clínica',
      },
      {
        ptBR: 'Arquivo do modelo pronto para a sua impressora, por arcada.',
        en: 'The model file, ready for your own printer, per arch.',
        es: 'Archivo del modelo listo para su impresora, por arcada.',
      },
      5000,
      1000,
    ),
  },
  {
    code: 'PLAN-TMJ',
    productCategoryId: 7,
    productKind: 1,
    qtdOption: 1,
    price: 50000,
    colour: '#748ffc',
    texts: texts(
      {
        ptBR: 'Planejamento de ATM',
        en: 'TMJ planning',
        es: 'Planificación de ATM',
      },
      {
        ptBR: 'Em preparação.',
        en: 'Coming soon.',
        es: 'Próximamente.',
      },
      50000,
      10000,
      { publish: false },
    ),
  },
];

/**
 * Inserts the demo catalogue (parts before their combos). With a storage every product also gets
 * a generated image (a tile with its code); without one (test templates) none.
 */
export async function seedDemoProducts(
  db: DbOrTx,
  options: { storage?: Storage } = {},
): Promise<number> {
  const ids = new Map<string, number>();
  const rows: { id: number; code: string; colour: string }[] = [];
  for (const { inner, colour, ...values } of DEMO_PRODUCTS) {
    const innerProducts = (inner ?? []).map((code) => {
      const id = ids.get(code);
      if (id === undefined) throw new Error(`demo products: ${code} must come before its combo`);
      return id;
    });
    const [row] = await db
      .insert(products)
      .values({ ...values, innerProducts })
      .onConflictDoNothing()
      .returning({ id: products.id, code: products.code });
    if (!row) continue;
    ids.set(row.code, row.id);
    rows.push({ ...row, colour });
  }
  if (options.storage) {
    for (const row of rows) {
      const name = newProductImageName();
      await options.storage.put(
        productImageKey(row.id, name),
        await demoProductImage(row.code, row.colour),
        'image/webp',
      );
      await db
        .update(products)
        .set({ image: productImageUrl(row.id, name) })
        .where(eq(products.id, row.id));
    }
  }
  return rows.length;
}
