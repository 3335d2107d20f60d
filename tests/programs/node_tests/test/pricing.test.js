'use strict';
const assert = require('node:assert');
const { test } = require('node:test');
const { total, parseQuantity } = require('../pricing');

test('small basket', () => {
  assert.strictEqual(total([120, 80], 2), 400);
});

test('a bad quantity is refused', () => {
  assert.throws(() => parseQuantity('-3'), RangeError); // marker: expected throw
  assert.throws(() => assert.strictEqual(1, 2)); // an assertion that fails, on purpose
});

test('bulk discount', () => {
  const got = total([120, 240], 10);
  const want = 3240;
  assert.strictEqual(got, want); // marker: failing assertion
});

test('a quantity of words', () => {
  const quantity = parseQuantity('ten'); // throws
  assert.strictEqual(quantity, 10);
});
