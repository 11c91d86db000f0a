import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../i18n';
import { renderWithApp } from '../../test/render';
import { ListStates, usePastTheEndRedirect, type ListQuery } from './list-states';

interface Answer {
  items: string[];
  total: number;
}

const settled = (data: Answer | undefined): ListQuery<Answer> => ({
  data,
  isLoading: false,
  isError: false,
  error: null,
  refetch: vi.fn(),
});

// No `isEmpty`: a paged answer without items is empty by default.
const renderStates = (query: ListQuery<Answer>, errorTitle?: string) =>
  renderWithApp(
    <ListStates
      query={query}
      skeleton={{ rows: 3, height: 40 }}
      loadingLabel="Loading rows"
      {...(errorTitle ? { errorTitle } : {})}
      retryLabel="Try again"
      empty={<p>Nothing here</p>}
    >
      {(answer) => (
        <ul>
          {answer.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </ListStates>,
  );

describe('list states', () => {
  beforeEach(() => applyLanguage('en'));

  it('shows the labelled busy placeholder rows while the first answer loads', async () => {
    renderStates({ ...settled(undefined), isLoading: true });
    const busy = await screen.findByLabelText('Loading rows');
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy.children).toHaveLength(3);
    expect(screen.queryByText('Nothing here')).not.toBeInTheDocument();
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('shows the error under the generic title, and the retry asks again', async () => {
    const query = { ...settled(undefined), isError: true, error: new Error('Server down') };
    renderStates(query);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error')).toBeInTheDocument();
    expect(within(alert).getByText('Server down')).toBeInTheDocument();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(query.refetch).toHaveBeenCalledOnce();
  });

  it('puts the caller’s title on the error when it has one', async () => {
    renderStates({ ...settled(undefined), isError: true, error: 'no detail' }, 'Could not load');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load')).toBeInTheDocument();
    expect(within(alert).getByText('Something went wrong. Please try again.')).toBeInTheDocument();
  });

  it('shows the empty state for an empty answer and for no answer', async () => {
    const { unmount } = renderStates(settled({ items: [], total: 0 }));
    expect(await screen.findByText('Nothing here')).toBeInTheDocument();
    unmount();
    renderStates(settled(undefined));
    expect(await screen.findByText('Nothing here')).toBeInTheDocument();
  });

  it('renders the rows with the data', async () => {
    renderStates(settled({ items: ['Ana', 'Bruno'], total: 2 }));
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('Bruno')).toBeInTheDocument();
    expect(screen.queryByText('Nothing here')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('page past the end', () => {
  type Props = Parameters<typeof usePastTheEndRedirect>[0];
  const answer = (items: string[]) => ({ items });

  it('moves to the last page once the server answers a page past the end empty', () => {
    const goToPage = vi.fn();
    const { rerender } = renderHook<void, Props>((props) => usePastTheEndRedirect(props), {
      // The previous page is still shown while page 4 loads: nothing to decide yet.
      initialProps: {
        query: { data: answer(['a']), isPlaceholderData: true },
        page: 4,
        pages: 2,
        goToPage,
      },
    });
    expect(goToPage).not.toHaveBeenCalled();
    rerender({
      query: { data: answer([]), isPlaceholderData: false },
      page: 4,
      pages: 2,
      goToPage,
    });
    expect(goToPage).toHaveBeenCalledExactlyOnceWith(1);
  });

  it('goes back to the first page when nothing is left at all', () => {
    const goToPage = vi.fn();
    renderHook(() =>
      usePastTheEndRedirect({
        query: { data: answer([]), isPlaceholderData: false },
        page: 2,
        pages: 1,
        goToPage,
      }),
    );
    expect(goToPage).toHaveBeenCalledExactlyOnceWith(0);
  });

  it('stays on the first page, on a page with rows, and while nothing has answered', () => {
    const goToPage = vi.fn();
    const { rerender } = renderHook<void, Props>((props) => usePastTheEndRedirect(props), {
      initialProps: {
        query: { data: answer([]), isPlaceholderData: false },
        page: 0,
        pages: 1,
        goToPage,
      },
    });
    rerender({
      query: { data: answer(['a']), isPlaceholderData: false },
      page: 3,
      pages: 4,
      goToPage,
    });
    rerender({ query: { data: undefined, isPlaceholderData: false }, page: 3, pages: 1, goToPage });
    expect(goToPage).not.toHaveBeenCalled();
  });
});
