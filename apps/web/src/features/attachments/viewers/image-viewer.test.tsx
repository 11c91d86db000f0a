import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { renderWithApp } from '../../../test/render';
import { ImageViewer } from './image-viewer';

const IMAGES = [
  { id: 1, url: '/a.jpg', label: 'Natural smile' },
  { id: 2, url: '/b.jpg', label: 'Forced smile' },
  { id: 3, url: '/c.jpg', label: 'Upper occlusal' },
];

function renderViewer(index = 0) {
  const onIndexChange = vi.fn();
  renderWithApp(
    <ImageViewer images={IMAGES} index={index} onIndexChange={onIndexChange} onClose={() => {}} />,
  );
  return { onIndexChange, stage: screen.getByTestId('image-viewer-stage') };
}

/** A tap at a given time (the detector reads the event's timeStamp). */
function tap(stage: HTMLElement, timeStamp: number, x = 200, y = 200) {
  const down = new PointerEvent('pointerdown', {
    bubbles: true,
    clientX: x,
    clientY: y,
    pointerId: 1,
  });
  const up = new PointerEvent('pointerup', { bubbles: true, clientX: x, clientY: y, pointerId: 1 });
  Object.defineProperty(down, 'timeStamp', { value: timeStamp });
  Object.defineProperty(up, 'timeStamp', { value: timeStamp });
  fireEvent(stage, down);
  fireEvent(stage, up);
}

describe('image viewer', () => {
  beforeEach(() => applyLanguage('en'));

  it('shows the photo full screen with its label and position', () => {
    renderViewer(1);
    expect(screen.getByRole('img', { name: 'Forced smile' })).toHaveAttribute('src', '/b.jpg');
    expect(screen.getByText('Forced smile · 2/3')).toBeInTheDocument();
  });

  it('arrow keys and buttons move between the photos, wrapping around', async () => {
    const { onIndexChange } = renderViewer(0);
    await userEvent.keyboard('{ArrowRight}');
    expect(onIndexChange).toHaveBeenLastCalledWith(1);
    await userEvent.keyboard('{ArrowLeft}');
    expect(onIndexChange).toHaveBeenLastCalledWith(2);
    await userEvent.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(onIndexChange).toHaveBeenLastCalledWith(1);
  });

  it('a double tap within 500 ms zooms in, another zooms out; slow taps do nothing', () => {
    const { stage } = renderViewer();
    tap(stage, 1000);
    tap(stage, 1600);
    expect(stage).toHaveAttribute('data-zoom', '1');
    tap(stage, 1900);
    expect(stage).toHaveAttribute('data-zoom', '2.5');
    expect(screen.getByRole('button', { name: 'Reset zoom' })).toBeInTheDocument();
    tap(stage, 5000);
    tap(stage, 5300);
    expect(stage).toHaveAttribute('data-zoom', '1');
  });

  it('a sideways swipe goes to the next or previous photo', () => {
    const { stage, onIndexChange } = renderViewer(0);
    fireEvent(
      stage,
      new PointerEvent('pointerdown', { bubbles: true, clientX: 300, clientY: 200, pointerId: 1 }),
    );
    fireEvent(
      stage,
      new PointerEvent('pointermove', { bubbles: true, clientX: 200, clientY: 205, pointerId: 1 }),
    );
    fireEvent(
      stage,
      new PointerEvent('pointerup', { bubbles: true, clientX: 150, clientY: 210, pointerId: 1 }),
    );
    expect(onIndexChange).toHaveBeenLastCalledWith(1);

    fireEvent(
      stage,
      new PointerEvent('pointerdown', { bubbles: true, clientX: 100, clientY: 200, pointerId: 1 }),
    );
    fireEvent(
      stage,
      new PointerEvent('pointermove', { bubbles: true, clientX: 200, clientY: 200, pointerId: 1 }),
    );
    fireEvent(
      stage,
      new PointerEvent('pointerup', { bubbles: true, clientX: 260, clientY: 200, pointerId: 1 }),
    );
    expect(onIndexChange).toHaveBeenLastCalledWith(2);
  });
});
