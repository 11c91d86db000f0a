import {
  currencyForLanguage,
  formatMoney,
  isCombo,
  LANGUAGES,
  MANUFACTURE_TIME_DEFAULT_DAYS,
  parseMoney,
  PRODUCT_KINDS,
  PRODUCT_TYPES,
  QTD_MAX_DEFAULT,
  QTD_OPTIONS,
  type AdminProduct,
  type Currency,
  type Language,
} from '@dentflow/domain';

/** One language's texts as the inputs hold them: the price is what the admin typed. */
export interface ProductTextValues {
  name: string;
  description: string;
  /** Typed in the language's currency format (`1.234,56` for BRL, `1,234.56` for USD). */
  price: string;
  discount: number | string;
  publish: boolean;
}

/** Select and radio inputs hold strings; number inputs hold '' while empty. */
export interface ProductFormValues {
  productType: string;
  productCategory: string;
  code: string;
  innerProducts: string[];
  manufactureTime: number | string;
  productKind: string;
  qtdOption: string;
  qtdMax: number | string;
  kindOfManufacture: string;
  alignment: boolean;
  favorite: boolean;
  enableKit: boolean;
  enableSleeve: boolean;
  mockup: boolean;
  shipping: boolean;
  clientPrints: boolean;
  uploadFiles: boolean;
  downloadFiles: boolean;
  texts: Record<Language, ProductTextValues>;
}

/** What happens to the product image on save: keep it, remove it, or use a confirmed upload. */
export type ImageChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'upload'; id: number };

export const PRODUCT_FLAGS = [
  'alignment',
  'favorite',
  'enableKit',
  'enableSleeve',
  'mockup',
  'shipping',
  'clientPrints',
  'uploadFiles',
  'downloadFiles',
] as const;

/** The currency of a language's price: ptBR carries BRL, en and es carry USD. */
export const textCurrency = (language: Language): Currency => currencyForLanguage(language);

/** The currency's symbol as money is written (`R$`, `U$`). */
export const currencySymbol = (currency: Currency): string =>
  formatMoney(0, currency).split(' ')[0] ?? '';

/** An amount for the price input, without the currency symbol (the input shows it apart). */
export function moneyInputText(minorUnits: number, currency: Currency): string {
  return formatMoney(minorUnits, currency).split(' ').pop() ?? '';
}

const emptyText = (): ProductTextValues => ({
  name: '',
  description: '',
  price: '',
  discount: 0,
  publish: false,
});

export function emptyProductValues(): ProductFormValues {
  return {
    productType: String(PRODUCT_TYPES.single),
    productCategory: '',
    code: '',
    innerProducts: [],
    manufactureTime: MANUFACTURE_TIME_DEFAULT_DAYS,
    productKind: String(PRODUCT_KINDS.planning),
    qtdOption: String(QTD_OPTIONS.perCase),
    qtdMax: QTD_MAX_DEFAULT,
    kindOfManufacture: '',
    alignment: false,
    favorite: false,
    enableKit: false,
    enableSleeve: false,
    mockup: false,
    shipping: false,
    clientPrints: false,
    uploadFiles: false,
    downloadFiles: false,
    texts: { ptBR: emptyText(), en: emptyText(), es: emptyText() },
  };
}

export function productValues(product: AdminProduct): ProductFormValues {
  const texts = Object.fromEntries(
    LANGUAGES.map((language) => {
      const text = product.texts[language];
      return [
        language,
        {
          name: text.name,
          description: text.description,
          price: moneyInputText(text.price, textCurrency(language)),
          discount: text.discount,
          publish: text.publish,
        },
      ];
    }),
  ) as Record<Language, ProductTextValues>;
  return {
    productType: String(product.productType),
    productCategory: product.productCategory ? String(product.productCategory) : '',
    code: product.code,
    innerProducts: product.innerProducts.map(String),
    manufactureTime: product.manufactureTime,
    productKind: String(product.productKind),
    qtdOption: String(product.qtdOption),
    qtdMax: product.qtdMax,
    kindOfManufacture: product.kindOfManufacture ? String(product.kindOfManufacture) : '',
    ...Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, product[flag]])),
    texts,
  } as ProductFormValues;
}

/** The form describes a combo (the domain's rule on the chosen product type). */
export const isComboValues = (values: Pick<ProductFormValues, 'productType'>) =>
  isCombo({ productType: Number(values.productType) });

/** A number input's value; '' (empty) stays undefined so the schema reports it. */
const whole = (value: number | string): number | undefined =>
  value === '' ? undefined : Number(value);

/**
 * The `POST /products/set` body before validation (the schema decides what is valid). A price
 * the currency's format cannot read becomes NaN, which the schema refuses on its field; an
 * empty price is 0 (a language that is not sold yet).
 */
export function productBody(values: ProductFormValues, image: ImageChange): unknown {
  const combo = isComboValues(values);
  return {
    productType: Number(values.productType),
    productCategory: values.productCategory ? Number(values.productCategory) : undefined,
    code: values.code.trim(),
    // Only a combo has parts; switching a combo back to single drops them.
    innerProducts: combo ? values.innerProducts.map(Number) : [],
    ...(image.kind === 'remove' ? { imageUploadId: null } : {}),
    ...(image.kind === 'upload' ? { imageUploadId: image.id } : {}),
    manufactureTime: whole(values.manufactureTime),
    productKind: Number(values.productKind),
    qtdOption: Number(values.qtdOption),
    qtdMax: whole(values.qtdMax),
    kindOfManufacture: values.kindOfManufacture ? Number(values.kindOfManufacture) : null,
    ...Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, values[flag]])),
    texts: Object.fromEntries(
      LANGUAGES.map((language) => {
        const text = values.texts[language];
        const typed = text.price.trim();
        return [
          language,
          {
            name: text.name.trim(),
            description: text.description.trim(),
            price: typed ? (parseMoney(typed, textCurrency(language)) ?? Number.NaN) : 0,
            discount: whole(text.discount),
            publish: text.publish,
          },
        ];
      }),
    ),
  };
}

/** Paths of the number inputs, to say "required" rather than "invalid" when one is empty. */
export function emptyNumberPaths(values: ProductFormValues): string[] {
  const paths: string[] = [];
  if (values.manufactureTime === '') paths.push('manufactureTime');
  if (values.qtdMax === '') paths.push('qtdMax');
  if (!values.productCategory) paths.push('productCategory');
  for (const language of LANGUAGES) {
    if (values.texts[language].discount === '') paths.push(`texts.${language}.discount`);
  }
  return paths;
}
