// The code under test: an invoice whose total forgets the quantity of its last line.

function invoiceTotal(lines) {
  let total = 0;
  for (let i = 0; i < lines.length - 1; i++) {
    total += lines[i].price * lines[i].quantity;
  }
  const last = lines[lines.length - 1];
  return last ? total + last.price : total; // quantity forgotten
}

function parseQuantity(text) {
  const quantity = Number(text);
  if (!Number.isInteger(quantity) || quantity < 0) {
    throw new RangeError(`not a quantity: ${text}`); // marker: refused
  }
  return quantity;
}

export { invoiceTotal, parseQuantity };
