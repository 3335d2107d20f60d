// Computes an invoice total in cents. It has a bug: the total comes out too low.
//
// Three items at 10.00, 5.00 x 2 and 2.50 x 4 with a 10% discount should cost 27.00,
// but the program prints something else. Debug it with dap2mcp to see why.

function lineTotal(item) {
    const amount = item.priceCents * item.qty; // marker: line_total
    return amount;
}

function applyDiscount(total, percent) {
    return total - Math.floor((total * percent) / 100);
}

function invoiceTotal(items, discountPercent) {
    let total = 0;
    for (let i = 0; i < items.length; i++) {
        const subtotal = lineTotal(items[i]); // marker: loop
        total += subtotal;
        total = applyDiscount(total, discountPercent); // the bug: discounts every running total
    }
    return total;
}

function cents(amount) {
    return `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, "0")}`;
}

const discount = process.argv.length > 2 ? Number.parseInt(process.argv[2], 10) : 10;
const items = [
    { name: "notebook", priceCents: 1000, qty: 1 },
    { name: "pen", priceCents: 500, qty: 2 },
    { name: "eraser", priceCents: 250, qty: 4 },
];
const total = invoiceTotal(items, discount);
console.log(`invoice total: ${cents(total)}`); // marker: print
const expected = Math.floor((3000 * (100 - discount)) / 100);
console.error(`expected:      ${cents(expected)}`);
process.exitCode = total === expected ? 0 : 1;
