import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Attachment, CaseDetail } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { setStoredUser } from '../../../lib/session-storage';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import type { CaseAttachment, CaseAttachmentList } from '../api/list-case-attachments';
import { UploadAbortedError } from '../api/upload-to-storage';
import { CaseAttachmentsTab, uploadRights } from './attachments-tab';
import type { UploadTransport } from './use-upload-queue';

const DOCTOR_ID = 7;

function caseDetail(overrides: Partial<CaseDetail> = {}): CaseDetail {
  return {
    id: 31,
    ownerId: DOCTOR_ID,
    owner: { id: DOCTOR_ID, displayName: 'Ana Souza' },
    caseStatus: 'new',
    caseArchived: false,
    caseReview: false,
    caseCurrency: 'BRL',
    patient: { fname: 'João', lname: 'Silva' },
    address: null,
    observation: '',
    createdAt: '2026-11-01T10:00:00.000Z',
    modifiedAt: '2026-11-01T10:00:00.000Z',
    deadlineAt: null,
    finishAt: null,
    services: [],
    users: [],
    reviews: [],
    checks: {
      services: true,
      patient: true,
      attachments: false,
      transactions: true,
      missingSlots: [],
      unpaidServiceIds: [],
    },
    actions: [],
    can: [],
    readOnly: false,
    delivery: null,
    dispatch: null,
    productionActions: [],
    ...overrides,
  };
}

function attachment(overrides: Partial<CaseAttachment>): CaseAttachment {
  const base: Attachment = {
    id: 1,
    caseId: 31,
    userId: DOCTOR_ID,
    bucketName: 'photoProtocol',
    attachmentType: 'naturalSmile',
    stringId: null,
    required: true,
    status: 'public',
    freeze: false,
    filename: 'smile.jpg',
    filesize: 204_800,
    url: '/files/smile?sig=x',
    uploadedAt: '2026-11-01T10:00:00.000Z',
    createdAt: '2026-11-01T10:00:00.000Z',
    deletedAt: null,
    justification: null,
    mimetype: 'image/jpeg',
    version: 1,
    chainId: 1,
    previousVersionId: null,
    publishedAt: null,
    publishedBy: null,
    supersededAt: null,
    sha256: null,
  };
  // Each file is the first version of its own chain unless the test says otherwise.
  const chainId = overrides.chainId ?? overrides.id ?? base.id;
  return { ...base, actions: ['delete'], ...overrides, chainId };
}

const LIST: CaseAttachmentList = {
  items: [
    attachment({ id: 1 }),
    attachment({
      id: 2,
      bucketName: 'exams',
      attachmentType: 'upperJawStl',
      filename: 'upper.stl',
      mimetype: 'model/stl',
      filesize: 3_000_000,
    }),
    attachment({
      id: 3,
      bucketName: 'planning',
      attachmentType: 'generic',
      filename: 'plan.stl',
      mimetype: 'model/stl',
      status: 'publish',
      actions: ['approve', 'requestChange'],
    }),
    // Still being sent by someone: not shown.
    attachment({ id: 4, status: 'uploading', filename: 'half.jpg' }),
  ],
  slots: [
    { bucketName: 'photoProtocol', attachmentType: 'forcedSmile' },
    { bucketName: 'exams', attachmentType: 'lowerJawStl' },
  ],
};

function serve(list: CaseAttachmentList = LIST) {
  return mockFetch((call) => {
    if (call.path === '/attachment/case/31/list') return ok(list);
    const get = call.path.match(/^\/attachment\/(\d+)\/get$/);
    if (get) return ok({ attachment: { id: Number(get[1]) }, url: `/files/${get[1]}?sig=x` });
    return ok({});
  });
}

/** A transport whose store upload the test drives by hand. */
function manualTransport() {
  const sends: { progress: (percent: number) => void; abort: ReturnType<typeof vi.fn> }[] = [];
  const transport = {
    createPostUrl: vi.fn(async () => ({
      attachment: { id: 99 } as Attachment,
      upload: { url: '/store', fields: {} },
    })),
    uploadToStorage: vi.fn((_upload: unknown, _file: unknown, onProgress: (p: number) => void) => {
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((_resolve, rej) => (reject = rej));
      const abort = vi.fn(() => reject(new UploadAbortedError()));
      sends.push({ progress: onProgress, abort });
      return { promise, abort };
    }),
    confirmUpload: vi.fn(async () => ({ attachment: { id: 99 } as Attachment, url: '/x' })),
    resumable: {
      start: vi.fn(() => new Promise(() => {})),
      partUrls: vi.fn(),
      sendPart: vi.fn(),
      complete: vi.fn(),
      abort: vi.fn(),
    },
    saved: { load: () => null, save: () => {}, remove: () => {} },
  };
  return { transport: transport as unknown as UploadTransport & typeof transport, sends };
}

