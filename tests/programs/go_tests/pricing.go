// Package pricing totals a basket, with a bulk discount that is taken off twice (the bug the tests find).
package pricing

type Line struct {
	Item     string
	Cents    int
	Quantity int
}

// Total is the sum of the lines, less 10% for any line of ten or more.
func Total(lines []Line) int {
	total := 0
	for _, line := range lines {
		cost := line.Cents * line.Quantity
		if line.Quantity >= 10 {
			cost -= cost / 10
			total -= cost / 10 // the bug: the discount again (marker: discount again)
		}
		total += cost
	}
	return total
}

// Price of an item in the catalogue; an unknown item indexes past its end.
func Price(catalogue []int, index int) int {
	return catalogue[index] // marker: index
}
