'use strict';
// The code under test: a cart whose total forgets the quantity of the last item.

function cartTotal(items) {
  let total = 0;
  for (let i = 0; i < items.length - 1; i++) {
    total += items[i].price * items[i].quantity;
  }
  const last = items[items.length - 1];
  return last ? total + last.price : total; // quantity forgotten
}

function checkItem(item) {
  if (!(item.price >= 0)) {
    throw new TypeError(`bad price: ${item.price}`);
  }
  return item;
}

module.exports = { cartTotal, checkItem };