function renderTab(detail: CaseDetail, transport?: UploadTransport) {
  return renderRoutes(
    [
      {
        path: '/cases/view/31',
        element: <CaseAttachmentsTab caseDetail={detail} transport={transport} />,
      },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
    '/cases/view/31',
  );
}

const section = (name: string) => screen.getByRole('region', { name });
const fileInput = (region: HTMLElement) =>
  region.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('case attachments tab', () => {
  beforeEach(() => {
    applyLanguage('en');
    setStoredUser(completeProfile({ id: DOCTOR_ID, roles: ['doctor', 'public'] }));
  });

  it('groups files and empty required slots by bucket, with labels and status badges', async () => {
    serve();
    renderTab(caseDetail());
    const photos = await screen.findByRole('region', { name: 'Photo protocol' });
    expect(within(photos).getByText('Natural smile')).toBeInTheDocument();
    expect(within(photos).getByText('Public')).toBeInTheDocument();
    const slot = within(photos).getByTestId('empty-slot');
    expect(within(slot).getByText('Forced smile')).toBeInTheDocument();
    expect(within(slot).getByText('Required')).toBeInTheDocument();
    expect(within(photos).queryByText(/half\.jpg/)).not.toBeInTheDocument();

    const exams = section('Exams');
    expect(within(exams).getByText('Upper jaw STL')).toBeInTheDocument();
    expect(
      within(within(exams).getByTestId('empty-slot')).getByText('Lower jaw STL'),
    ).toBeInTheDocument();
    expect(
      within(exams).getByRole('button', { name: 'Open in the 3D viewer' }),
    ).toBeInTheDocument();

    const planning = section('Planning');
    expect(within(planning).getByText('Published')).toBeInTheDocument();
    expect(within(planning).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(planning).getByRole('button', { name: 'Request change' })).toBeInTheDocument();

    // The owner of a new case sends photos and exams, not planning files.
    expect(within(photos).getByTestId('dropzone-photoProtocol')).toBeInTheDocument();
    expect(within(exams).getByTestId('dropzone-exams')).toBeInTheDocument();
    expect(within(planning).queryByTestId('dropzone-planning')).not.toBeInTheDocument();
    // The image thumbnail uses the list's signed link.
    expect(within(photos).getByRole('img', { name: 'Natural smile' })).toHaveAttribute(
      'src',
      '/files/smile?sig=x',
    );
  });

  it('offers Compare on planning STL files once the case has two of them', async () => {
    serve();
    const first = renderTab(caseDetail({ caseStatus: 'execute' }));
    await screen.findByRole('region', { name: 'Planning' });
    expect(
      screen.queryByRole('button', { name: 'Compare with another version' }),
    ).not.toBeInTheDocument();
    first.unmount();

    const revised = attachment({
      id: 5,
      bucketName: 'planning',
      attachmentType: 'generic',
      filename: 'plan-v2.stl',
      mimetype: 'model/stl',
      status: 'publish',
      actions: [],
    });
    serve({ ...LIST, items: [...LIST.items, revised] });
    renderTab(caseDetail({ caseStatus: 'execute' }));
    const planning = await screen.findByRole('region', { name: 'Planning' });
    expect(
      await within(planning).findAllByRole('button', { name: 'Compare with another version' }),
    ).toHaveLength(2);
    expect(
      within(section('Exams')).queryByRole('button', { name: 'Compare with another version' }),
    ).not.toBeInTheDocument();
  });

  it('offers uploads where the server says the caller may send files', async () => {
    serve({ ...LIST, uploadBuckets: ['planning'] });
    renderTab(caseDetail({ caseStatus: 'execute' }));
    await screen.findByRole('region', { name: 'Photo protocol' });
    expect(screen.getByTestId('dropzone-planning')).toBeInTheDocument();
    expect(screen.queryByTestId('dropzone-photoProtocol')).not.toBeInTheDocument();
    expect(screen.queryByTestId('dropzone-exams')).not.toBeInTheDocument();
  });

  it('a read-only caller sees the files without upload or action controls', async () => {
    serve();
    renderTab(caseDetail({ readOnly: true }));
    await screen.findByRole('region', { name: 'Photo protocol' });
    expect(screen.queryByTestId(/^dropzone-/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.getByText('You can see these files but not change them.')).toBeInTheDocument();
    expect(screen.getAllByText('Waiting for the file')).toHaveLength(2);
  });

  it('sends picked files with progress and cancel; leaving during the upload asks first', async () => {
    serve();
    const { transport, sends } = manualTransport();
    const { router } = renderTab(caseDetail(), transport);
    const photos = await screen.findByRole('region', { name: 'Photo protocol' });
    await userEvent.upload(fileInput(within(photos).getByTestId('dropzone-photoProtocol')), [
      new File(['a'], 'one.jpg', { type: 'image/jpeg' }),
      new File(['b'], 'two.png', { type: 'image/png' }),
    ]);
    await waitFor(() => expect(sends).toHaveLength(2));
    expect(transport.createPostUrl).toHaveBeenCalledWith(31, {
      filename: 'one.jpg',
      filesize: 1,
      attachment_name: 'photoProtocol.generic',
    });
    sends[0]!.progress(42);
    expect(await within(photos).findByText('42%')).toBeInTheDocument();
    expect(
      within(photos).getByRole('progressbar', { name: 'Progress of one.jpg' }),
    ).toBeInTheDocument();

    // Navigating away is held until the user decides.
    void router.navigate('/elsewhere');
    const dialog = await screen.findByRole('dialog', { name: 'Files are still being sent' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/cases/view/31');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Switching the case view's tab (`?tab=`) would unmount the uploads: it asks too.
    void router.navigate('/cases/view/31?tab=general', { replace: true });
    const again = await screen.findByRole('dialog', { name: 'Files are still being sent' });
    await userEvent.click(within(again).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.search).toBe('');

    await userEvent.click(within(photos).getByRole('button', { name: 'Cancel sending one.jpg' }));
    // Cancelling asks first; keeping on sends nothing away.
    const ask = await screen.findByRole('dialog', { name: 'Cancel this upload?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel upload' }));
    expect(sends[0]!.abort).toHaveBeenCalled();
    await waitFor(() => expect(within(photos).queryByText('one.jpg')).not.toBeInTheDocument());
    expect(within(photos).getByText('two.png')).toBeInTheDocument();
    expect(transport.confirmUpload).not.toHaveBeenCalled();
  });

  it('a file dropped on an empty slot fills that slot', async () => {
    serve();
    const { transport } = manualTransport();
    renderTab(caseDetail(), transport);
    const exams = await screen.findByRole('region', { name: 'Exams' });
    await userEvent.upload(
      fileInput(within(exams).getByTestId('empty-slot')),
      new File(['solid x'], 'lower.stl', { type: '' }),
    );
    // Exams go in resumable parts.
    await waitFor(() => expect(transport.resumable.start).toHaveBeenCalledTimes(1));
    expect(transport.resumable.start).toHaveBeenCalledWith(31, {
      filename: 'lower.stl',
      filesize: 7,
      attachment_name: 'exams.lowerJawStl',
    });
  });

  it("shows a chain's current version, who published it, and its history a click away", async () => {
    const planFile = (overrides: Partial<CaseAttachment>) =>
      attachment({
        bucketName: 'planning',
        attachmentType: 'generic',
        mimetype: 'model/stl',
        required: false,
        publishedBy: { id: 50, name: 'Paulo Planner' },
        publishedAt: '2026-11-02T10:00:00.000Z',
        actions: [],
        ...overrides,
      });
    serve({
      items: [
        planFile({
          id: 10,
          filename: 'guide-v1.stl',
          status: 'request_change',
          justification: 'Move the implant',
          supersededAt: '2026-11-03T10:00:00.000Z',
        }),
        planFile({
          id: 11,
          chainId: 10,
          version: 2,
          previousVersionId: 10,
          filename: 'guide-v2.stl',
          status: 'publish',
          actions: ['approve', 'requestChange'],
        }),
      ],
      slots: [],
    });
    renderTab(caseDetail({ caseStatus: 'approve' }));
    const planning = await screen.findByRole('region', { name: 'Planning' });
    const chain = within(planning).getByTestId('plan-chain');
    expect(within(chain).getByText('v2')).toBeInTheDocument();
    expect(within(chain).getByText(/Published by Paulo Planner/)).toBeInTheDocument();
    expect(within(chain).queryByText(/guide-v1\.stl/)).not.toBeInTheDocument();
    await userEvent.click(within(chain).getByRole('button', { name: 'History (1 version)' }));
    const history = await screen.findByRole('dialog', { name: 'Earlier versions' });
    expect(within(history).getByText('v1')).toBeInTheDocument();
    expect(within(history).getByText(/guide-v1\.stl/)).toBeInTheDocument();
    expect(within(history).getByText('Change requested: Move the implant')).toBeInTheDocument();
    expect(within(history).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it("a planner's upload while a change is requested is the next version of that file", async () => {
    setStoredUser(completeProfile({ id: 50, roles: ['planner', 'public'] }));
    serve({
      items: [
        attachment({
          id: 20,
          bucketName: 'planning',
          attachmentType: 'generic',
          filename: 'guide.stl',
          mimetype: 'model/stl',
          required: false,
          status: 'request_change',
          actions: ['delete'],
        }),
      ],
      slots: [],
      uploadBuckets: ['planning'],
    });
    const { transport } = manualTransport();
    renderTab(caseDetail({ caseStatus: 'approve' }), transport);
    const planning = await screen.findByRole('region', { name: 'Planning' });
    expect(within(planning).getByText('New version of guide.stl')).toBeInTheDocument();
    await userEvent.upload(
      fileInput(within(planning).getByTestId('dropzone-planning')),
      new File(['solid y'], 'guide-v2.stl', { type: '' }),
    );
    await waitFor(() => expect(transport.resumable.start).toHaveBeenCalledTimes(1));
    expect(transport.resumable.start).toHaveBeenCalledWith(31, {
      filename: 'guide-v2.stl',
      filesize: 7,
      attachment_name: 'planning',
      replacesId: 20,
    });
  });

  it('refuses a file of a type the kind does not take before any request', async () => {
    serve();
    const { transport } = manualTransport();
    renderTab(caseDetail(), transport);
    const photos = await screen.findByRole('region', { name: 'Photo protocol' });
    await userEvent.upload(
      fileInput(within(photos).getByTestId('dropzone-photoProtocol')),
      new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }),
    );
    expect(
      await screen.findByText('notes.pdf was not sent: this type of file is not accepted here'),
    ).toBeInTheDocument();
    expect(transport.createPostUrl).not.toHaveBeenCalled();
  });

  it('a failed upload shows the common upload error and can be retried', async () => {
    serve();
    const { transport } = manualTransport();
    transport.uploadToStorage.mockImplementationOnce(() => ({
      promise: Promise.reject(new Error('network')),
      abort: vi.fn(),
    }));
    renderTab(caseDetail(), transport);
    const photos = await screen.findByRole('region', { name: 'Photo protocol' });
    await userEvent.upload(
      fileInput(within(photos).getByTestId('dropzone-photoProtocol')),
      new File(['a'], 'one.jpg', { type: 'image/jpeg' }),
    );
    const error = await within(photos).findByTestId('upload-error');
    expect(
      within(error).getByText('The file could not be sent. Check your connection and try again.'),
    ).toBeInTheDocument();
    await userEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(transport.uploadToStorage).toHaveBeenCalledTimes(2));
    expect(within(photos).queryByTestId('upload-error')).not.toBeInTheDocument();
    expect(within(photos).getByTestId('upload-item')).toBeInTheDocument();
  });
});

describe('upload rights', () => {
  const me = (id: number, roles: string[]) => ({ id, roles });
  it.each([
    ['the owner of a new case', caseDetail(), me(DOCTOR_ID, ['doctor']), [true, true, false]],
    [
      'the owner of a case in execution',
      caseDetail({ caseStatus: 'execute' }),
      me(DOCTOR_ID, ['doctor']),
      [false, false, false],
    ],
    ['a planner', caseDetail({ caseStatus: 'execute' }), me(50, ['planner']), [false, false, true]],
    [
      'a supervisor',
      caseDetail({ caseStatus: 'execute' }),
      me(60, ['supervisor']),
      [true, true, true],
    ],
    ['another doctor', caseDetail(), me(80, ['doctor']), [false, false, false]],
    [
      'a read-only caller',
      caseDetail({ readOnly: true }),
      me(60, ['supervisor']),
      [false, false, false],
    ],
    [
      'an archived case',
      caseDetail({ caseArchived: true }),
      me(DOCTOR_ID, ['doctor']),
      [false, false, false],
    ],
  ] as const)('%s', (_name, detail, user, [photos, exams, planning]) => {
    expect(uploadRights(detail, user, [])).toEqual({ photoProtocol: photos, exams, planning });
  });

  it('the owner may send new inputs while a planning change is requested', () => {
    const detail = caseDetail({ caseStatus: 'execute' });
    expect(
      uploadRights(detail, me(DOCTOR_ID, ['doctor']), [
        { bucketName: 'planning', status: 'request_change' },
      ]),
    ).toEqual({ photoProtocol: true, exams: true, planning: false });
  });
});
