import { expect, test } from 'vitest';
import { parseQuantity } from '../invoice.js';

test('reads a quantity', () => {
  expect(parseQuantity('3')).toBe(3);
});
