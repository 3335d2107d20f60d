// Computes an invoice total in cents. It has a bug: the total comes out too low.
//
// Three items at 10.00, 5.00 x 2 and 2.50 x 4 with a 10% discount should cost 27.00,
// but the program prints something else. Debug it with dap2mcp to see why.

struct Item {
    name: &'static str,
    price_cents: i64,
    qty: i64,
}

fn line_total(item: &Item) -> i64 {
    let amount = item.price_cents * item.qty; // marker: line_total
    amount
}

fn apply_discount(total: i64, percent: i64) -> i64 {
    total - total * percent / 100
}

fn invoice_total(items: &[Item], discount_percent: i64) -> i64 {
    let mut total: i64 = 0;
    for item in items {
        let subtotal = line_total(item); // marker: loop
        total += subtotal;
        total = apply_discount(total, discount_percent); // the bug: discounts every running total
    }
    total
}

fn main() {
    let discount: i64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let items = [
        Item { name: "notebook", price_cents: 1000, qty: 1 },
        Item { name: "pen", price_cents: 500, qty: 2 },
        Item { name: "eraser", price_cents: 250, qty: 4 },
    ];
    let total = invoice_total(&items, discount);
    println!("invoice total: {}.{:02}", total / 100, total % 100); // marker: print
    let expected = 3000 * (100 - discount) / 100;
    eprintln!("expected:      {}.{:02}", expected / 100, expected % 100);
    let _ = items.iter().map(|i| i.name).count();
    std::process::exit(if total == expected { 0 } else { 1 });
}
