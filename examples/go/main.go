// Computes an invoice total in cents. It has a bug: the total comes out too low.
//
// Three items at 10.00, 5.00 x 2 and 2.50 x 4 with a 10% discount should cost 27.00,
// but the program prints something else. Debug it with dap2mcp to see why.
package main

import (
	"fmt"
	"os"
	"strconv"
)

type Item struct {
	Name       string
	PriceCents int64
	Qty        int64
}

func lineTotal(item Item) int64 {
	amount := item.PriceCents * item.Qty // marker: line_total
	return amount
}

func applyDiscount(total int64, percent int64) int64 {
	return total - total*percent/100
}

func invoiceTotal(items []Item, discountPercent int64) int64 {
	var total int64
	for _, item := range items {
		subtotal := lineTotal(item) // marker: loop
		total += subtotal
		total = applyDiscount(total, discountPercent) // the bug: discounts every running total
	}
	return total
}

func main() {
	discount := int64(10)
	if len(os.Args) > 1 {
		if d, err := strconv.Atoi(os.Args[1]); err == nil {
			discount = int64(d)
		}
	}
	items := []Item{{"notebook", 1000, 1}, {"pen", 500, 2}, {"eraser", 250, 4}}
	total := invoiceTotal(items, discount)
	fmt.Printf("invoice total: %d.%02d\n", total/100, total%100) // marker: print
	expected := 3000 * (100 - discount) / 100
	fmt.Fprintf(os.Stderr, "expected:      %d.%02d\n", expected/100, expected%100)
	if total != expected {
		os.Exit(1)
	}
}
