import { describe, expect, it } from 'vitest';
import { createCameraLink, type CameraPose } from './camera-sync';

const pose = (x: number): CameraPose => ({
  position: [x, 0, 10],
  target: [0, 0, 0],
  up: [0, 1, 0],
});

describe('synchronised cameras', () => {
  it('moves the other view both ways, without echoing back', () => {
    const link = createCameraLink();
    const applied: Record<string, CameraPose[]> = { left: [], right: [] };
    // Applying a pose makes the follower's controls report a move, as OrbitControls does.
    for (const id of ['left', 'right']) {
      link.join(id, (next) => {
        applied[id]!.push(next);
        link.moved(id, next);
      });
    }
    link.moved('left', pose(1));
    expect(applied).toEqual({ left: [], right: [pose(1)] });
    link.moved('right', pose(2));
    expect(applied).toEqual({ left: [pose(2)], right: [pose(1)] });
  });

  it('stops moving a view once it has left', () => {
    const link = createCameraLink();
    const followed: CameraPose[] = [];
    link.join('left', () => {});
    const leave = link.join('right', (next) => followed.push(next));
    link.moved('left', pose(1));
    leave();
    link.moved('left', pose(2));
    expect(followed).toEqual([pose(1)]);
  });

  it('keeps following after a view fails to apply a pose', () => {
    const link = createCameraLink();
    const followed: CameraPose[] = [];
    link.join('left', () => {});
    const leave = link.join('right', () => {
      throw new Error('lost context');
    });
    expect(() => link.moved('left', pose(1))).toThrow('lost context');
    leave();
    link.join('right', (next) => followed.push(next));
    link.moved('left', pose(2));
    expect(followed).toEqual([pose(2)]);
  });
});
