'use strict';
const { parseQuantity } = require('../invoice');

test('reads a quantity', () => {
  expect(parseQuantity('3')).toBe(3);
});
