import { describe, expect, it } from 'vitest';
import { escapeLike } from './like-pattern';

describe('escapeLike', () => {
  it.each([
    ['plain text', 'plain text'],
    ['100%', '100\\%'],
    ['a_b', 'a\\_b'],
    ['back\\slash', 'back\\\\slash'],
    ['%_\\', '\\%\\_\\\\'],
    ['', ''],
  ])('%j becomes %j', (text, escaped) => {
    expect(escapeLike(text)).toBe(escaped);
  });
});
