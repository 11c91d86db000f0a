import { describe, expect, it } from 'vitest';
import {
  faceNormalToModel,
  modelToWorld,
  roundMm,
  worldToModel,
  type Vec3Tuple,
} from './pin-geometry';

/** Column-major: scale by `s`, then translate by `t` (what centring and fitting a model does). */
const scaleThenTranslate = (s: number, [x, y, z]: Vec3Tuple) => [
  s,
  0,
  0,
  0,
  0,
  s,
  0,
  0,
  0,
  0,
  s,
  0,
  x,
  y,
  z,
  1,
];
/** A quarter turn about z, then a translation. */
const turnThenTranslate = ([x, y, z]: Vec3Tuple) => [
  0,
  1,
  0,
  0,
  -1,
  0,
  0,
  0,
  0,
  0,
  1,
  0,
  x,
  y,
  z,
  1,
];
const IDENTITY = scaleThenTranslate(1, [0, 0, 0]);

const close = (actual: Vec3Tuple, expected: Vec3Tuple) =>
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 9));

describe('model ↔ scene', () => {
  it.each<[string, number[], Vec3Tuple, Vec3Tuple]>([
    [
      'the identity (the viewer moves the camera, not the mesh)',
      IDENTITY,
      [12, -3, 4],
      [12, -3, 4],
    ],
    ['a centred and scaled model', scaleThenTranslate(0.5, [-10, 2, 0]), [4, 6, -8], [-8, 5, -4]],
    ['a turned model', turnThenTranslate([1, 1, 1]), [2, 0, 5], [1, 3, 6]],
  ])('%s: the model point maps to the scene and back', (_name, matrix, model, scene) => {
    close(modelToWorld(matrix, model), scene);
    close(worldToModel(matrix, scene), model);
  });

  it('a singular matrix leaves the point as it is instead of inventing one', () => {
    expect(worldToModel(scaleThenTranslate(0, [1, 1, 1]), [1, 2, 3])).toEqual([1, 2, 3]);
  });

  it('a face normal becomes unit length', () => {
    close(faceNormalToModel([0, 3, 4]), [0, 0.6, 0.8]);
    close(faceNormalToModel([0, 0, 0]), [0, 0, 0]);
  });

  it('rounds to a tenth of a micrometre for storage', () => {
    expect(roundMm([1.234567, -0.000049, 10])).toEqual([1.2346, -0, 10]);
  });
});
