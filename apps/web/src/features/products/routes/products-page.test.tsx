import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminProduct, ProductForm } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { adminProduct, category } from '../test-fixtures';
import { ProductsPage } from './products-page';

const routes = [
  { path: '/products', element: <ProductsPage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const admin = completeProfile({ roles: ['admin', 'public'] });

const guide = adminProduct();
const printed = adminProduct({
  id: 2,
  code: 'GUIDE-PRINT',
  productKind: 2,
  imageUrl: '/files/guide.png',
  texts: {
    ptBR: { name: 'Impressão de guia', description: '', price: 9900, discount: 0, publish: true },
    en: { name: 'Guide printing', description: '', price: 2000, discount: 0, publish: false },
    es: { name: 'Impresión de guía', description: '', price: 2000, discount: 0, publish: false },
  },
});
const combo = adminProduct({
  id: 4,
  code: 'COMBO-CAFE',
  productType: 2,
  innerProducts: [1, 2],
  texts: {
    ptBR: { name: 'Combo café', description: '', price: 0, discount: 10, publish: true },
    en: { name: 'Café combo', description: '', price: 0, discount: 10, publish: true },
    es: { name: 'Combo café', description: '', price: 0, discount: 10, publish: true },
  },
});

type Handler = (call: RecordedCall) => Response | undefined;

/** The product API as the contract describes it (deletes are kept); `extra` answers first. */
function fakeApi(initial: AdminProduct[] = [guide, printed, combo], extra?: Handler) {
  let products = initial;
  return mockFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.path === '/profile/get') return ok(admin);
    if (call.path === '/products/query/all') return ok(products);
    if (call.path === '/products/category/list') {
      return ok([
        category(),
        category({ id: 5, name: { ptBR: 'Ortodontia', en: 'Orthodontics', es: 'Ortodoncia' } }),
      ]);
    }
    const get = /^\/products\/get\/(\d+)$/.exec(call.path);
    if (get) return ok(products.find((p) => p.id === Number(get[1])));
    const deleted = /^\/products\/delete\/(\d+)$/.exec(call.path);
    if (deleted) {
      const deletedAt = '2026-03-01T00:00:00.000Z';
      products = products.map((p) => (p.id === Number(deleted[1]) ? { ...p, deletedAt } : p));
      return ok({ id: Number(deleted[1]), deletedAt });
    }
    if (call.path.startsWith('/products/set/')) {
      return ok(adminProduct({ ...(call.body as object), id: 9, imageUrl: null } as AdminProduct));
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const setCalls = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path.startsWith('/products/set/'));

async function openNewProduct(options?: Parameters<typeof userEvent.setup>[0]) {
  const user = userEvent.setup(options);
  await user.click(await screen.findByRole('button', { name: 'New product' }));
  // The drawer's form is in the page (its transition may take a moment).
  await screen.findByRole('form', { name: 'New product' });
  return { user };
}

/** Fills what every product needs: a code and a category. */
async function fillRequired(user: ReturnType<typeof userEvent.setup>, code = 'NEW-GUIDE') {
  await user.click(screen.getByRole('textbox', { name: /^Code/ }));
  await user.paste(code);
  await user.selectOptions(screen.getByRole('combobox', { name: /^Category/ }), 'Guided surgery');
}

/** Stands in for the browser's upload to the store (XMLHttpRequest, for progress). */
class FakeXhr {
  static instances: FakeXhr[] = [];
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  url = '';
  body: FormData | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.instances.push(this);
  }
  abort() {
    this.onabort?.();
  }
  respond(status: number) {
    this.status = status;
    this.onload?.();
  }
}

describe('product administration', { timeout: 30_000 }, () => {
  beforeEach(() => {
    applyLanguage('en');
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    FakeXhr.instances = [];
    vi.unstubAllGlobals();
  });

  it('lists every product with image, name, category, type, kind, prices, languages and deleted badge', async () => {
    fakeApi([
      guide,
      printed,
      combo,
      adminProduct({ id: 7, code: 'OLD', deletedAt: '2026-02-01T00:00:00.000Z' }),
    ]);
    renderRoutes(routes, '/products');
    const row = await screen.findByTestId('product-row-1');
    expect(within(row).getByText('GUIDE-PLAN')).toBeInTheDocument();
    expect(within(row).getByText('Guide planning')).toBeInTheDocument();
    expect(within(row).getByText('Guided surgery')).toBeInTheDocument();
    expect(within(row).getByText('Single')).toBeInTheDocument();
    expect(within(row).getByText('Planning service')).toBeInTheDocument();
    expect(within(row).getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(within(row).getByText('U$ 250.00')).toBeInTheDocument();
    expect(within(row).getByText('No image')).toBeInTheDocument();
    const printedRow = screen.getByTestId('product-row-2');
    expect(
      within(printedRow).getByRole('img', { name: 'Image of Guide printing' }),
    ).toHaveAttribute('src', '/files/guide.png');
    expect(within(printedRow).getByText('Manufacturing')).toBeInTheDocument();
    expect(within(printedRow).getByText('ptBR')).toBeInTheDocument();
    expect(within(printedRow).queryByText('en')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('product-row-4')).getByText('Combo')).toBeInTheDocument();
    const deletedRow = screen.getByTestId('product-row-7');
    expect(within(deletedRow).getByText('Deleted')).toBeInTheDocument();
    // A deleted product cannot be deleted again; it can still be opened.
    expect(within(deletedRow).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(screen.getByText('Products: 4')).toBeInTheDocument();
  });

  it('searches without regard to accents or case, over code, names and category', async () => {
    fakeApi();
    renderRoutes(routes, '/products');
    const user = userEvent.setup();
    await screen.findByTestId('product-row-1');
    const search = screen.getByRole('searchbox', { name: 'Search products' });
    await user.type(search, 'CAFE');
    expect(screen.getByTestId('product-row-4')).toBeInTheDocument();
    expect(screen.queryByTestId('product-row-1')).not.toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'impresion');
    expect(screen.getByTestId('product-row-2')).toBeInTheDocument();
    expect(screen.queryByTestId('product-row-4')).not.toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'zzz');
    expect(screen.getByText('No product matches your search')).toBeInTheDocument();
  });

  it('shows the empty state when there is no product yet', async () => {
    fakeApi([]);
    renderRoutes(routes, '/products');
    expect(await screen.findByText('No products yet')).toBeInTheDocument();
  });

  it('sends a user who is not an admin to the not-authorized page, without asking for products', async () => {
    const { calls } = mockFetch(() => ok(completeProfile({ roles: ['doctor', 'public'] })));
    renderRoutes(routes, '/products');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/products'))).toBe(false);
  });

  it('shows inner products only for combos', async () => {
    fakeApi();
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct();
    expect(screen.queryByRole('combobox', { name: /Inner products/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Combo' }));
    expect(screen.getByRole('combobox', { name: /Inner products/ })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Single' }));
    expect(screen.queryByRole('combobox', { name: /Inner products/ })).not.toBeInTheDocument();
  });

  it('refuses a combo without inner products and a published language without a name', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct();
    await user.click(screen.getByRole('radio', { name: 'Combo' }));
    await user.click(screen.getByRole('tab', { name: 'Spanish' }));
    await user.click(screen.getByRole('switch', { name: 'Published in this language' }));
    // Back on another tab: the error must bring the Spanish tab into view.
    await user.click(screen.getByRole('tab', { name: 'English' }));
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    expect(
      await screen.findByRole('tab', { name: /Spanish.*has errors/, selected: true }),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'This field is required',
    );
    expect(screen.getByRole('combobox', { name: /Inner products/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    // Every error shows at once, the general fields' too.
    expect(screen.getByRole('textbox', { name: /^Code/ })).toHaveAccessibleDescription(
      /This field is required/,
    );
    expect(screen.getByRole('combobox', { name: /^Category/ })).toHaveAccessibleDescription(
      /This field is required/,
    );
    expect(setCalls(calls)).toHaveLength(0);
  });

  it('reads each price in its language currency: 1.234,56 in Portuguese and 1,234.56 in English are 123456', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct();
    await fillRequired(user);
    await user.click(screen.getByRole('tab', { name: 'Portuguese (Brazil)' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Guia novo');
    await user.type(screen.getByRole('textbox', { name: /Price \(BRL\)/ }), '1.234,56');
    await user.click(screen.getByRole('switch', { name: 'Published in this language' }));
    await user.click(screen.getByRole('tab', { name: 'English' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'New guide');
    await user.type(screen.getByRole('textbox', { name: /Price \(USD\)/ }), '1,234.56');
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    const call = setCalls(calls)[0]!;
    expect(call.path).toBe('/products/set/0');
    const body = call.body as ProductForm;
    expect(body.texts.ptBR).toEqual({
      name: 'Guia novo',
      description: '',
      price: 123456,
      discount: 0,
      publish: true,
    });
    expect(body.texts.en).toMatchObject({ name: 'New guide', price: 123456, publish: false });
    expect(body.texts.es).toMatchObject({ name: '', price: 0, publish: false });
    expect(body).toMatchObject({
      code: 'NEW-GUIDE',
      productCategory: 3,
      productType: 1,
      innerProducts: [],
    });
    // No image chosen: the body leaves the image alone.
    expect(body).not.toHaveProperty('imageUploadId');
    expect(await screen.findByText('Product saved.')).toBeInTheDocument();
  });

  it('refuses a price written in the other currency format', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct();
    await fillRequired(user);
    await user.type(screen.getByRole('textbox', { name: /Price \(USD\)/ }), '1.234,56');
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    expect(
      await screen.findByRole('textbox', { name: /Price \(USD\)/ }),
    ).toHaveAccessibleDescription(/Invalid value/);
    expect(setCalls(calls)).toHaveLength(0);
  });

  it('shows a CODE_TAKEN answer on the code field', async () => {
    fakeApi(undefined, (call) =>
      call.path.startsWith('/products/set/')
        ? fail(409, 'CODE_TAKEN', 'This code is already in use')
        : undefined,
    );
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct();
    await fillRequired(user, 'GUIDE-PLAN');
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /^Code/ })).toHaveAccessibleDescription(
        /This code is already in use/,
      ),
    );
    // The form stays open to fix it.
    expect(screen.getByRole('button', { name: 'Save product' })).toBeInTheDocument();
  });

  it('shows the server field errors on their fields, in their language tab', async () => {
    fakeApi(undefined, (call) =>
      call.path.startsWith('/products/set/')
        ? fail(400, 'VALIDATION_ERROR', 'Validation error', { 'texts.es.name': 'Too long' })
        : undefined,
    );
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByRole('tab', { name: /Spanish/, selected: true })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Too long');
  });

  it('edits a product read fresh from the server and keeps its image', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit product GUIDE-PLAN' }));
    const code = await screen.findByRole('textbox', { name: /^Code/ });
    expect(code).toHaveValue('GUIDE-PLAN');
    expect(calls.some((c) => c.path === '/products/get/1')).toBe(true);
    await user.click(screen.getByRole('tab', { name: 'Portuguese (Brazil)' }));
    expect(screen.getByRole('textbox', { name: /Price \(BRL\)/ })).toHaveValue('1.234,56');
    await user.click(screen.getByRole('switch', { name: 'Favourite' }));
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    const call = setCalls(calls)[0]!;
    expect(call.path).toBe('/products/set/1');
    expect(call.body).toMatchObject({
      favorite: true,
      qtdOption: 2,
      qtdMax: 2,
      manufactureTime: 2,
    });
    expect(call.body).not.toHaveProperty('imageUploadId');
    expect((call.body as ProductForm).texts.ptBR.price).toBe(123456);
  });

  it('asks before deleting, then shows the row as deleted', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete product GUIDE-PLAN' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete product' });
    expect(within(dialog).getByText(/Delete product GUIDE-PLAN\?/)).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/products/delete/'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(calls.some((c) => c.path.startsWith('/products/delete/'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete product GUIDE-PLAN' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete product' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Product GUIDE-PLAN deleted.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/products/delete/1')).toHaveLength(1);
    expect(within(screen.getByTestId('product-row-1')).getByText('Deleted')).toBeInTheDocument();
  });

  it('uploads a chosen image with progress and sends its id with the product', async () => {
    const { calls } = fakeApi(undefined, (call) => {
      if (call.path === '/attachment/create/temp') {
        return ok({
          attachment: { id: 55 },
          upload: { url: '/api/v1/storage/upload', fields: { key: 'temp/7/abc', policy: 'p' } },
        });
      }
      if (call.path === '/attachment/uploadedSuccess/55') {
        return ok({ attachment: { id: 55 }, url: '/files/temp.png' });
      }
      return undefined;
    });
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct({ applyAccept: false });
    await fillRequired(user);
    await user.upload(
      screen.getByLabelText('Product image', { selector: 'input' }),
      new File(['png'], 'guide.png', { type: 'image/png' }),
    );
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    expect(calls.find((c) => c.path === '/attachment/create/temp')?.body).toEqual({
      filename: 'guide.png',
      filesize: 3,
      attachment_name: 'productThumbnail',
      mimetype: 'image/png',
    });
    const xhr = FakeXhr.instances[0]!;
    expect(xhr.url).toBe('/api/v1/storage/upload');
    expect(xhr.body!.get('key')).toBe('temp/7/abc');
    expect((xhr.body!.get('file') as File).name).toBe('guide.png');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    expect(await screen.findByText('Sending… 25%')).toBeInTheDocument();
    // Saving waits for the upload.
    expect(screen.getByRole('button', { name: 'Save product' })).toBeDisabled();
    xhr.respond(204);
    expect(
      await screen.findByText('New image sent; it is used when you save.'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/attachment/uploadedSuccess/55')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    expect(setCalls(calls)[0]!.body).toMatchObject({ imageUploadId: 55 });
  });

  it('refuses a file that is not an image before sending anything', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const { user } = await openNewProduct({ applyAccept: false });
    await user.upload(
      await screen.findByLabelText('Product image', { selector: 'input' }),
      new File(['%PDF'], 'guide.pdf', { type: 'application/pdf' }),
    );
    expect(
      await screen.findByText('The image must be a PNG, JPG or GIF file.'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/attachment/'))).toBe(false);
  });

  it('removes the image of a product on save', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/products');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit product GUIDE-PRINT' }));
    expect(
      await screen.findByRole('img', { name: 'Preview of the product image' }),
    ).toHaveAttribute('src', '/files/guide.png');
    await user.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.getByText('The image is removed when you save.')).toBeInTheDocument();
    expect(
      screen.queryByRole('img', { name: 'Preview of the product image' }),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    expect(setCalls(calls)[0]!.body).toMatchObject({ imageUploadId: null });
  });
});
