'use strict';
// The code under test: a basket's total, with a bulk discount that is applied once too often.

function total(prices, quantity) {
  const each = prices.reduce((sum, price) => sum + price, 0);
  const discount = quantity >= 10 ? 0.1 : 0; // bulk
  const cost = each * quantity;
  return Math.round(cost * (1 - discount) * (1 - discount)); // discount again
}

function parseQuantity(text) {
  const quantity = Number(text);
  if (!Number.isInteger(quantity) || quantity < 0) {
    throw new RangeError(`not a quantity: ${text}`); // marker: refused
  }
  return quantity;
}

module.exports = { total, parseQuantity };
