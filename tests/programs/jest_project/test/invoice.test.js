'use strict';
const { invoiceTotal, parseQuantity } = require('../invoice');

describe('invoice', () => {
  test('is empty at first', () => {
    expect(invoiceTotal([])).toBe(0);
  });

  test('refuses a bad quantity', () => {
    expect(() => parseQuantity('-3')).toThrow(RangeError); // marker: expected throw
  });

  test('totals its lines', () => {
    const lines = [{ price: 5, quantity: 2 }, { price: 3, quantity: 4 }];
    const got = invoiceTotal(lines);
    expect(got).toBe(22); // marker: failing assertion
  });

  test('reads a quantity in words', () => {
    const quantity = parseQuantity('ten'); // throws
    expect(quantity).toBe(10);
  });
});
